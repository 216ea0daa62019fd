import { boolean, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

export const dictItems = pgTable(
  'sys_dict_item',
  {
    dictCode: text('dict_code').notNull(),
    dictName: text('dict_name').notNull(),
    value: text('value').notNull(),
    text: text('text').notNull(),
    sort: integer('sort').notNull().default(0),
    /** a disabled item keeps naming the records that hold it but is no longer offered for new ones */
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.dictCode, t.value] })],
);

/** System switches (PayPassword, UkeySwitch): content '1' on, '0' off. */
export const switches = pgTable('sys_switch', {
  code: text('code').primaryKey(),
  content: text('content').notNull(),
  remark: text('remark').notNull().default(''),
  ...timestamps,
});

/** Small key/value facts about this installation, e.g. that demo data was loaded, or `dict_version` (bumped by every dictionary edit). */
export const systemMeta = pgTable('sys_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  ...timestamps,
});

export type DictItem = typeof dictItems.$inferSelect;
export type NewDictItem = typeof dictItems.$inferInsert;
export type Switch = typeof switches.$inferSelect;
export type NewSwitch = typeof switches.$inferInsert;
export type SystemMeta = typeof systemMeta.$inferSelect;
export type NewSystemMeta = typeof systemMeta.$inferInsert;

/** System parameters (DESIGN.md §8): deadlines, tolerances, ranges; read with defaults by the system service. */
export const systemParameters = pgTable('sys_parameter', {
  code: text('code').primaryKey(),
  value: text('value').notNull(),
  remark: text('remark').notNull().default(''),
  ...timestamps,
});

/** Days off (法定节假日) and the weekend days worked instead (调休上班), for working-day deadlines. */
export const holidays = pgTable('sys_holiday', {
  /** YYYY-MM-DD, Asia/Shanghai */
  day: text('day').primaryKey(),
  name: text('name').notNull(),
  /** true: a weekend day that is worked (调休); false: a day off */
  workday: boolean('workday').notNull().default(false),
  ...timestamps,
});

/**
 * Secrets every server process of one PostgreSQL database must share (the platform CA, the file-link key), written
 * once (INSERT … ON CONFLICT DO NOTHING) and never changed. On PGlite they stay in DATA_DIR/ca and DATA_DIR/secrets.
 */
export const platformSecrets = pgTable('platform_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamps.createdAt,
});

export type PlatformSecret = typeof platformSecrets.$inferSelect;
