import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps, tstz } from './columns';

/**
 * Webhooks for members' systems (issue 28 item 4): an enterprise admin registers endpoints; each notifying event
 * that concerns the enterprise and that an endpoint subscribes to becomes one delivery, signed by the Standard
 * Webhooks scheme with the endpoint's secret, delivered after commit at least once and retried with backoff.
 */
export const webhookEndpoints = pgTable(
  'msg_webhook_endpoint',
  {
    id: serial('id').primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** the subscribed event types (packages/shared WEBHOOK_EVENT_TYPES) */
    eventTypes: jsonb('event_types').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    /** `whsec_` + base64 of the key, shown once when made or rotated */
    secret: text('secret').notNull(),
    /** the first failed attempt of the current run of failures; null once a delivery succeeds */
    failingSince: tstz('failing_since'),
    /** why the platform switched it off ('' when enabled or switched off by its admin) */
    disabledReason: text('disabled_reason').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }),
    ...timestamps,
  },
  (t) => [index('msg_webhook_endpoint_enterprise_idx').on(t.enterpriseId)],
);

/** One event to one endpoint: its body is fixed when made, so every retry sends the same bytes. */
export const webhookDeliveries = pgTable(
  'msg_webhook_delivery',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id').notNull(),
    /** the `webhook-id` header: the same for every attempt of this delivery */
    messageId: text('message_id').notNull(),
    eventKey: text('event_key').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    /** pending → succeeded, or failed after the last attempt (重新发送 makes it pending again) */
    state: text('state').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: tstz('delivered_at'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('msg_webhook_delivery_endpoint_event_idx').on(t.endpointId, t.eventKey),
    index('msg_webhook_delivery_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`),
    index('msg_webhook_delivery_endpoint_idx').on(t.endpointId, t.id),
  ],
);

/** The delivery log: every attempt, with the receiver's status code or the network error. */
export const webhookAttempts = pgTable(
  'msg_webhook_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).notNull(),
    at: tstz('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('msg_webhook_attempt_delivery_idx').on(t.deliveryId, t.id)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
