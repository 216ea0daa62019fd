import { bigint, bigserial, boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { users } from './auth';

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

export type Banner = typeof banners.$inferSelect;
export type NewBanner = typeof banners.$inferInsert;
export type Content = typeof contents.$inferSelect;
export type NewContent = typeof contents.$inferInsert;
