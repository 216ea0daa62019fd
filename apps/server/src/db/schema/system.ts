import { boolean, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

/** Roles (trader, enterprise_admin, operator, admin). */
export const roles = pgTable('sys_role', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  ...timestamps,
});

/** Menu items and page permissions; the id is the permission id a route carries (spec §6). */
export const permissions = pgTable('sys_permission', {
  id: text('id').primaryKey(),
  parentId: text('parent_id'),
  title: text('title').notNull(),
  path: text('path').notNull(),
  component: text('component').notNull(),
  icon: text('icon'),
  redirect: text('redirect'),
  isMenu: boolean('is_menu').notNull().default(true),
  hidden: boolean('hidden').notNull().default(false),
  sort: integer('sort').notNull().default(0),
  ...timestamps,
});

export const rolePermissions = pgTable(
  'sys_role_permission',
  {
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: text('permission_id').notNull().references(() => permissions.id, { onDelete: 'cascade' }),
    actions: jsonb('actions').$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

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
