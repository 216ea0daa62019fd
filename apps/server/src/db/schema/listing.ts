import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { users } from './auth';
import type { QualityIndicators } from './product';

/**
 * A listing (挂牌): type 0 sale, 1 purchase. Money in fen, quantities in kg.
 * `status` is the publishing workflow (draft → submitted → approved | rejected); `hangState` the market state of an
 * approved listing (0 before the window, 1 open, 2 ended), moved by the scheduler and by selling out.
 */
export const listings = pgTable(
  'listing',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeNo: text('trade_no').notNull().unique(),
    tradeType: integer('trade_type').notNull(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    stockCode: text('stock_code').notNull(),
    productName: text('product_name').notNull(),
    category: text('category').notNull(),
    quality: jsonb('quality').$type<QualityIndicators>().notNull().default({}),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
    /** Held by pending and confirmed subscriptions; the remainder is quantity − subscribed. */
    subscribedKg: bigint('subscribed_kg', { mode: 'number' }).notNull().default(0),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    minSubscribeKg: bigint('min_subscribe_kg', { mode: 'number' }).notNull(),
    maxSubscribeKg: bigint('max_subscribe_kg', { mode: 'number' }).notNull(),
    /** per_ton: depositValue fen per ton subscribed; fixed: depositValue fen per subscription. */
    depositMode: text('deposit_mode').notNull(),
    depositValueFen: bigint('deposit_value_fen', { mode: 'number' }).notNull(),
    priceType: text('price_type').notNull(),
    transport: text('transport').notNull(),
    deliveryProvince: text('delivery_province').notNull(),
    deliveryCity: text('delivery_city').notNull(),
    deliveryDistrict: text('delivery_district').notNull(),
    deliveryPlace: text('delivery_place').notNull(),
    deliveryDateStart: date('delivery_date_start').notNull(),
    deliveryDateEnd: date('delivery_date_end').notNull(),
    listedDateStart: tstz('listed_date_start').notNull(),
    listedDateEnd: tstz('listed_date_end').notNull(),
    autoConfirm: boolean('auto_confirm').notNull().default(false),
    remark: text('remark').notNull().default(''),
    status: text('status').notNull(),
    rejectReason: text('reject_reason'),
    auditTime: tstz('audit_time'),
    auditedBy: bigint('audited_by', { mode: 'number' }).references(() => users.id),
    hangState: integer('hang_state').notNull().default(0),
    endedAt: tstz('ended_at'),
    ...timestamps,
  },
  (t) => [
    check('listing_quantities', sql`${t.quantityKg} > 0 AND ${t.subscribedKg} >= 0 AND ${t.subscribedKg} <= ${t.quantityKg}`),
    check('listing_subscribe_range', sql`${t.minSubscribeKg} > 0 AND ${t.minSubscribeKg} <= ${t.maxSubscribeKg} AND ${t.maxSubscribeKg} <= ${t.quantityKg}`),
    check('listing_money', sql`${t.priceFen} >= 0 AND ${t.depositValueFen} >= 0`),
    index('listing_market_idx').on(t.status, t.hangState, t.tradeType),
    index('listing_enterprise_idx').on(t.enterpriseId),
    // the scheduler's round (moveListingsOnTime, dueListings): one partial index per arm of what may be due
    index('listing_due_start_idx').on(t.listedDateStart).where(sql`${t.status} = 'approved' AND ${t.hangState} = 0`),
    index('listing_due_end_idx').on(t.listedDateEnd).where(sql`${t.status} = 'approved' AND ${t.hangState} IN (0, 1)`),
    index('listing_sold_out_idx').on(t.id).where(sql`${t.status} = 'approved' AND ${t.hangState} IN (0, 1) AND ${t.subscribedKg} >= ${t.quantityKg}`),
    index('listing_reopenable_idx').on(t.listedDateEnd).where(sql`${t.status} = 'approved' AND ${t.hangState} = 2`),
  ],
);

/** A subscription (摘牌) of part of a listing by a counterparty; its deposit is frozen when it is made. */
export const listingSubscriptions = pgTable(
  'listing_subscription',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    listingId: bigint('listing_id', { mode: 'number' }).notNull().references(() => listings.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    depositFen: bigint('deposit_fen', { mode: 'number' }).notNull(),
    depositId: bigint('deposit_id', { mode: 'number' }),
    /** pending | confirmed | declined */
    status: text('status').notNull().default('pending'),
    declineReason: text('decline_reason'),
    decidedAt: tstz('decided_at'),
    requestId: text('request_id').notNull(),
    ...timestamps,
  },
  (t) => [
    check('listing_subscription_quantity', sql`${t.quantityKg} > 0`),
    uniqueIndex('listing_subscription_request_uq').on(t.enterpriseId, t.requestId),
    index('listing_subscription_listing_idx').on(t.listingId),
    index('listing_subscription_pending_idx').on(t.enterpriseId).where(sql`${t.status} = 'pending'`),
    index('listing_subscription_pending_listing_idx').on(t.listingId).where(sql`${t.status} = 'pending'`),
  ],
);

export type Listing = typeof listings.$inferSelect;
export type NewListing = typeof listings.$inferInsert;
export type ListingSubscription = typeof listingSubscriptions.$inferSelect;
export type NewListingSubscription = typeof listingSubscriptions.$inferInsert;
