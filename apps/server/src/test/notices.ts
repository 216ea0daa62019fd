import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENT_TYPE_KEYS } from '@coalx/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messageDeliveries, messages, webhookDeliveries, webhookEndpoints } from '../db/schema/index';
import { runScheduledJobs } from '../plugins/scheduler';
import type { TestApp } from './test-app';

/** The messages a user has, of one kind (all kinds when absent), oldest first. */
export async function messagesOf(db: Db, userId: number, kind?: string) {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), kind ? eq(messages.kind, kind) : undefined))
    .orderBy(asc(messages.id));
}

/** The SMS queued for these messages. */
export async function textsOf(db: Db, messageIds: number[]) {
  if (messageIds.length === 0) return [];
  return db.select().from(messageDeliveries).where(and(inArray(messageDeliveries.messageId, messageIds), eq(messageDeliveries.channel, 'sms')));
}

/** Lets every dispatch round the last action asked for finish. */
export async function settled(t: TestApp) {
  await t.app.notifications.settled();
}

/** One scheduler round with the app's clock, then the dispatch it kicked. */
export async function schedulerRound(t: TestApp) {
  await runScheduledJobs(t.app);
  await t.app.notifications.settled();
}

/**
 * A real receiver on a loopback port answering 204, for the endpoints the tests register (the webhook worker may
 * deliver to it; the tests read the outbox, which the rules fill).
 */
export async function webhookReceiver() {
  const bodies: unknown[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      try {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        bodies.push(null);
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An enabled endpoint of the enterprise subscribed to every event type. */
export async function endpointFor(db: Db, enterpriseId: number, url: string) {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ enterpriseId, url, eventTypes: [...WEBHOOK_EVENT_TYPE_KEYS], enabled: true, secret: `whsec_${randomBytes(24).toString('base64')}` })
    .returning();
  return row!;
}

/** The bodies queued for an endpoint, of one event type. */
export async function webhookBodiesOf(db: Db, endpointId: number, type: string) {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventType, type)))
    .orderBy(asc(webhookDeliveries.id));
  return rows.map((r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> });
}
