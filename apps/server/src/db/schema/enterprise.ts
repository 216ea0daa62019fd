import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { users } from './auth';
import { fileObjects } from './files';

/** An enterprise (coal mine, trader, power plant) trading on the platform once audited. */
export const enterprises = pgTable('enterprise', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Public client number shown to users (enterPriseInfo.clientId). */
  clientId: text('client_id').notNull().unique(),
  organName: text('organ_name').notNull().unique(),
  creditCode: text('credit_code').notNull().unique(),
  enterpriseType: text('enterprise_type').notNull(),
  legalPerson: text('legal_person').notNull(),
  /** Full registered address for display: area name + detail. */
  address: text('address').notNull().default(''),
  /** The leaf of the area picker (sys_area.code) and its names joined, e.g. 山西省/朔州市/朔城区. */
  areaCode: text('area_code').notNull().default(''),
  areaName: text('area_name').notNull().default(''),
  addressDetail: text('address_detail').notNull().default(''),
  contactName: text('contact_name').notNull().default(''),
  contactMobile: text('contact_mobile').notNull().default(''),
  contactEmail: text('contact_email').notNull().default(''),
  /** Settlement bank account: withdrawals go only here (出金). */
  bankName: text('bank_name').notNull().default(''),
  bankBranch: text('bank_branch').notNull().default(''),
  bankAccountNo: text('bank_account_no').notNull().default(''),
  auditStatus: text('audit_status').notNull().default('pending'),
  auditReason: text('audit_reason'),
  auditedAt: tstz('audited_at'),
  /** When the registration (or its correction) was last sent to the audit. */
  submittedAt: tstz('submitted_at'),
  ...timestamps,
});
export type Enterprise = typeof enterprises.$inferSelect;
export type NewEnterprise = typeof enterprises.$inferInsert;

/** The enterprise's documents: business licence and authorisation letter (private files). */
export const enterpriseAttachments = pgTable(
  'enterprise_attachment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** licence | authorization */
    kind: text('kind').notNull(),
    fileId: bigint('file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    /** Superseded by a resubmission or an approved change. */
    replacedAt: tstz('replaced_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('enterprise_attachment_enterprise_idx').on(t.enterpriseId)],
);

/** A change of the legal data; the enterprise trades on its audited data until the operator approves. */
export const enterpriseChangeRequests = pgTable(
  'enterprise_change_request',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    organName: text('organ_name').notNull(),
    creditCode: text('credit_code').notNull(),
    legalPerson: text('legal_person').notNull(),
    bankName: text('bank_name').notNull(),
    bankBranch: text('bank_branch').notNull(),
    bankAccountNo: text('bank_account_no').notNull(),
    licenceFileId: bigint('licence_file_id', { mode: 'number' }).references(() => fileObjects.id),
    /** pending | approved | rejected */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    appliedBy: bigint('applied_by', { mode: 'number' }).notNull().references(() => users.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    reviewedAt: tstz('reviewed_at'),
    ...timestamps,
  },
  // one open change per enterprise: a double click cannot queue two
  (t) => [uniqueIndex('enterprise_change_one_pending_uq').on(t.enterpriseId).where(sql`${t.status} = 'pending'`)],
);

export type EnterpriseAttachment = typeof enterpriseAttachments.$inferSelect;
export type NewEnterpriseAttachment = typeof enterpriseAttachments.$inferInsert;
export type EnterpriseChangeRequest = typeof enterpriseChangeRequests.$inferSelect;
export type NewEnterpriseChangeRequest = typeof enterpriseChangeRequests.$inferInsert;

/**
 * A suspension of an enterprise's trading (暂停交易) by the trading centre: from `startsAt` until `endsAt`, or until
 * lifted when `endsAt` is null. It stops new trades only (listings, subscriptions, enrolments, bids); what is under
 * way continues. `status`: active | lifted.
 */
export const enterpriseSuspensions = pgTable(
  'enterprise_suspension',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    reason: text('reason').notNull(),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at'),
    status: text('status').notNull().default('active'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    liftedAt: tstz('lifted_at'),
    liftedBy: bigint('lifted_by', { mode: 'number' }).references(() => users.id),
    liftReason: text('lift_reason'),
    ...timestamps,
  },
  (t) => [index('enterprise_suspension_enterprise_idx').on(t.enterpriseId, t.status)],
);
