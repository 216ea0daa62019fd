import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messageDeliveries, type MessageDelivery } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import type { SmsProvider } from '../sms/sms.provider';
import type { Mailer } from './email';

/** Tries per delivery; after the last failure the row is `failed` with its error kept. */
export const DELIVERY_MAX_ATTEMPTS = 5;
/** The wait after the n-th failed try (n = 1…4): 30 s, 60 s, 120 s, 240 s. */
export const deliveryBackoffMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);
/** Rows claimed at once; a round claims batch after batch until none is due (or ROUND_BATCHES). */
export const DELIVERY_BATCH_SIZE = 10;
const ROUND_BATCHES = 20;
/**
 * How long a claimed row is kept from the other workers while this one sends it. Longer than the slowest send
 * (SMTP socket timeout 30 s, the SMS gateway's 10 s): a row outlives it only if its worker died, and then it is
 * tried again.
 */
export const DELIVERY_LEASE_MS = 5 * 60_000;
export const NO_MAILER_ERROR = '未配置邮件服务器 (SMTP_URL)';
const INTERRUPTED_ERROR = '最后一次发送中断 (进程退出)，未能确认是否送达';

export interface DeliveryLog {
  warn(details: object, message: string): void;
}

export interface DeliveryChannels {
  sms: SmsProvider;
  /** null when SMTP_URL is not set: e-mail rows fail at once (see below) */
  mailer: Mailer | null;
  log: DeliveryLog;
}

export interface DeliveryRound {
  sent: number;
  /** tries that failed and will be retried */
  retried: number;
  /** rows that failed for good in this round */
  failed: number;
}

/**
 * Sends the SMS and e-mail deliveries that are due (msg_delivery, written with their messages), batch after batch.
 *
 * Claiming is an UPDATE over `SELECT … FOR UPDATE SKIP LOCKED` that counts the try and pushes next_attempt_at a
 * lease ahead, and commits at once: the rows are then invisible to every other worker (other processes, or this
 * process's timer racing a kick) while this one sends them outside any transaction, so no transaction stays open
 * across a network call (on PGlite, one open transaction blocks every other statement of the process).
 *
 * At least once, not exactly once: a process that dies after the gateway or the SMTP server accepted a message and
 * before the row is marked `sent` leaves the row claimed; when its lease runs out it is sent again. A second SMS or
 * e-mail of the same notice is the lesser harm than a lost one (a contract's signing deadline). The SMS gateway has
 * no idempotency key to prevent it (阿里云 SendSms documents none).
 *
 * E-mail rows when no mailer is configured fail at once, without retries: a missing SMTP_URL is not a passing
 * fault, and sending days-old notices when a server is configured later would mislead more than it helps. The row
 * keeps the reason for the delivery log.
 */
export async function deliverDueMessages(db: Db, clock: Clock, channels: DeliveryChannels): Promise<DeliveryRound> {
  const round: DeliveryRound = { sent: 0, retried: 0, failed: 0 };
  round.failed += await failInterrupted(db, clock.now());
  for (let batch = 0; batch < ROUND_BATCHES; batch++) {
    const rows = await claimDueDeliveries(db, clock.now());
    if (rows.length === 0) break;
    const outcomes = await Promise.all(rows.map((row) => deliverOne(db, clock, channels, row)));
    for (const outcome of outcomes) round[outcome]++;
    if (rows.length < DELIVERY_BATCH_SIZE) break;
  }
  return round;
}

/**
 * Due pending rows nobody else holds, counted as tried and leased to this worker; committed before any send.
 * The locking SELECT is a CTE, run once: as a plain `id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` PostgreSQL
 * may re-run the subquery for each row it updates, each run skipping the rows the statement already updated, and
 * claim the whole table instead of a batch (seen here: 32 rows claimed with LIMIT 10).
 */
export async function claimDueDeliveries(db: Db, now: Date): Promise<MessageDelivery[]> {
  const due = db.$with('due').as(
    db
      .select({ id: messageDeliveries.id })
      .from(messageDeliveries)
      .where(and(eq(messageDeliveries.state, 'pending'), lte(messageDeliveries.nextAttemptAt, now), lt(messageDeliveries.attempts, DELIVERY_MAX_ATTEMPTS)))
      .orderBy(asc(messageDeliveries.nextAttemptAt), asc(messageDeliveries.id))
      .limit(DELIVERY_BATCH_SIZE)
      .for('update', { skipLocked: true }),
  );
  return db
    .with(due)
    .update(messageDeliveries)
    .set({ attempts: sql`${messageDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS) })
    // READ COMMITTED re-checks this on the row's latest version: a row another worker claimed meanwhile is dropped
    .where(and(inArray(messageDeliveries.id, db.select({ id: due.id }).from(due)), eq(messageDeliveries.state, 'pending'), lte(messageDeliveries.nextAttemptAt, now)))
    .returning();
}

/** Rows whose last try was claimed by a worker that died before it could tell: failed, with that said. */
async function failInterrupted(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(messageDeliveries)
    .set({ state: 'failed', lastError: sql`coalesce(${messageDeliveries.lastError} || '; ', '') || ${INTERRUPTED_ERROR}` })
    .where(and(eq(messageDeliveries.state, 'pending'), gte(messageDeliveries.attempts, DELIVERY_MAX_ATTEMPTS), lte(messageDeliveries.nextAttemptAt, now)))
    .returning({ id: messageDeliveries.id });
  return rows.length;
}

async function deliverOne(db: Db, clock: Clock, channels: DeliveryChannels, row: MessageDelivery): Promise<keyof DeliveryRound> {
  try {
    if (row.channel === 'sms') {
      await channels.sms.send(db, clock, { mobile: row.address, scene: 'notice', content: row.body });
    } else {
      if (!channels.mailer) {
        await markFailed(db, row, NO_MAILER_ERROR);
        return 'failed';
      }
      await channels.mailer.send({ to: row.address, subject: row.subject, text: row.body });
    }
  } catch (err) {
    const error = errorText(row.channel, err);
    channels.log.warn({ err, deliveryId: row.id, channel: row.channel, attempt: row.attempts }, 'message delivery failed');
    if (row.attempts >= DELIVERY_MAX_ATTEMPTS) {
      await markFailed(db, row, error);
      return 'failed';
    }
    await db
      .update(messageDeliveries)
      .set({ lastError: error, nextAttemptAt: new Date(clock.now().getTime() + deliveryBackoffMs(row.attempts)) })
      .where(and(eq(messageDeliveries.id, row.id), eq(messageDeliveries.state, 'pending')));
    return 'retried';
  }
  await db
    .update(messageDeliveries)
    .set({ state: 'sent', sentAt: clock.now(), lastError: null })
    .where(and(eq(messageDeliveries.id, row.id), eq(messageDeliveries.state, 'pending')));
  return 'sent';
}

async function markFailed(db: Db, row: MessageDelivery, error: string) {
  await db
    .update(messageDeliveries)
    .set({ state: 'failed', lastError: error })
    .where(and(eq(messageDeliveries.id, row.id), eq(messageDeliveries.state, 'pending')));
}

function errorText(channel: MessageDelivery['channel'], err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `${channel === 'sms' ? '短信' : '邮件'}发送失败: ${message}`.slice(0, 1000);
}
