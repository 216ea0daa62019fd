import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ContractTerms } from '@coalx/shared';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';

/**
 * An order (订单, `DD` + date + sequence), one per effective contract (the unique contract id makes a second
 * creation a no-op). What delivery and settlement need from the contract is copied here when the order is made
 * (`terms`, quantity, price), so the order never reads the contract's tables and an edit elsewhere cannot change it.
 * Money in integer fen, quantities in integer kg.
 */
export const orders = pgTable(
  'trade_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    contractId: bigint('contract_id', { mode: 'number' }).notNull(),
    contractNo: text('contract_no').notNull(),
    dealId: bigint('deal_id', { mode: 'number' }).notNull(),
    dealNo: text('deal_no').notNull(),
    tradeNo: text('trade_no').notNull(),
    tradeType: integer('trade_type').notNull(),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    sellerName: text('seller_name').notNull(),
    buyerName: text('buyer_name').notNull(),
    /** which side arranges the trucks (到厂价: the seller; 出厂价/坑口价: the buyer): 'seller' | 'buyer' */
    transportSide: text('transport_side').notNull(),
    productName: text('product_name').notNull(),
    stockCode: text('stock_code').notNull(),
    /** the trade's quality indicators, as the contract states them */
    quality: jsonb('quality').$type<Record<string, number | null>>().notNull(),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    /** PRICE_TYPES key */
    priceType: text('price_type').notNull(),
    terms: jsonb('terms').$type<ContractTerms>().notNull(),
    /** what the buyer must pay into escrow: amount × prepayment ratio, rounded half up to the fen */
    prepaymentFen: bigint('prepayment_fen', { mode: 'number' }).notNull(),
    paymentDeadline: tstz('payment_deadline').notNull(),
    /** frozen in the buyer's account for this order (0 until paid; back to 0 when released or settled) */
    escrowFen: bigint('escrow_fen', { mode: 'number' }).notNull().default(0),
    status: text('status').notNull().default('unpaid'),
    // delivery progress, kept by the delivery module in the same transaction as each truck's move (through the
    // order service), so lists need no aggregate and the planned total is checked by one conditional UPDATE
    plannedKg: bigint('planned_kg', { mode: 'number' }).notNull().default(0),
    dispatchedTrucks: integer('dispatched_trucks').notNull().default(0),
    loadedKg: bigint('loaded_kg', { mode: 'number' }).notNull().default(0),
    loadedTrucks: integer('loaded_trucks').notNull().default(0),
    arrivedKg: bigint('arrived_kg', { mode: 'number' }).notNull().default(0),
    arrivedTrucks: integer('arrived_trucks').notNull().default(0),
    signedKg: bigint('signed_kg', { mode: 'number' }).notNull().default(0),
    signedTrucks: integer('signed_trucks').notNull().default(0),
    paidAt: tstz('paid_at'),
    shippedAt: tstz('shipped_at'),
    deliveredAt: tstz('delivered_at'),
    /** the settlement statement confirmed by both (结算单 JS…): the amount the invoices must total */
    settlementNo: text('settlement_no'),
    settledFen: bigint('settled_fen', { mode: 'number' }),
    settledAt: tstz('settled_at'),
    /**
     * What the order's live invoices (待确认 and 已确认) total, kept by the trigger `order_invoiced` (migration 0018)
     * on every invoice written or moved: 待开票 is the settled orders where it differs from the settled amount.
     */
    invoicedFen: bigint('invoiced_fen', { mode: 'number' }).notNull().default(0),
    completedAt: tstz('completed_at'),
    terminatedAt: tstz('terminated_at'),
    terminateReason: text('terminate_reason'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('trade_order_contract_uq').on(t.contractId),
    index('trade_order_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('trade_order_buyer_idx').on(t.buyerEnterpriseId, t.id),
    index('trade_order_status_deadline_idx').on(t.status, t.paymentDeadline),
    index('trade_order_deal_idx').on(t.dealId),
    // the list's order (newest first), for everyone and for each side; the status tabs count from the side's index
    index('trade_order_created_idx').on(t.createdAt, t.id),
    index('trade_order_seller_created_idx').on(t.sellerEnterpriseId, t.createdAt, t.id),
    index('trade_order_buyer_created_idx').on(t.buyerEnterpriseId, t.createdAt, t.id),
    index('trade_order_seller_status_idx').on(t.sellerEnterpriseId, t.status),
    index('trade_order_buyer_status_idx').on(t.buyerEnterpriseId, t.status),
    // the buyer's money held for its orders (资金信息), read from the orders that hold some
    index('trade_order_escrow_idx').on(t.buyerEnterpriseId).where(sql`${t.escrowFen} > 0`),
    // 待开票 and 超过交收期: the few orders in those states (the statement's sum: 待开票 is settled and not yet invoiced in full)
    index('trade_order_invoice_due_idx').on(t.settledAt, t.id).where(sql`${t.status} = 'settled' AND ${t.invoicedFen} <> ${t.settledFen}`),
    index('trade_order_seller_invoice_due_idx').on(t.sellerEnterpriseId, t.settledAt, t.id).where(sql`${t.status} = 'settled' AND ${t.invoicedFen} <> ${t.settledFen}`),
    index('trade_order_buyer_invoice_due_idx').on(t.buyerEnterpriseId, t.settledAt, t.id).where(sql`${t.status} = 'settled' AND ${t.invoicedFen} <> ${t.settledFen}`),
    index('trade_order_delivering_idx').on(sql`(${t.terms}->>'deliveryDateEnd')`).where(sql`${t.status} IN ('awaiting_shipment', 'shipping')`),
  ],
);

/** The order's timeline: every event of the order and of its trucks, tickets and reports, in the order it happened. */
export const orderEvents = pgTable(
  'order_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    /** what happened, in Chinese (已付款, 派车 PC…, 装车过磅…) */
    action: text('action').notNull(),
    actorUserId: bigint('actor_user_id', { mode: 'number' }).references(() => users.id),
    /** the person, or 系统 for the scheduler */
    actorName: text('actor_name').notNull(),
    note: text('note').notNull().default(''),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [index('order_event_order_idx').on(t.orderId, t.id)],
);

export type Order = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderEvent = typeof orderEvents.$inferSelect;
