import { bigint, bigserial, boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { users } from './auth';

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

/** Home-page banners: a public image and where clicking it leads. */
export const banners = pgTable('banner', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  imageUrl: text('image_url').notNull(),
  detailPageUrl: text('detail_page_url').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
  ...timestamps,
});

/**
 * Announcements (spec §3): type 0 weekly report, 1 market observation, a–d fixed rule documents. The body is
 * sanitised HTML; `enclosure` a public PDF. Shown only while published and between effective and expiration time.
 */
export const contents = pgTable('content', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  type: text('type').notNull(),
  title: text('title').notNull(),
  bodyHtml: text('body_html').notNull().default(''),
  enclosure: text('enclosure'),
  effectiveTime: tstz('effective_time').notNull(),
  expirationTime: tstz('expiration_time'),
  /** draft | published | unpublished */
  status: text('status').notNull().default('draft'),
  publishedAt: tstz('published_at'),
  createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
  ...timestamps,
});

/** Trades the trading centre recommends on the home page. */
export const recommendations = pgTable(
  'trade_recommendation',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** listing | auction */
    tradeKind: text('trade_kind').notNull(),
    tradeNo: text('trade_no').notNull(),
    sort: integer('sort').notNull().default(0),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('trade_recommendation_uq').on(t.tradeNo)],
);
