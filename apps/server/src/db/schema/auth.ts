import { bigint, bigserial, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';
import { roles } from './system';

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
