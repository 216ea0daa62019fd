import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/** One-time SMS codes; only a salted hash of the code is kept. */
export const smsCodes = pgTable(
  'sys_sms_code',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobile: text('mobile').notNull(),
    scene: text('scene').notNull(),
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    usedAt: tstz('used_at'),
    /** Replaced by a newer code, or too many wrong tries. */
    voidedAt: tstz('voided_at'),
    ip: text('ip').notNull().default(''),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('sys_sms_code_mobile_idx').on(t.mobile, t.createdAt)],
);

/** What the built-in SMS provider "sent": the operator reads it in the back office, tests read it here. */
export const smsOutbox = pgTable(
  'sys_sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobile: text('mobile').notNull(),
    scene: text('scene').notNull(),
    content: text('content').notNull(),
    provider: text('provider').notNull(),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('sys_sms_outbox_mobile_idx').on(t.mobile, t.createdAt)],
);

export type SmsCode = typeof smsCodes.$inferSelect;
export type NewSmsCode = typeof smsCodes.$inferInsert;
export type SmsOutboxEntry = typeof smsOutbox.$inferSelect;
export type NewSmsOutboxEntry = typeof smsOutbox.$inferInsert;
