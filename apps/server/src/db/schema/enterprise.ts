import { bigserial, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';

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
