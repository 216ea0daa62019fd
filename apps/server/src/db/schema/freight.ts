import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';

/**
 * A freight statement (运费结算单, `YF` + date + sequence) of the transporting enterprise with one carrier for a
 * period. Totals are kept on the row (computed from its lines when drafted; lines never change after) so lists and
 * the summary need no recomputation. Money in integer fen, weights in integer kg.
 */
export const freightStatements = pgTable(
  'freight_statement',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementNo: text('statement_no').notNull().unique(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** 'driver' | 'company' */
    carrierKind: text('carrier_kind').notNull(),
    /** the registered driver when the carrier is a driver */
    driverId: bigint('driver_id', { mode: 'number' }),
    carrierName: text('carrier_name').notNull(),
    /** yyyy-MM-dd, the Shanghai days of the trucks' sign-for */
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    /** the statement's rate, fen per ton excluding VAT (a line may have its own) */
    rateFen: bigint('rate_fen', { mode: 'number' }).notNull(),
    trucks: integer('trucks').notNull(),
    signedKg: bigint('signed_kg', { mode: 'number' }).notNull(),
    freightFen: bigint('freight_fen', { mode: 'number' }).notNull(),
    lossDeductionFen: bigint('loss_deduction_fen', { mode: 'number' }).notNull(),
    subtotalFen: bigint('subtotal_fen', { mode: 'number' }).notNull(),
    taxFen: bigint('tax_fen', { mode: 'number' }).notNull(),
    totalFen: bigint('total_fen', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    status: text('status').notNull().default('draft'),
    signedCopyFileId: bigint('signed_copy_file_id', { mode: 'number' }).references(() => fileObjects.id),
    carrierSigner: text('carrier_signer').notNull().default(''),
    confirmedAt: tstz('confirmed_at'),
    confirmedBy: bigint('confirmed_by', { mode: 'number' }).references(() => users.id),
    voucherFileId: bigint('voucher_file_id', { mode: 'number' }).references(() => fileObjects.id),
    payNote: text('pay_note').notNull().default(''),
    paidAt: tstz('paid_at'),
    paidBy: bigint('paid_by', { mode: 'number' }).references(() => users.id),
    cancelledAt: tstz('cancelled_at'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('freight_statement_enterprise_idx').on(t.enterpriseId, t.id), index('freight_statement_status_idx').on(t.status, t.id)],
);

/**
 * One truck on a statement, with the figures it was computed from copied at drafting. `live` is true while the
 * statement is not void: the partial unique index lets a truck be on one live statement only, so of two racing
 * drafts over the same truck one is refused by the database.
 */
export const freightLines = pgTable(
  'freight_line',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: bigint('statement_id', { mode: 'number' }).notNull().references(() => freightStatements.id),
    dispatchId: bigint('dispatch_id', { mode: 'number' }).notNull(),
    dispatchNo: text('dispatch_no').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    orderNo: text('order_no').notNull(),
    driverName: text('driver_name').notNull(),
    plateNo: text('plate_no').notNull(),
    signedAt: tstz('signed_at').notNull(),
    loadedNetKg: bigint('loaded_net_kg', { mode: 'number' }).notNull(),
    arrivedNetKg: bigint('arrived_net_kg', { mode: 'number' }).notNull(),
    signedKg: bigint('signed_kg', { mode: 'number' }).notNull(),
    lossKg: bigint('loss_kg', { mode: 'number' }).notNull(),
    transitLossPct: numeric('transit_loss_pct', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    excessLossKg: bigint('excess_loss_kg', { mode: 'number' }).notNull(),
    orderPriceFen: bigint('order_price_fen', { mode: 'number' }).notNull(),
    rateFen: bigint('rate_fen', { mode: 'number' }).notNull(),
    freightFen: bigint('freight_fen', { mode: 'number' }).notNull(),
    lossDeductionFen: bigint('loss_deduction_fen', { mode: 'number' }).notNull(),
    lineFen: bigint('line_fen', { mode: 'number' }).notNull(),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    index('freight_line_statement_idx').on(t.statementId, t.id),
    uniqueIndex('freight_line_live_dispatch_uq').on(t.dispatchId).where(sql`${t.live}`),
    index('freight_line_order_idx').on(t.orderId),
  ],
);

export type FreightStatement = typeof freightStatements.$inferSelect;
export type FreightLineRow = typeof freightLines.$inferSelect;
