import {
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MAX_ENDPOINTS,
  formatDateTime,
  type WebhookDeliveryPage,
  type WebhookDeliveryQuery,
  type WebhookDeliveryRecord,
  type WebhookEndpointEditInput,
  type WebhookEndpointInput,
  type WebhookEndpointRecord,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@coalx/shared';
import { and, count, desc, eq, inArray, isNull, lt, or, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookDelivery, type WebhookEndpoint } from '../../db/schema/index';
import { AppError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { checkWebhookUrl, type AddressOptions } from './address';
import { newWebhookSecret, webhookMessageId } from './signing';
import { webhookPolicy } from './webhook.policy';

/** One notifying event as the dispatcher hands it over, inside the event's own transaction. */
export interface WebhookEvent {
  /** the event's unique key: one delivery per endpoint and key, however often the dispatcher runs */
  eventKey: string;
  type: WebhookEventType;
  /** the enterprises the event concerns: their enabled endpoints subscribed to `type` hear it */
  enterpriseIds: number[];
  /** the business numbers (contract number, amounts in fen …) */
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Writes the event's deliveries (the outbox), in the caller's transaction: one per enabled endpoint of the named
 * enterprises that subscribes to the type, its body `{ type, timestamp, data }` fixed now so every retry sends the
 * same bytes. Due at once; the worker (delivery.ts) sends them after the commit. Returns how many were written (an
 * event already written for an endpoint is not written again).
 */
export async function enqueueWebhookDeliveries(tx: Tx | Db, event: WebhookEvent): Promise<number> {
  const enterpriseIds = [...new Set(event.enterpriseIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (enterpriseIds.length === 0) return 0;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.enterpriseId, enterpriseIds),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.eventTypes} @> ${JSON.stringify([event.type])}::jsonb`,
      ),
    );
  if (endpoints.length === 0) return 0;
  const body = JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: event.data });
  const messageId = webhookMessageId(event.eventKey);
  const written = await tx
    .insert(webhookDeliveries)
    .values(
      endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        messageId,
        eventKey: event.eventKey,
        eventType: event.type,
        body,
        state: 'pending' as const,
        attempts: 0,
        nextAttemptAt: event.at,
        createdAt: event.at,
      })),
    )
    .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.eventKey] })
    .returning({ id: webhookDeliveries.id });
  return written.length;
}

type LastFailure = WebhookEndpointRecord['lastFailure'];

/** The newest failed attempt of each endpoint (a network error or an answer other than 2xx). */
async function lastFailures(db: Db | Tx, endpointIds: number[]): Promise<Map<number, NonNullable<LastFailure>>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([webhookDeliveries.endpointId], {
      endpointId: webhookDeliveries.endpointId,
      at: webhookAttempts.at,
      statusCode: webhookAttempts.statusCode,
      error: webhookAttempts.error,
      eventType: webhookDeliveries.eventType,
    })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(
      and(
        inArray(webhookDeliveries.endpointId, endpointIds),
        or(isNull(webhookAttempts.statusCode), lt(webhookAttempts.statusCode, 200), gte(webhookAttempts.statusCode, 300)),
      ),
    )
    .orderBy(webhookDeliveries.endpointId, desc(webhookAttempts.at), desc(webhookAttempts.id));
  return new Map(rows.map((r) => [r.endpointId, { at: formatDateTime(r.at), statusCode: r.statusCode, error: r.error, eventType: r.eventType }]));
}

function present(row: WebhookEndpoint, lastFailure: LastFailure): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince ? formatDateTime(row.failingSince) : null,
    lastFailure,
    createdAt: formatDateTime(row.createdAt),
    updatedAt: formatDateTime(row.updatedAt),
  };
}

/** The enterprise's endpoints, oldest first; never their secrets. */
export async function listEndpoints(db: Db, actor: Actor): Promise<WebhookEndpointRecord[]> {
  const enterpriseId = webhookPolicy.can(actor, 'manage');
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.enterpriseId, enterpriseId)).orderBy(webhookEndpoints.id);
  const failures = await lastFailures(db, rows.map((r) => r.id));
  return rows.map((r) => present(r, failures.get(r.id) ?? null));
}

/** One endpoint of the actor's enterprise (another enterprise's, or none: not found). */
async function ownEndpoint(db: Db | Tx, actor: Actor, id: number, lock = false): Promise<WebhookEndpoint> {
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('推送接口不存在');
  webhookPolicy.can(actor, 'own', row);
  return row;
}

/** 新增: the endpoint with its secret, shown this once. */
export async function createEndpoint(db: Db, clock: Clock, actor: Actor, input: WebhookEndpointInput, address: AddressOptions): Promise<WebhookEndpointWithSecret> {
  const enterpriseId = webhookPolicy.can(actor, 'manage');
  const url = await checkWebhookUrl(input.url, address);
  const secret = newWebhookSecret();
  const now = clock.now();
  const row = await db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.enterpriseId, enterpriseId));
    if (Number(existing?.n ?? 0) >= WEBHOOK_MAX_ENDPOINTS) throw businessRule(`每个企业最多登记 ${WEBHOOK_MAX_ENDPOINTS} 个推送接口`);
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        enterpriseId,
        url: url.href,
        description: input.description,
        eventTypes: input.eventTypes,
        enabled: input.enabled,
        secret,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return created!;
  });
  return { ...present(row, null), secret };
}

/** 编辑: address, description, events, enabled. Switching it on again starts a fresh run (no failures counted). */
export async function editEndpoint(db: Db, clock: Clock, actor: Actor, input: WebhookEndpointEditInput, address: AddressOptions): Promise<WebhookEndpointRecord> {
  const url = await checkWebhookUrl(input.url, address);
  const row = await db.transaction(async (tx) => {
    const before = await ownEndpoint(tx, actor, input.id, true);
    const restarted = (input.enabled && !before.enabled) || url.href !== before.url;
    const [after] = await tx
      .update(webhookEndpoints)
      .set({
        url: url.href,
        description: input.description,
        eventTypes: input.eventTypes,
        enabled: input.enabled,
        disabledReason: input.enabled ? '' : before.disabledReason,
        ...(restarted ? { failingSince: null } : {}),
        updatedAt: clock.now(),
      })
      .where(eq(webhookEndpoints.id, before.id))
      .returning();
    return after!;
  });
  const failures = await lastFailures(db, [row.id]);
  return present(row, failures.get(row.id) ?? null);
}

/** 删除: the endpoint with its deliveries and their log (nothing more is sent to it). */
export async function deleteEndpoint(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const endpoint = await ownEndpoint(tx, actor, id, true);
    const deliveryIds = tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    await tx.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds));
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
  });
}

/** 重新生成密钥: the old secret stops at once; the new one is shown this once. */
export async function rotateSecret(db: Db, clock: Clock, actor: Actor, id: number): Promise<WebhookEndpointWithSecret> {
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    const endpoint = await ownEndpoint(tx, actor, id, true);
    const [after] = await tx.update(webhookEndpoints).set({ secret, updatedAt: clock.now() }).where(eq(webhookEndpoints.id, endpoint.id)).returning();
    return after!;
  });
  const failures = await lastFailures(db, [row.id]);
  return { ...present(row, failures.get(row.id) ?? null), secret };
}

function presentDelivery(row: WebhookDelivery, attempts: (typeof webhookAttempts.$inferSelect)[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.eventType,
    eventName: WEBHOOK_EVENT_TYPES[row.eventType as WebhookEventType] ?? row.eventType,
    state: row.state,
    stateText: WEBHOOK_DELIVERY_STATES[row.state],
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' ? formatDateTime(row.nextAttemptAt) : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt ? formatDateTime(row.deliveredAt) : null,
    createdAt: formatDateTime(row.createdAt),
    body: row.body,
    attemptLog: attempts.map((a) => ({ id: a.id, at: formatDateTime(a.at), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
  };
}

/** 推送记录 of one endpoint, newest first, each with its attempts. */
export async function listDeliveries(db: Db, actor: Actor, query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage> {
  const endpoint = await ownEndpoint(db, actor, query.endpointId);
  const where = and(eq(webhookDeliveries.endpointId, endpoint.id), query.state ? eq(webhookDeliveries.state, query.state) : undefined);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id)))
        .orderBy(desc(webhookAttempts.id))
    : [];
  return {
    records: rows.map((r) => presentDelivery(r, attempts.filter((a) => a.deliveryId === r.id))),
    total: Number(total?.n ?? 0),
    current: query.pageNo,
    size: query.pageSize,
  };
}

/**
 * 重新发送: the delivery is due again at once with a fresh count of attempts (the same body and `webhook-id`, so a
 * receiver that had it already can tell). Its earlier attempts stay in the log.
 */
export async function resendDelivery(db: Db, clock: Clock, actor: Actor, id: number): Promise<WebhookDeliveryRecord> {
  const row = await db.transaction(async (tx) => {
    const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1).for('update');
    if (!delivery) throw notFound('推送记录不存在');
    const endpoint = await ownEndpoint(tx, actor, delivery.endpointId).catch((err: unknown) => {
      // another enterprise's delivery does not exist for this actor
      throw err instanceof AppError && err.code === 'not_found' ? notFound('推送记录不存在') : err;
    });
    if (!endpoint.enabled) throw businessRule('该推送接口已停用，请先启用后再重新发送');
    const [after] = await tx
      .update(webhookDeliveries)
      .set({ state: 'pending', attempts: 0, nextAttemptAt: clock.now(), lastStatusCode: null, lastError: null, deliveredAt: null })
      .where(eq(webhookDeliveries.id, delivery.id))
      .returning();
    return after!;
  });
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(desc(webhookAttempts.id));
  return presentDelivery(row, attempts);
}
