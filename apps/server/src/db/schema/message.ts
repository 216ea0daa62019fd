import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/**
 * The notifying events (issue 28, DESIGN.md §9 "Notifications"): every domain event a message or a webhook hangs
 * on is written here in the event's own transaction (lib/events.ts's durable recorder), and scheduled reminders
 * add theirs with a key of their own. The dispatcher (flows/deliver-notices.ts) turns each row into messages,
 * SMS and e-mail deliveries and webhook deliveries once, then marks it processed; a crash in between leaves the row
 * for the next round.
 */
export const messageEvents = pgTable(
  'msg_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** a random id for a published event; a reminder's own key (`contract.deadline_4h:12:2026-11-28T02:00Z`) */
    eventKey: text('event_key').notNull(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: tstz('created_at').notNull(),
    processedAt: tstz('processed_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('msg_event_key_idx').on(t.eventKey), index('msg_event_pending_idx').on(t.id).where(sql`processed_at IS NULL`)],
);

/** One message to one user: made once per event and user (the unique key). */
export const messages = pgTable(
  'msg_message',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** the event's key: a second delivery of the same event makes nothing new */
    eventKey: text('event_key').notNull(),
    kind: text('kind').notNull(),
    category: text('category').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    dueAt: tstz('due_at'),
    link: text('link'),
    urgent: boolean('urgent').notNull().default(false),
    readAt: tstz('read_at'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('msg_message_event_user_idx').on(t.eventKey, t.userId),
    index('msg_message_user_idx').on(t.userId, t.id),
    index('msg_message_unread_idx').on(t.userId).where(sql`read_at IS NULL`),
  ],
);

/** 个人设置 › 消息通知: the e-mail address and, per category, whether SMS and e-mail carry it (absent: the defaults). */
export const messageSettings = pgTable('msg_user_setting', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey(),
  email: text('email').notNull().default(''),
  /** `{ [category]: { sms, email } }` for the categories the user has changed */
  preferences: jsonb('preferences').$type<Record<string, { sms: boolean; email: boolean }>>().notNull().default({}),
  updatedAt: tstz('updated_at').notNull(),
});

/**
 * The outbox of SMS and e-mail: written with the message, sent after commit by the delivery worker, at least once,
 * retried with backoff; the row is the delivery log.
 */
export const messageDeliveries = pgTable(
  'msg_delivery',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    channel: text('channel').$type<'sms' | 'email'>().notNull(),
    address: text('address').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    /** pending → sent, or failed after the last attempt */
    state: text('state').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull(),
    lastError: text('last_error'),
    sentAt: tstz('sent_at'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [uniqueIndex('msg_delivery_message_channel_idx').on(t.messageId, t.channel), index('msg_delivery_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`)],
);

export type MessageEventRow = typeof messageEvents.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;
export type MessageDelivery = typeof messageDeliveries.$inferSelect;
