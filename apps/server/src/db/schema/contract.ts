import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ContractContext, ContractTerms } from '@coalx/shared';
import { users } from './auth';
import { tstz } from './columns';
import { deals } from './deal';
import { enterprises } from './enterprise';
import { fileObjects } from './files';
import { longTermDeals } from './long-term';

/** A contract template (模板配置): every save is a new version; a contract keeps the version it was made from. */
export const contractTemplates = pgTable(
  'contract_template',
  {
    id: serial('id').primaryKey(),
    /** CONTRACT_KINDS key */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contract_template_kind_version_uq').on(t.kind, t.version)],
);

/**
 * One contract per deal (the unique deal_id makes a second generation a no-op), or per long-term deal's framework. `context` is what the text was
 * made from (parties as registered at the deal, goods, terms), so an edit of the terms regenerates the same text
 * with only the terms changed; `pdf_key` is the current PDF in file storage (the signed one once signed).
 */
export const contracts = pgTable(
  'contract',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractNo: text('contract_no').notNull().unique(),
    /** the deal it was made for; null for a long-term framework contract, which `long_term_id` names instead */
    dealId: bigint('deal_id', { mode: 'number' }).references(() => deals.id),
    longTermId: bigint('long_term_id', { mode: 'number' }).references(() => longTermDeals.id),
    kind: text('kind').notNull(),
    templateId: integer('template_id').notNull().references(() => contractTemplates.id),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    status: text('status').notNull().default('pending'),
    context: jsonb('context').$type<ContractContext>().notNull(),
    /** the deal's time as the context states it (ISO text, sorts as time): the list's order, indexed */
    dealAt: text('deal_at').generatedAlwaysAs(sql`("context"->>'dealAt')`),
    terms: jsonb('terms').$type<ContractTerms>().notNull(),
    text: jsonb('text').$type<string[]>().notNull(),
    pdfKey: text('pdf_key').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    signDeadline: tstz('sign_deadline').notNull(),
    sellerSignedAt: tstz('seller_signed_at'),
    buyerSignedAt: tstz('buyer_signed_at'),
    effectiveAt: tstz('effective_at'),
    extendedAt: tstz('extended_at'),
    extendReason: text('extend_reason'),
    voidReason: text('void_reason'),
    /** BREACH_RULINGS key, set when voided */
    breachBy: text('breach_by'),
    /** the performance deposits at stake (trade_deposit ids), found at generation */
    sellerDepositId: bigint('seller_deposit_id', { mode: 'number' }),
    buyerDepositId: bigint('buyer_deposit_id', { mode: 'number' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contract_deal_uq').on(t.dealId),
    uniqueIndex('contract_long_term_uq').on(t.longTermId),
    check('contract_deal_or_long_term', sql`(${t.dealId} IS NULL) <> (${t.longTermId} IS NULL)`),
    index('contract_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('contract_buyer_idx').on(t.buyerEnterpriseId, t.id),
    index('contract_status_deadline_idx').on(t.status, t.signDeadline),
    // the list's order (newest deal first), for everyone and for each side; the deal number opens a contract
    index('contract_deal_at_idx').on(t.dealAt, t.id),
    index('contract_seller_deal_at_idx').on(t.sellerEnterpriseId, t.dealAt, t.id),
    index('contract_buyer_deal_at_idx').on(t.buyerEnterpriseId, t.dealAt, t.id),
    index('contract_deal_no_idx').on(sql`(${t.context}->>'dealNo')`),
    // 待签署: the contracts still open to signature, by side
    index('contract_signable_seller_idx').on(t.sellerEnterpriseId).where(sql`${t.status} IN ('pending', 'seller_signed', 'buyer_signed') AND ${t.sellerSignedAt} IS NULL`),
    index('contract_signable_buyer_idx').on(t.buyerEnterpriseId).where(sql`${t.status} IN ('pending', 'seller_signed', 'buyer_signed') AND ${t.buyerSignedAt} IS NULL`),
  ],
);

/** A side's signature: by certificate (PAdES in the PDF) or by an accepted paper copy. An edit clears it. */
export const contractSignatures = pgTable(
  'contract_signature',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractId: bigint('contract_id', { mode: 'number' }).notNull().references(() => contracts.id),
    /** seller | buyer */
    side: text('side').notNull(),
    /** certificate | paper */
    method: text('method').notNull(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    enterpriseName: text('enterprise_name').notNull(),
    signerName: text('signer_name').notNull(),
    signerUsername: text('signer_username').notNull(),
    certificateSerial: text('certificate_serial'),
    certificateSummary: text('certificate_summary'),
    /** the PDF as this signature left it */
    pdfSha256: text('pdf_sha256'),
    signedAt: tstz('signed_at').notNull(),
    clearedAt: tstz('cleared_at'),
  },
  (t) => [uniqueIndex('contract_signature_live_uq').on(t.contractId, t.side).where(sql`${t.clearedAt} IS NULL`)],
);

/** A paper contract signed and stamped offline (合同上传), for the operator to compare and accept or reject. */
export const contractUploads = pgTable(
  'contract_upload',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractId: bigint('contract_id', { mode: 'number' }).notNull().references(() => contracts.id),
    side: text('side').notNull(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    fileId: bigint('file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    fileName: text('file_name').notNull(),
    status: text('status').notNull().default('submitted'),
    submittedBy: bigint('submitted_by', { mode: 'number' }).notNull().references(() => users.id),
    submittedByName: text('submitted_by_name').notNull(),
    reviewNote: text('review_note').notNull().default(''),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    reviewedAt: tstz('reviewed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('contract_upload_contract_idx').on(t.contractId),
    // one paper copy under review per contract at a time
    uniqueIndex('contract_upload_pending_uq').on(t.contractId).where(sql`${t.status} = 'submitted'`),
  ],
);

/** The history a contract's detail shows: every generation, edit, signature, upload, review and ruling. */
export const contractEvents = pgTable(
  'contract_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractId: bigint('contract_id', { mode: 'number' }).notNull().references(() => contracts.id),
    at: tstz('at').notNull(),
    action: text('action').notNull(),
    actorUserId: bigint('actor_user_id', { mode: 'number' }).references(() => users.id),
    actorName: text('actor_name').notNull(),
    note: text('note').notNull().default(''),
  },
  (t) => [index('contract_event_contract_idx').on(t.contractId, t.id)],
);

export type ContractRow = typeof contracts.$inferSelect;
export type ContractTemplateRow = typeof contractTemplates.$inferSelect;
