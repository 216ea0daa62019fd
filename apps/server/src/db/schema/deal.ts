import { bigint, bigserial, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { enterprises } from './enterprise';

/** Per-day counters behind human-readable trade numbers (GP202611220001). */
export const tradeSequences = pgTable(
  'trade_sequence',
  {
    prefix: text('prefix').notNull(),
    day: text('day').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.prefix, t.day] })],
);

/** A deal (成交) from a confirmed subscription or an auction award: what the contract work starts from. */
export const deals = pgTable(
  'deal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dealNo: text('deal_no').notNull().unique(),
    /** listing | auction */
    tradeKind: text('trade_kind').notNull(),
    tradeNo: text('trade_no').notNull(),
    tradeType: integer('trade_type').notNull(),
    /** The subscription or winning bid it comes from. */
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    stockCode: text('stock_code').notNull(),
    productName: text('product_name').notNull(),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    depositFen: bigint('deposit_fen', { mode: 'number' }).notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('deal_source_uq').on(t.tradeKind, t.sourceId), index('deal_trade_idx').on(t.tradeNo), index('deal_created_idx').on(t.createdAt)],
);

export type TradeSequence = typeof tradeSequences.$inferSelect;
export type NewTradeSequence = typeof tradeSequences.$inferInsert;
export type Deal = typeof deals.$inferSelect;
export type NewDeal = typeof deals.$inferInsert;
