import { boolean, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

export interface QualityIndicators {
  /** 发热量 Qnet,ar kcal/kg */
  qnet?: number | null;
  /** 全水分 Mt % */
  mt?: number | null;
  /** 全硫 St,d % */
  st?: number | null;
  /** 灰分 Ad % */
  ad?: number | null;
  /** 挥发分 Vdaf % */
  vdaf?: number | null;
  /** 灰熔点 ST ℃ */
  ashFusion?: number | null;
}

/** The coal product catalogue (stockCode, stockName) with default quality indicators. */
export const products = pgTable('product', {
  id: serial('id').primaryKey(),
  stockCode: text('stock_code').notNull().unique(),
  stockName: text('stock_name').notNull(),
  category: text('category').notNull(),
  quality: jsonb('quality').$type<QualityIndicators>().notNull().default({}),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  ...timestamps,
});

export type Product = typeof products.$inferSelect;
export type NewProduct = typeof products.$inferInsert;
