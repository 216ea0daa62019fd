import { randomUUID } from 'node:crypto';
import {
  CHANNEL_DEFAULTS,
  MESSAGE_CATEGORY_KEYS,
  type MarkReadInput,
  type MessageCategory,
  type MessageQuery,
  type MessageRecord,
  type MessageSettings,
  type MessageSettingsInput,
  type UnreadCount,
} from '@coalx/shared';
import { and, count, desc, eq, gte, inArray, isNull, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { messageDeliveries, messageEvents, messageSettings, messages, type MessageEventRow, type MessageRow } from '../../db/schema/index';
import { shanghaiDayStart } from '../../lib/shanghai-time';

/** After this many failed tries an event is left with its error for the operator (the log says why). */
export const EVENT_MAX_ATTEMPTS = 5;

/** Writes a published event to the outbox, in its own transaction (lib/events.ts's recorder). */
export async function recordEvent(db: Db | Tx, name: string, payload: unknown, at: Date): Promise<void> {
  await db.insert(messageEvents).values({ eventKey: randomUUID(), name, payload: payload as Record<string, unknown>, createdAt: at });
}

/** Many reminders of one kind at once: one read of the keys already there, one insert of the others; returns how many are new. */
export async function recordReminders(db: Db, name: string, due: { key: string; payload: Record<string, unknown> }[], at: Date): Promise<number> {
  if (due.length === 0) return 0;
  const known = new Set((await db.select({ key: messageEvents.eventKey }).from(messageEvents).where(inArray(messageEvents.eventKey, due.map((d) => d.key)))).map((r) => r.key));
  const fresh = due.filter((d) => !known.has(d.key));
  if (fresh.length === 0) return 0;
  const rows = await db
    .insert(messageEvents)
    .values(fresh.map((d) => ({ eventKey: d.key, name, payload: d.payload, createdAt: at })))
    .onConflictDoNothing()
    .returning({ id: messageEvents.id });
  return rows.length;
}

/** The oldest unprocessed event nobody else is working on, locked for this transaction (several processes share the work). */
export async function claimNextEvent(tx: Tx, skip: number[] = []): Promise<MessageEventRow | null> {
  const [row] = await tx
    .select()
    .from(messageEvents)
    .where(and(isNull(messageEvents.processedAt), lt(messageEvents.attempts, EVENT_MAX_ATTEMPTS), skip.length > 0 ? notInArray(messageEvents.id, skip) : undefined))
    .orderBy(messageEvents.id)
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function markEventProcessed(tx: Tx, id: number, at: Date) {
  await tx.update(messageEvents).set({ processedAt: at, lastError: null }).where(eq(messageEvents.id, id));
}

/** A try that failed: counted (its transaction rolled back), so a broken event cannot block the queue forever. */
export async function markEventFailed(db: Db, id: number, error: string) {
  await db
    .update(messageEvents)
    .set({ attempts: sql`${messageEvents.attempts} + 1`, lastError: error.slice(0, 1000) })
    .where(eq(messageEvents.id, id));
}

/** What one user is told about one event. */
export interface MessageDraft {
  userId: number;
  kind: string;
  category: MessageCategory;
  title: string;
  content: string;
  dueAt: Date | null;
  link: string | null;
  urgent: boolean;
}

/** Saves the event's messages; a user who already has this event's message gets nothing new. Returns the new rows. */
export async function insertMessages(tx: Tx, eventKey: string, drafts: MessageDraft[], at: Date): Promise<MessageRow[]> {
  if (drafts.length === 0) return [];
  return tx
    .insert(messages)
    .values(drafts.map((d) => ({ ...d, eventKey, createdAt: at })))
    .onConflictDoNothing()
    .returning();
}

export interface DeliveryDraft {
  messageId: number;
  channel: 'sms' | 'email';
  address: string;
  subject: string;
  body: string;
}

/** The SMS and e-mail of new messages, into the outbox the delivery worker sends from after commit. */
export async function enqueueDeliveries(tx: Tx, drafts: DeliveryDraft[], at: Date): Promise<number> {
  if (drafts.length === 0) return 0;
  const rows = await tx
    .insert(messageDeliveries)
    .values(drafts.map((d) => ({ ...d, nextAttemptAt: at, createdAt: at })))
    .onConflictDoNothing()
    .returning({ id: messageDeliveries.id });
  return rows.length;
}

export interface ChannelChoice {
  email: string;
  /** per category: whether SMS (urgent messages) and e-mail (every message) carry it */
  channels: Record<MessageCategory, { sms: boolean; email: boolean }>;
}

function choiceOf(row: { email: string; preferences: Record<string, { sms: boolean; email: boolean }> } | undefined): ChannelChoice {
  const channels = {} as ChannelChoice['channels'];
  for (const category of MESSAGE_CATEGORY_KEYS) channels[category] = { ...CHANNEL_DEFAULTS, ...row?.preferences[category] };
  return { email: row?.email ?? '', channels };
}

/** Each user's channel choices (the defaults for a user who has chosen nothing). */
export async function channelChoicesOf(db: Db | Tx, userIds: number[]): Promise<Map<number, ChannelChoice>> {
  const rows = userIds.length === 0 ? [] : await db.select().from(messageSettings).where(inArray(messageSettings.userId, userIds));
  const byUser = new Map(rows.map((r) => [r.userId, r]));
  return new Map(userIds.map((id) => [id, choiceOf(byUser.get(id))]));
}

export async function settingsOf(db: Db, userId: number, mobile: string): Promise<MessageSettings> {
  const choice = (await channelChoicesOf(db, [userId])).get(userId)!;
  return {
    email: choice.email,
    mobile,
    preferences: MESSAGE_CATEGORY_KEYS.map((category) => ({ category, ...choice.channels[category] })),
  };
}

/** 个人设置 › 消息通知 saved: categories not sent keep what they had. */
export async function saveSettings(db: Db, userId: number, input: MessageSettingsInput, at: Date): Promise<{ before: ChannelChoice; after: ChannelChoice }> {
  return db.transaction(async (tx) => {
    const before = (await channelChoicesOf(tx, [userId])).get(userId)!;
    const preferences: Record<string, { sms: boolean; email: boolean }> = {};
    for (const category of MESSAGE_CATEGORY_KEYS) preferences[category] = { ...before.channels[category] };
    for (const p of input.preferences) preferences[p.category] = { sms: p.sms, email: p.email };
    await tx
      .insert(messageSettings)
      .values({ userId, email: input.email, preferences, updatedAt: at })
      .onConflictDoUpdate({ target: messageSettings.userId, set: { email: input.email, preferences, updatedAt: at } });
    return { before, after: choiceOf({ email: input.email, preferences }) };
  });
}

export function recordOf(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    kind: row.kind,
    category: row.category as MessageCategory,
    title: row.title,
    content: row.content,
    dueAt: row.dueAt?.toISOString() ?? null,
    link: row.link,
    urgent: row.urgent,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The reader's own messages, newest first. */
export async function listMessages(db: Db, userId: number, query: MessageQuery) {
  const filters: SQL[] = [eq(messages.userId, userId)];
  if (query.unread === 'true') filters.push(isNull(messages.readAt));
  if (query.category) filters.push(eq(messages.category, query.category));
  if (query.dateFrom) filters.push(gte(messages.createdAt, shanghaiDayStart(new Date(`${query.dateFrom}T12:00:00+08:00`))));
  if (query.dateTo) filters.push(lt(messages.createdAt, new Date(shanghaiDayStart(new Date(`${query.dateTo}T12:00:00+08:00`)).getTime() + DAY_MS)));
  const where = and(...filters);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(messages).where(where);
  const rows = await db
    .select()
    .from(messages)
    .where(where)
    .orderBy(desc(messages.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: rows.map(recordOf), total, current: query.pageNo, size: query.pageSize };
}

export async function unreadCountsOf(db: Db | Tx, userIds: number[]): Promise<Map<number, UnreadCount>> {
  const counts = new Map<number, UnreadCount>(userIds.map((id) => [id, { count: 0, urgent: 0 }]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .select({ userId: messages.userId, n: count(), urgent: sql<number>`count(*) FILTER (WHERE ${messages.urgent})::int` })
    .from(messages)
    .where(and(inArray(messages.userId, userIds), isNull(messages.readAt)))
    .groupBy(messages.userId);
  for (const row of rows) counts.set(row.userId, { count: row.n, urgent: Number(row.urgent) });
  return counts;
}

export async function unreadCountOf(db: Db | Tx, userId: number): Promise<UnreadCount> {
  return (await unreadCountsOf(db, [userId])).get(userId)!;
}

/** Marks the reader's own messages read (others' ids change nothing); returns how many were unread. */
export async function markRead(db: Db, userId: number, input: MarkReadInput, at: Date): Promise<number> {
  const filters: SQL[] = [eq(messages.userId, userId), isNull(messages.readAt)];
  if (!input.all) filters.push(inArray(messages.id, input.ids ?? []));
  const rows = await db.update(messages).set({ readAt: at }).where(and(...filters)).returning({ id: messages.id });
  return rows.length;
}

/** The newest message of each user among `ids` (what a push shows with the new count). */
export async function messagesByIds(db: Db | Tx, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(messages).where(inArray(messages.id, ids)).orderBy(desc(messages.id));
}
