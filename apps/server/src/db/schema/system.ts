import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

export const dictItems = pgTable(
  'sys_dict_item',
  {
    dictCode: text('dict_code').notNull(),
    dictName: text('dict_name').notNull(),
    value: text('value').notNull(),
    text: text('text').notNull(),
    sort: integer('sort').notNull().default(0),
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

/** Small key/value facts about this installation, e.g. that demo data was loaded. */
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
