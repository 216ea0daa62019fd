import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';

/**
 * Roles: the four built-in ones (trader, enterprise_admin, operator, admin) and the admin's own. A role's grants
 * are its sys_role_permission rows; its base role is what the policies compare (a custom role based on trader is a
 * trader to every policy, with fewer menu items and actions), built-in roles have base = code.
 */
export const roles = pgTable('sys_role', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  baseRole: text('base_role').notNull().default('trader'),
  builtin: boolean('builtin').notNull().default(false),
  description: text('description').notNull().default(''),
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

export const users = pgTable('sys_user', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  username: text('username').notNull().unique(),
  realname: text('realname').notNull(),
  mobile: text('mobile').notNull().default(''),
  avatar: text('avatar').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  roleId: integer('role_id').notNull().references(() => roles.id),
  enterpriseId: bigint('enterprise_id', { mode: 'number' }).references(() => enterprises.id),
  isFirstLogin: boolean('is_first_login').notNull().default(true),
  disabled: boolean('disabled').notNull().default(false),
  failedLoginCount: integer('failed_login_count').notNull().default(0),
  lockedUntil: tstz('locked_until'),
  passwordChangedAt: tstz('password_changed_at'),
  ...timestamps,
});
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Sign-in sessions; only the SHA-256 of the token is stored, so a database leak reveals no usable token. */
export const sessions = pgTable(
  'sys_session',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    lastSeenAt: tstz('last_seen_at').notNull(),
    /** Absolute end: sign-in time + 12 h, whatever the activity. */
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('sys_session_user_idx').on(t.userId)],
);

export type Session = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;
export type Role = typeof roles.$inferSelect;
export type NewRole = typeof roles.$inferInsert;
export type Permission = typeof permissions.$inferSelect;
export type NewPermission = typeof permissions.$inferInsert;
export type RolePermission = typeof rolePermissions.$inferSelect;
export type NewRolePermission = typeof rolePermissions.$inferInsert;
