import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { users } from './auth';
import type { QualityIndicators } from './product';

/**
 * An auction (竞价): type 2 sale (forward, price goes up), 3 purchase (reverse, price goes down). Money in fen,
 * quantity in kg. `currentEnd` is the deadline in force: the regular end, or the last bid + extension period once
 * the extension (延时竞价) runs.
 */
export const auctions = pgTable(
  'auction',
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
    startPriceFen: bigint('start_price_fen', { mode: 'number' }).notNull(),
    minStepFen: bigint('min_step_fen', { mode: 'number' }).notNull(),
    /** null: no upper limit on one step. */
    maxStepFen: bigint('max_step_fen', { mode: 'number' }),
    /** Sale: highest acceptable bid (cap); purchase: lowest (floor); null: none. */
    limitPriceFen: bigint('limit_price_fen', { mode: 'number' }),
    depositFen: bigint('deposit_fen', { mode: 'number' }).notNull(),
    enrolDeadline: tstz('enrol_deadline').notNull(),
    bidStart: tstz('bid_start').notNull(),
    bidEnd: tstz('bid_end').notNull(),
    extensionSeconds: integer('extension_seconds').notNull().default(120),
    currentEnd: tstz('current_end').notNull(),
    priceType: text('price_type').notNull(),
    transport: text('transport').notNull(),
    deliveryProvince: text('delivery_province').notNull(),
    deliveryCity: text('delivery_city').notNull(),
    deliveryDistrict: text('delivery_district').notNull(),
    deliveryPlace: text('delivery_place').notNull(),
    deliveryDateStart: date('delivery_date_start').notNull(),
    deliveryDateEnd: date('delivery_date_end').notNull(),
    remark: text('remark').notNull().default(''),
    status: text('status').notNull(),
    rejectReason: text('reject_reason'),
    auditTime: tstz('audit_time'),
    auditedBy: bigint('audited_by', { mode: 'number' }).references(() => users.id),
    /** bid_hang_state_hp: 0 enrolment open, 1 waiting, 2 bidding, 3 ended. */
    hangState: integer('hang_state').notNull().default(0),
    bestPriceFen: bigint('best_price_fen', { mode: 'number' }),
    bestBidId: bigint('best_bid_id', { mode: 'number' }),
    bestEnterpriseId: bigint('best_enterprise_id', { mode: 'number' }),
    bidCount: integer('bid_count').notNull().default(0),
    /** The public bid log's head: the hash of the latest accepted bid (null before any), so a bid chains on without a read. */
    bidLogHash: text('bid_log_hash'),
    enrolCount: integer('enrol_count').notNull().default(0),
    /** deal (成交) or failed (流拍) once ended. */
    result: text('result'),
    endedAt: tstz('ended_at'),
    /** Set while the trading centre holds bidding (暂停): the bidding time left when paused, restored on resume. */
    pausedAt: tstz('paused_at'),
    pausedRemainingMs: bigint('paused_remaining_ms', { mode: 'number' }),
    /** The trading centre's reason for the last pause or the cancellation (撤销). */
    operatorReason: text('operator_reason'),
    cancelledAt: tstz('cancelled_at'),
    ...timestamps,
  },
  (t) => [
    check('auction_money', sql`${t.startPriceFen} > 0 AND ${t.minStepFen} > 0 AND (${t.maxStepFen} IS NULL OR ${t.maxStepFen} >= ${t.minStepFen}) AND ${t.depositFen} >= 0`),
    check('auction_times', sql`${t.enrolDeadline} <= ${t.bidStart} AND ${t.bidStart} < ${t.bidEnd} AND ${t.currentEnd} >= ${t.bidEnd}`),
    check('auction_quantity', sql`${t.quantityKg} > 0`),
    index('auction_market_idx').on(t.status, t.hangState, t.tradeType),
    index('auction_due_idx').on(t.hangState, t.currentEnd),
    // the scheduler's round (moveAuctionsOnTime, dueAuctions): enrolment to close, bidding to start
    index('auction_due_enrolment_idx').on(t.enrolDeadline).where(sql`${t.status} = 'approved' AND ${t.hangState} = 0`),
    index('auction_due_bidding_idx').on(t.bidStart).where(sql`${t.status} = 'approved' AND ${t.hangState} = 1`),
    // 今日开始的竞价 (the to-dos): the approved auctions not yet decided, by the start of bidding
    index('auction_bid_start_idx').on(t.bidStart).where(sql`${t.status} = 'approved' AND ${t.result} IS NULL`),
  ],
);

/** An enterprise enrolled in an auction, its deposit frozen; `bidderNo` is its public alias (竞买人 N). */
export const auctionEnrolments = pgTable(
  'auction_enrolment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    auctionId: bigint('auction_id', { mode: 'number' }).notNull().references(() => auctions.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    bidderNo: integer('bidder_no').notNull(),
    depositId: bigint('deposit_id', { mode: 'number' }),
    /** enrolled | won | released */
    status: text('status').notNull().default('enrolled'),
    requestId: text('request_id').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auction_enrolment_uq').on(t.auctionId, t.enterpriseId),
    uniqueIndex('auction_enrolment_no_uq').on(t.auctionId, t.bidderNo),
    index('auction_enrolment_enterprise_idx').on(t.enterpriseId),
  ],
);

/** Accepted bids only, in the order the server accepted them; `seq` numbers them per auction, `hash` chains them. */
export const auctionBids = pgTable(
  'auction_bid',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    auctionId: bigint('auction_id', { mode: 'number' }).notNull().references(() => auctions.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    bidderNo: integer('bidder_no').notNull(),
    seq: integer('seq').notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    /** Made after the regular end, in the extension. */
    inExtension: integer('in_extension').notNull().default(0),
    createdAt: tstz('created_at').notNull(),
    /** 公开出价记录: SHA-256 chaining this bid to the one before (packages/shared/src/auction/bid-log.ts). */
    hash: text('hash').notNull(),
  },
  (t) => [uniqueIndex('auction_bid_seq_uq').on(t.auctionId, t.seq), check('auction_bid_price', sql`${t.priceFen} > 0`)],
);

export type Auction = typeof auctions.$inferSelect;
export type NewAuction = typeof auctions.$inferInsert;
export type AuctionEnrolment = typeof auctionEnrolments.$inferSelect;
export type NewAuctionEnrolment = typeof auctionEnrolments.$inferInsert;
export type AuctionBid = typeof auctionBids.$inferSelect;
export type NewAuctionBid = typeof auctionBids.$inferInsert;
