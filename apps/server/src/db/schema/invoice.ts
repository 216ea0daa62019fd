import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';
import { orders } from './order';

/**
 * A VAT invoice (增值税发票) the seller registers against a settled order, or the red-letter invoice (红字发票) that
 * reverses one (direction 'red', negative amounts, `reverses_id` the one it reverses). The parties and the order's
 * numbers are copied in so the lists filter without reading the order. A code and number identify an invoice
 * nationwide, so they are unique across the platform ('' code for 数电).
 */
export const invoices = pgTable(
  'invoice',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    orderNo: text('order_no').notNull(),
    settlementNo: text('settlement_no').notNull(),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    sellerName: text('seller_name').notNull(),
    buyerName: text('buyer_name').notNull(),
    /** 'blue' | 'red' */
    direction: text('direction').notNull().default('blue'),
    /** 'special' | 'ordinary' */
    kind: text('kind').notNull(),
    /** 'paper' | 'digital' */
    medium: text('medium').notNull(),
    code: text('code').notNull().default(''),
    number: text('number').notNull(),
    /** yyyy-MM-dd, Asia/Shanghai */
    issuedOn: text('issued_on').notNull(),
    /** percent */
    rate: integer('rate').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    taxFen: bigint('tax_fen', { mode: 'number' }).notNull(),
    totalFen: bigint('total_fen', { mode: 'number' }).notNull(),
    fileId: bigint('file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    status: text('status').notNull().default('pending'),
    reversesId: bigint('reverses_id', { mode: 'number' }),
    reverseReason: text('reverse_reason').notNull().default(''),
    confirmNote: text('confirm_note').notNull().default(''),
    confirmedBy: bigint('confirmed_by', { mode: 'number' }).references(() => users.id),
    confirmedAt: tstz('confirmed_at'),
    reversedAt: tstz('reversed_at'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_number_uq').on(t.code, t.number),
    // one red-letter invoice per reversed invoice
    uniqueIndex('invoice_reverses_uq').on(t.reversesId).where(sql`${t.reversesId} IS NOT NULL`),
    index('invoice_order_idx').on(t.orderId, t.id),
    index('invoice_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('invoice_buyer_idx').on(t.buyerEnterpriseId, t.id),
    // the list's order (newest first), for everyone and for each side
    index('invoice_created_idx').on(t.createdAt, t.id),
    index('invoice_seller_created_idx').on(t.sellerEnterpriseId, t.createdAt, t.id),
    index('invoice_buyer_created_idx').on(t.buyerEnterpriseId, t.createdAt, t.id),
    index('invoice_pending_idx').on(t.buyerEnterpriseId).where(sql`${t.status} = 'pending'`),
  ],
);

export type Invoice = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
