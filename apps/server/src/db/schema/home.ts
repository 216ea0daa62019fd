import { bigint, bigserial, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { users } from './auth';

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

export type Recommendation = typeof recommendations.$inferSelect;
export type NewRecommendation = typeof recommendations.$inferInsert;
