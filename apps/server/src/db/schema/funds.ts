import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { users } from './auth';

/** One funds account per enterprise; amounts in fen. The CHECKs make a negative balance impossible in SQL too. */
export const fundAccounts = pgTable(
  'fund_account',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().unique().references(() => enterprises.id),
    available: bigint('available', { mode: 'number' }).notNull().default(0),
    frozen: bigint('frozen', { mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (t) => [check('fund_account_available_nonneg', sql`${t.available} >= 0`), check('fund_account_frozen_nonneg', sql`${t.frozen} >= 0`)],
);

/**
 * The append-only journal: one row per movement, written in the transaction that moves the balance, with the
 * balances after it. A trigger (migration 0002) refuses UPDATE and DELETE.
 */
export const fundJournal = pgTable(
  'fund_journal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' }).notNull().references(() => fundAccounts.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** credit | debit_frozen | freeze | release | pay_out_frozen | receive (see funds/ledger.ts) */
    kind: text('kind').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    availableAfter: bigint('available_after', { mode: 'number' }).notNull(),
    frozenAfter: bigint('frozen_after', { mode: 'number' }).notNull(),
    /** What the movement belongs to: deposit_in, withdrawal, trade_deposit, … and its id. */
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    /** A retried request with the same key moves no money the second time. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    remark: text('remark').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('fund_journal_amount_positive', sql`${t.amount} > 0`),
    index('fund_journal_enterprise_idx').on(t.enterpriseId, t.createdAt),
    // 资金流水 newest first, all kinds or one
    index('fund_journal_enterprise_id_idx').on(t.enterpriseId, t.id),
    index('fund_journal_enterprise_kind_idx').on(t.enterpriseId, t.kind, t.id),
    index('fund_journal_enterprise_kind_at_idx').on(t.enterpriseId, t.kind, t.createdAt),
  ],
);

/** 入金: a bank transfer the enterprise declares and the operator confirms. */
export const depositInApplications = pgTable(
  'fund_deposit_in',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    bankName: text('bank_name').notNull(),
    payerAccountNo: text('payer_account_no').notNull(),
    transferDate: text('transfer_date').notNull(),
    voucherUrl: text('voucher_url').notNull(),
    remark: text('remark').notNull().default(''),
    /** pending | confirmed | rejected */
    status: text('status').notNull().default('pending'),
    rejectReason: text('reject_reason'),
    requestId: text('request_id').notNull(),
    appliedBy: bigint('applied_by', { mode: 'number' }).notNull().references(() => users.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    reviewedAt: tstz('reviewed_at'),
    ...timestamps,
  },
  (t) => [
    check('fund_deposit_in_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('fund_deposit_in_request_uq').on(t.enterpriseId, t.requestId),
    index('fund_deposit_in_pending_idx').on(t.enterpriseId).where(sql`${t.status} = 'pending'`),
  ],
);

/** 出金: a withdrawal to the enterprise's audited bank account; frozen at once, paid or released by the operator. */
export const withdrawals = pgTable(
  'fund_withdrawal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    bankName: text('bank_name').notNull(),
    bankBranch: text('bank_branch').notNull(),
    bankAccountNo: text('bank_account_no').notNull(),
    accountName: text('account_name').notNull(),
    remark: text('remark').notNull().default(''),
    /** pending | paid | rejected */
    status: text('status').notNull().default('pending'),
    rejectReason: text('reject_reason'),
    requestId: text('request_id').notNull(),
    appliedBy: bigint('applied_by', { mode: 'number' }).notNull().references(() => users.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    reviewedAt: tstz('reviewed_at'),
    ...timestamps,
  },
  (t) => [
    check('fund_withdrawal_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('fund_withdrawal_request_uq').on(t.enterpriseId, t.requestId),
    index('fund_withdrawal_pending_idx').on(t.enterpriseId, t.amount).where(sql`${t.status} = 'pending'`),
  ],
);

/** A deposit (保证金) frozen for one trade: a listing subscription or an auction enrolment. */
export const tradeDeposits = pgTable(
  'fund_trade_deposit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** listing | auction */
    tradeKind: text('trade_kind').notNull(),
    tradeId: text('trade_id').notNull(),
    /** The subscription or enrolment the deposit secures. */
    refId: text('ref_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** frozen | performance | released | applied */
    status: text('status').notNull().default('frozen'),
    ...timestamps,
  },
  (t) => [
    check('fund_trade_deposit_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('fund_trade_deposit_ref_uq').on(t.tradeKind, t.refId),
    index('fund_trade_deposit_enterprise_idx').on(t.enterpriseId),
    // 资金信息: the deposits still held, summed from the index alone
    index('fund_trade_deposit_held_idx').on(t.enterpriseId, t.amount).where(sql`${t.status} IN ('frozen', 'performance')`),
  ],
);

/** The enterprise's pay password (支付密码): a memory-hard hash of the browser-side hash, and its own lock. */
export const payPasswords = pgTable('fund_pay_password', {
  enterpriseId: bigint('enterprise_id', { mode: 'number' }).primaryKey().references(() => enterprises.id),
  passwordHash: text('password_hash').notNull(),
  failedCount: integer('failed_count').notNull().default(0),
  lockedUntil: tstz('locked_until'),
  ...timestamps,
});

export type FundAccount = typeof fundAccounts.$inferSelect;
export type NewFundAccount = typeof fundAccounts.$inferInsert;
export type FundJournalEntry = typeof fundJournal.$inferSelect;
export type NewFundJournalEntry = typeof fundJournal.$inferInsert;
export type DepositInApplication = typeof depositInApplications.$inferSelect;
export type NewDepositInApplication = typeof depositInApplications.$inferInsert;
export type Withdrawal = typeof withdrawals.$inferSelect;
export type NewWithdrawal = typeof withdrawals.$inferInsert;
export type TradeDeposit = typeof tradeDeposits.$inferSelect;
export type NewTradeDeposit = typeof tradeDeposits.$inferInsert;
export type PayPassword = typeof payPasswords.$inferSelect;
export type NewPayPassword = typeof payPasswords.$inferInsert;

/**
 * The daily funds reconciliation (资金对账) of one Asia/Shanghai day: Σ accounts against Σ confirmed 入金 − Σ paid
 * 出金, and the journal replayed against the balances. `differenceFen` 0 and `balanced` true when everything agrees;
 * `figures` keeps every sum and each account that differs.
 */
export const fundsReconciliations = pgTable('fund_reconciliation', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** YYYY-MM-DD, Asia/Shanghai. */
  day: text('day').notNull().unique(),
  balanced: boolean('balanced').notNull(),
  differenceFen: bigint('difference_fen', { mode: 'number' }).notNull(),
  figures: jsonb('figures').$type<Record<string, unknown>>().notNull(),
  madeAt: tstz('made_at').notNull().defaultNow(),
});
