import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { WEBHOOK_AUTO_DISABLED_REASON, WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS, webhookRetryDelayMs } from '@coalx/shared';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookDelivery, type WebhookEndpoint } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { PRIVATE_ADDRESS_REFUSAL, checkedLookup, hostOf, isPrivateAddress } from './address';
import { webhookHeaders } from './signing';

export interface WebhookDeliveryOptions {
  /** config.webhookAllowPrivate */
  allowPrivate: boolean;
  /** told once, after the commit, when an endpoint is switched off for failing a day (the admins' message) */
  onEndpointDisabled?: (endpoint: WebhookEndpoint) => unknown;
  /** where a failing `onEndpointDisabled` is reported */
  log?: { error(obj: unknown, msg?: string): void };
  /** deliveries claimed and sent at once (default 20) */
  batchSize?: number;
  /** how long a receiver has to answer (default 10 s) */
  timeoutMs?: number;
  /**
   * How long a claimed delivery is left to its worker before another may take it (default 2 min): a process that
   * died while sending leaves it pending, due again once the lease is over, so it is still delivered.
   */
  leaseMs?: number;
}

export interface WebhookDeliveryReport {
  /** requests made */
  attempted: number;
  succeeded: number;
  /** attempts that failed (a retry follows unless it was the last) */
  failed: number;
  /** deliveries that used their last attempt and are now `failed` */
  exhausted: number;
  /** endpoints switched off for failing a day */
  disabled: number;
}

export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
}

const DEFAULT_BATCH = 20;
const DEFAULT_LEASE_MS = 2 * 60_000;
/** Batches per call at most: a backlog is worked through, but one call never runs unbounded. */
const MAX_ROUNDS = 50;
const NOT_SENT_DISABLED = '推送接口已停用，未发送';

/**
 * Takes the due pending deliveries nobody else is sending (FOR UPDATE SKIP LOCKED, so any number of processes share
 * the work) and leases them: their next attempt moves `leaseMs` ahead, so no other worker takes them meanwhile, and
 * if this one dies they fall due again.
 */
export async function claimDueWebhooks(db: Db, now: Date, limit = DEFAULT_BATCH, leaseMs = DEFAULT_LEASE_MS): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(limit)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (rows.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(inArray(webhookDeliveries.id, rows.map((r) => r.delivery.id)));
    return rows;
  });
}

/**
 * The delivery worker: sends every due delivery (after the commit that wrote it, at least once), logs each attempt,
 * retries a failure after 10 s·2ⁿ (n: failures so far) up to 5 attempts, then leaves it `failed` for 重新发送.
 * A success clears the endpoint's run of failures; an endpoint failing without a success for a day is switched
 * off and `onEndpointDisabled` told. Safe to run on several processes at once.
 */
export async function deliverDueWebhooks(db: Db, clock: Clock, options: WebhookDeliveryOptions): Promise<WebhookDeliveryReport> {
  const report: WebhookDeliveryReport = { attempted: 0, succeeded: 0, failed: 0, exhausted: 0, disabled: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await claimDueWebhooks(db, clock.now(), batchSize, options.leaseMs ?? DEFAULT_LEASE_MS);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((item) => attempt(db, clock, item, options, report)));
    if (claimed.length < batchSize) break;
  }
  return report;
}

