import { bigint, bigserial, boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { users } from './auth';
import { deals } from './deal';

/** The weekly thermal-coal index (spec §3): price and change in fen per ton. */
export const marketIndex = pgTable(
  'market_index',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    currentYear: integer('current_year').notNull(),
    currentTerm: integer('current_term').notNull(),
    /** 总第 N 期: terms published since the index began. */
    totalTerm: integer('total_term').notNull(),
    quoteDate: text('quote_date').notNull(),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    riseFen: bigint('rise_fen', { mode: 'number' }).notNull(),
    dealCount: integer('deal_count').notNull().default(0),
    dealTonnageKg: bigint('deal_tonnage_kg', { mode: 'number' }).notNull().default(0),
    publishedBy: bigint('published_by', { mode: 'number' }).references(() => users.id),
    ...timestamps,
  },
  (t) => [uniqueIndex('market_index_term_uq').on(t.currentYear, t.currentTerm), uniqueIndex('market_index_total_uq').on(t.totalTerm)],
);

export type MarketIndexTerm = typeof marketIndex.$inferSelect;
export type NewMarketIndexTerm = typeof marketIndex.$inferInsert;

/**
 * The deals a published index term rests on (指数样本): each deal of the term's week and product, included or
 * excluded with the reason, so the index method page can show how every print was made.
 */
export const marketIndexSamples = pgTable(
  'market_index_sample',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    indexId: bigint('index_id', { mode: 'number' }).notNull().references(() => marketIndex.id),
    dealId: bigint('deal_id', { mode: 'number' }).notNull().references(() => deals.id),
    included: boolean('included').notNull(),
    /** Why an excluded deal was left out (null when included). */
    exclusionReason: text('exclusion_reason'),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    quantityKg: bigint('quantity_kg', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('market_index_sample_uq').on(t.indexId, t.dealId)],
);
