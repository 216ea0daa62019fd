import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LongTermPricing, MonthPrice } from '@coalx/shared';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';

/**
 * A long-term deal (长协, `CX` + date + sequence): the seller's offer, then the framework contract's period, plan and
 * pricing (DESIGN.md §8 "Long-term deals"). The buyer is known once an application is accepted; `target` names the
 * one buyer a 定向 offer is for. `contract_id` is the framework contract (contract.long_term_id points back).
 */
export const longTermDeals = pgTable(
  'long_term_deal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    longTermNo: text('long_term_no').notNull().unique(),
    status: text('status').notNull().default('draft'),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).references(() => enterprises.id),
    targetEnterpriseId: bigint('target_enterprise_id', { mode: 'number' }).references(() => enterprises.id),
    stockCode: text('stock_code').notNull(),
    productName: text('product_name').notNull(),
    quality: jsonb('quality').$type<Record<string, number | null>>().notNull(),
    priceType: text('price_type').notNull(),
    transport: text('transport').notNull(),
    deliveryProvince: text('delivery_province').notNull(),
    deliveryCity: text('delivery_city').notNull(),
    deliveryDistrict: text('delivery_district').notNull().default(''),
    deliveryPlace: text('delivery_place').notNull(),
    /** YYYY-MM, both included */
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    plannedKg: bigint('planned_kg', { mode: 'number' }).notNull(),
    pricing: jsonb('pricing').$type<LongTermPricing>().notNull(),
    /** YYYY-MM-DD: the last day applications are taken */
    applyDeadline: text('apply_deadline').notNull(),
    remark: text('remark').notNull().default(''),
    contractId: bigint('contract_id', { mode: 'number' }),
    terminateReason: text('terminate_reason'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    publishedAt: tstz('published_at'),
    acceptedAt: tstz('accepted_at'),
    executingAt: tstz('executing_at'),
    endedAt: tstz('ended_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('long_term_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('long_term_buyer_idx').on(t.buyerEnterpriseId, t.id),
    index('long_term_status_idx').on(t.status),
  ],
);

/**
 * One month of a long-term deal: its plan, what live call-offs hold of it (`reserved_kg`: pending + confirmed,
 * moved by one conditional UPDATE so concurrent call-offs never pass the plan) and its price once fixed on the
 * month's first day (kept with the terms it used, so a later index correction never changes it).
 */
export const longTermMonths = pgTable(
  'long_term_month',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    longTermId: bigint('long_term_id', { mode: 'number' }).notNull().references(() => longTermDeals.id),
    /** YYYY-MM */
    month: text('month').notNull(),
    plannedKg: bigint('planned_kg', { mode: 'number' }).notNull(),
    reservedKg: bigint('reserved_kg', { mode: 'number' }).notNull().default(0),
    price: jsonb('price').$type<MonthPrice>(),
    pricedAt: tstz('priced_at'),
  },
  (t) => [uniqueIndex('long_term_month_uq').on(t.longTermId, t.month)],
);

/** A buyer's application to an open offer; one pending per buyer and offer. */
export const longTermApplications = pgTable(
  'long_term_application',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    longTermId: bigint('long_term_id', { mode: 'number' }).notNull().references(() => longTermDeals.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    status: text('status').notNull().default('pending'),
    note: text('note').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    decidedAt: tstz('decided_at'),
  },
  (t) => [
    index('long_term_application_deal_idx').on(t.longTermId),
    uniqueIndex('long_term_application_pending_uq').on(t.longTermId, t.buyerEnterpriseId).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * A month's call-off (月度调运, `DY` + date + sequence). On confirmation it becomes a deal (deal.trade_kind
 * 'long_term', source_id = this id), so the deal's unique (kind, source) keeps exactly one deal per call-off.
 */
export const longTermCallOffs = pgTable(
  'long_term_call_off',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    callOffNo: text('call_off_no').notNull().unique(),
    longTermId: bigint('long_term_id', { mode: 'number' }).notNull().references(() => longTermDeals.id),
    month: text('month').notNull(),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    deliveryDateStart: text('delivery_date_start').notNull(),
    deliveryDateEnd: text('delivery_date_end').notNull(),
    /** seller | buyer */
    initiator: text('initiator').notNull(),
    status: text('status').notNull().default('pending'),
    note: text('note').notNull().default(''),
    /** why it was declined */
    reason: text('reason').notNull().default(''),
    dealId: bigint('deal_id', { mode: 'number' }),
    dealNo: text('deal_no'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    decidedAt: tstz('decided_at'),
  },
  (t) => [index('long_term_call_off_deal_idx').on(t.longTermId, t.month), uniqueIndex('long_term_call_off_deal_uq').on(t.dealId)],
);

export type LongTermDealRow = typeof longTermDeals.$inferSelect;
export type LongTermMonthRow = typeof longTermMonths.$inferSelect;
export type LongTermCallOffRow = typeof longTermCallOffs.$inferSelect;