/** One attempt of one claimed delivery, and its record. */
async function attempt(db: Db, clock: Clock, { delivery, endpoint }: ClaimedDelivery, options: WebhookDeliveryOptions, report: WebhookDeliveryReport) {
  // switched off since it was written (by its admin or for failing): not sent, left for 重新发送 once it is on again
  if (!endpoint.enabled) {
    await db
      .update(webhookDeliveries)
      .set({ state: 'failed', lastError: NOT_SENT_DISABLED, nextAttemptAt: clock.now() })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, 'pending'), eq(webhookDeliveries.attempts, delivery.attempts)));
    return;
  }
  const startedAt = clock.now();
  const started = performance.now();
  const outcome = await post(endpoint.url, delivery.body, webhookHeaders(endpoint.secret, delivery.messageId, startedAt, delivery.body), {
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
  });
  const durationMs = Math.max(0, Math.round(performance.now() - started));
  const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const attempts = delivery.attempts + 1;
  const exhausted = !succeeded && attempts >= WEBHOOK_MAX_ATTEMPTS;
  report.attempted++;
  if (succeeded) report.succeeded++;
  else report.failed++;

  const disabled = await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({ deliveryId: delivery.id, at: startedAt, statusCode: outcome.statusCode, error: outcome.error, durationMs });
    // only the worker that claimed this attempt moves the delivery (a resend meanwhile has reset the count)
    const moved = await tx
      .update(webhookDeliveries)
      .set({
        state: succeeded ? 'succeeded' : exhausted ? 'failed' : 'pending',
        attempts,
        nextAttemptAt: succeeded || exhausted ? startedAt : new Date(startedAt.getTime() + webhookRetryDelayMs(attempts)),
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        deliveredAt: succeeded ? clock.now() : null,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, 'pending'), eq(webhookDeliveries.attempts, delivery.attempts)))
      .returning({ id: webhookDeliveries.id });
    if (moved.length && exhausted) report.exhausted++;
    if (succeeded) {
      await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return null;
    }
    await tx.update(webhookEndpoints).set({ failingSince: startedAt }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
    const now = clock.now();
    const [off] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: WEBHOOK_AUTO_DISABLED_REASON, updatedAt: now })
      .where(
        and(
          eq(webhookEndpoints.id, endpoint.id),
          eq(webhookEndpoints.enabled, true),
          lte(webhookEndpoints.failingSince, new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS)),
        ),
      )
      .returning();
    return off ?? null;
  });
  if (disabled) {
    report.disabled++;
    try {
      await options.onEndpointDisabled?.(disabled);
    } catch (err) {
      options.log?.error({ err, endpointId: disabled.id }, 'webhook endpoint disabled: telling its admins failed');
    }
  }
}

export interface PostOutcome {
  /** the receiver's status code, or null when none came */
  statusCode: number | null;
  /** why no answer came (Chinese, for the delivery log), or null */
  error: string | null;
}

/**
 * POSTs the body (node:http, no redirects followed, no connection kept): the name is resolved once and the
 * connection made to a checked address. Never throws; a receiver has `timeoutMs` to answer in full.
 */
export function post(address: string, body: string, headers: Record<string, string>, options: { allowPrivate: boolean; timeoutMs: number }): Promise<PostOutcome> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return Promise.resolve({ statusCode: null, error: '推送地址格式不正确' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ statusCode: null, error: '推送地址只能使用 http 或 https 协议' });
  const host = hostOf(url);
  if (net.isIP(host) && !options.allowPrivate && isPrivateAddress(host)) return Promise.resolve({ statusCode: null, error: PRIVATE_ADDRESS_REFUSAL });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'CoalX-Webhooks/1.0' },
        agent: false,
        lookup: checkedLookup({ allowPrivate: options.allowPrivate }),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        statusCode = response.statusCode ?? null;
        // the answer's body is read and dropped: only its status counts
        response.resume();
        response.on('end', () => settle({ statusCode, error: null }));
        response.on('error', () => settle({ statusCode, error: null }));
      },
    );
    request.on('error', (err: NodeJS.ErrnoException) => settle(statusCode !== null ? { statusCode, error: null } : { statusCode: null, error: describeError(err, options.timeoutMs) }));
    request.end(body);
  });
}

/** A network failure as the delivery log shows it. */
function describeError(err: NodeJS.ErrnoException, timeoutMs: number): string {
  const code = err.code ?? err.name;
  if (err.name === 'AbortError' || err.name === 'TimeoutError' || code === 'ABORT_ERR') return `接收方 ${Math.round(timeoutMs / 1000)} 秒内未响应`;
  switch (code) {
    case 'EWEBHOOKPRIVATE':
      return PRIVATE_ADDRESS_REFUSAL;
    case 'ECONNREFUSED':
      return '连接被拒绝';
    case 'ECONNRESET':
    case 'EPIPE':
      return '连接被对方断开';
    case 'ETIMEDOUT':
      return '连接超时';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return '域名无法解析';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return '网络不可达';
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code ?? '')) return '对方证书校验失败';
  if (code === 'HPE_INVALID_CONSTANT' || code?.startsWith('HPE_')) return '对方的应答不是有效的 HTTP';
  return `网络错误（${code ?? '未知'}）`;
}

/** Deliveries waiting to be sent (for health pages and tests). */
export async function pendingWebhookCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(eq(webhookDeliveries.state, 'pending'));
  return Number(row?.n ?? 0);
}
