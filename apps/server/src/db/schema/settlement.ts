import type { StatementFigures } from '@coalx/shared';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { orders } from './order';

/**
 * A settlement statement (结算单, `JS` + date + sequence) for one order. The figures (every truck, the lab report,
 * each quality line, the money block) are frozen as issued in `figures`; the columns repeat what lists filter and
 * what the money needs. At most one statement stands per order (pending, disputed or confirmed); a returned one
 * stays for the record.
 */
export const settlementStatements = pgTable(
  'settlement_statement',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementNo: text('statement_no').notNull().unique(),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** StatementStates: pending | confirmed | disputed | returned */
    status: text('status').notNull().default('pending'),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    escrowFen: bigint('escrow_fen', { mode: 'number' }).notNull(),
    feeFen: bigint('fee_fen', { mode: 'number' }).notNull(),
    settledKg: bigint('settled_kg', { mode: 'number' }).notNull(),
    figures: jsonb('figures').$type<StatementFigures>().notNull(),
    disputeReason: text('dispute_reason').notNull().default(''),
    rulingNote: text('ruling_note').notNull().default(''),
    issuedBy: bigint('issued_by', { mode: 'number' }).notNull().references(() => users.id),
    issuedByName: text('issued_by_name').notNull(),
    issuedAt: tstz('issued_at').notNull(),
    confirmedBy: bigint('confirmed_by', { mode: 'number' }).references(() => users.id),
    confirmedAt: tstz('confirmed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('settlement_statement_live_uq').on(t.orderId).where(sql`${t.status} <> 'returned'`),
    index('settlement_statement_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('settlement_statement_buyer_idx').on(t.buyerEnterpriseId, t.id),
    index('settlement_statement_waiting_idx').on(t.status, t.buyerEnterpriseId).where(sql`${t.status} IN ('pending', 'disputed')`),
  ],
);
export type SettlementStatement = typeof settlementStatements.$inferSelect;
