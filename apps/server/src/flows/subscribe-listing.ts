import { amountFen, formatTons, HangState, ListingMarketStates, listingHangState, subscriptionDeposit } from '@coalx/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { queryPrepared, rowOf, type Db, type Tx } from '../db/client';
import { enterprises, listingSubscriptions, listings } from '../db/schema/index';
import { appError, notFound } from '../errors';
import { uniqueViolation } from '../lib/db-errors';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { GroupCommitter, type Verdict } from '../lib/group-commit';
import { inlineMarketMove } from '../lib/transition';
import { announceListing } from '../modules/listing/listing.state';
import { DepositBatch } from '../modules/funds/trade-deposits.service';
import { PAYMENT_AUTH_SWITCHES, verifyPaymentAuth, type UkeyVerifier } from '../modules/funds/pay-auth';
import { listingPolicy } from '../modules/listing/listing.policy';
import { requireTradingAllowed } from '../modules/enterprise/trading-rights.service';
import type { Actor } from '../lib/actor';
import { confirmSubscriptionInTx } from './answer-subscription';

type Listing = typeof listings.$inferSelect;
type Subscription = typeof listingSubscriptions.$inferSelect;
export interface SubscribeInput {
  tradeId: string;
  quantity: number;
  requestId: string;
  payPassword?: string;
  ukeySignature?: string;
}
interface SubscribeJob {
  clock: Clock;
  actor: Actor & { enterpriseId: number };
  input: SubscribeInput;
  /** The pay password or key was checked before queueing (only done when a switch asks for it). */
  payChecked: boolean;
}

/**
 * 摘牌: reserves the quantity and freezes the subscriber's deposit in one transaction that holds the listing's row
 * lock, so concurrent subscribers are served in time order and can never take more than the listed total.
 * Subscriptions to one listing queue in arrival order and are judged one by one, in order, inside one transaction
 * that commits them together (group commit, lib/group-commit.ts); each is answered after that commit.
 */
export async function subscribeListing(db: Db, clock: Clock, ukey: UkeyVerifier, actor: Actor, input: SubscribeInput): Promise<Subscription> {
  listingPolicy.can(actor, 'trade');
  // no enterprise, nothing to subscribe with (the group's enterprise check would refuse it the same way)
  if (actor.enterpriseId === null) throw notApproved();
  await requireTradingAllowed(db, clock, actor.enterpriseId);
  const job = { clock, actor: actor as SubscribeJob['actor'], input, payChecked: false };
  try {
    return await enqueue(db, job);
  } catch (error) {
    if (error !== PAY_CHECK_NEEDED) throw error;
  }
  // a pay check is switched on: it comes after the replay and enterprise checks, as it always did
  const replay = await replayOf(db, actor, input.requestId);
  if (replay) return replay;
  await requireApproved(db, actor);
  await verifyPaymentAuth(db, clock, ukey, actor, 'listing_subscribe', input);
  return enqueue(db, { ...job, payChecked: true });
}

const notApproved = () => appError('enterprise_not_approved', '企业未通过交易中心审核，不能摘牌');
/** The group's answer to a subscription that needs its pay password or key checked first (not an error users see). */
const PAY_CHECK_NEEDED = new Error('pay check needed');

async function replayOf(db: Db | Tx, actor: Actor, requestId: string) {
  const [replay] = await db
    .select()
    .from(listingSubscriptions)
    .where(and(eq(listingSubscriptions.enterpriseId, actor.enterpriseId ?? -1), eq(listingSubscriptions.requestId, requestId)))
    .limit(1);
  return replay ?? null;
}

async function requireApproved(db: Db, actor: Actor) {
  const [enterprise] = await db.select({ auditStatus: enterprises.auditStatus }).from(enterprises).where(eq(enterprises.id, actor.enterpriseId ?? -1)).limit(1);
  if (!enterprise || enterprise.auditStatus !== 'approved') throw notApproved();
}

/** One sequencer per database (per app): its groups are per listing. */
const sequencers = new WeakMap<Db, { committer: GroupCommitter<SubscribeJob, Subscription>; lingering: Map<string, Promise<void>> }>();

/**
 * Queues a subscription for its listing's next group. When the listing is idle the first arrival lingers one turn
 * of the event loop, so requests already on their way (on PGlite, their reads queued behind the last group) join
 * its group instead of each opening a group of one.
 */
async function enqueue(db: Db, job: SubscribeJob) {
  let sequencer = sequencers.get(db);
  if (!sequencer) sequencers.set(db, (sequencer = { committer: new GroupCommitter((tradeNo, jobs) => commitWithRetry(db, tradeNo, jobs), undefined, 0, 'subscription'), lingering: new Map() }));
  const { committer, lingering } = sequencer;
  const key = job.input.tradeId;
  if (committer.depth(key) === 0) {
    let turn = lingering.get(key);
    if (!turn) {
      turn = new Promise<void>((resolve) => setImmediate(resolve)).then(() => void lingering.delete(key));
      lingering.set(key, turn);
    }
    await turn;
  }
  return committer.submit(key, job);
}

/** Waits for every subscription group under way on this database (shutdown). */
export function subscriptionsIdle(db: Db) {
  return sequencers.get(db)?.committer.idle() ?? Promise.resolve();
}

/**
 * A group that lost a race with another process (the same request id committed there meanwhile, or a deadlock on
 * the deposit accounts) rolled back whole: it runs again and then sees what the other committed.
 */
async function commitWithRetry(db: Db, tradeNo: string, jobs: readonly SubscribeJob[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => commitGroup(tx, tradeNo, jobs));
    } catch (error) {
      const raced = uniqueViolation(error) === 'listing_subscription_request_uq' || errorCode(error) === '40P01';
      if (!raced || attempt >= 3) throw error;
    }
  }
}

function errorCode(error: unknown) {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as never, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return null;
}

/**
 * A group's first statement: the listing's row lock, the enterprises' audit, the replays of its request ids, the pay
 * switches that are on, and the ids its new subscriptions will take. Constant text: prepared once (db/client.ts).
 */
const groupContext = (enterpriseIds: string, requestIds: string, switchCodes: string) => `
  (SELECT string_agg(e.id::text, ',') FROM enterprise e WHERE e.id = ANY(${enterpriseIds}::bigint[]) AND e.audit_status = 'approved') AS group_approved,
  (SELECT string_agg(s.id::text, ',') FROM listing_subscription s WHERE s.enterprise_id = ANY(${enterpriseIds}::bigint[]) AND s.request_id = ANY(${requestIds}::text[])) AS group_replays,
  (SELECT string_agg(w.code, ',') FROM sys_switch w WHERE w.content = '1' AND w.code = ANY(${switchCodes}::text[])) AS group_pay_checks`;
const LOCK_LISTING = {
  name: 'coalx_lock_listing_group_v1',
  text: `
    SELECT l.*, ${groupContext('$2', '$3', '$4')},
      (SELECT string_agg(nextval(pg_get_serial_sequence('listing_subscription', 'id'))::text, ',') FROM generate_series(1, $5::int)) AS group_ids
    FROM listing l WHERE l.trade_no = $1::text LIMIT 1 FOR UPDATE`,
};
/** The same context when there is no such listing. */
const GROUP_CONTEXT = { name: 'coalx_listing_group_context_v1', text: `SELECT ${groupContext('$1', '$2', '$3')}` };
interface GroupHead {
  group_approved: string | null;
  group_replays: string | null;
  group_pay_checks: string | null;
  group_ids?: string | null;
}
const pickHead = (raw: GroupHead) => ({ approved: raw.group_approved, replays: raw.group_replays, payChecks: raw.group_pay_checks, ids: raw.group_ids ?? null });

/**
 * Selling out ends the listing: the market table's `end` move, made inside the group's write below rather than by a
 * `transition()` call of its own (one more round trip per group). Its SQL comes from the table; the group publishes
 * listing.ended when the locked row's stored state was one the move leaves (an in-process event: no extra statement).
 */
const SELL_OUT = inlineMarketMove(ListingMarketStates, 'end');

/** The group's subscriptions and the listing's new quantity (and, sold out, its end), in one statement. */
const WRITE_SUBSCRIPTIONS = {
  name: 'coalx_write_subscriptions_v2',
  text: `
    WITH added AS (
      UPDATE listing SET subscribed_kg = subscribed_kg + $2::bigint,
        hang_state = CASE WHEN $3::boolean AND ${SELL_OUT.fromSql} THEN ${SELL_OUT.toSql} ELSE hang_state END,
        ended_at = CASE WHEN $3::boolean THEN $4::timestamptz ELSE ended_at END,
        updated_at = $5::timestamptz
      WHERE id = $1::bigint
    )
    INSERT INTO listing_subscription (id, listing_id, enterprise_id, user_id, quantity_kg, price_fen, amount_fen, deposit_fen, deposit_id, status, decline_reason, decided_at, request_id, created_at)
    SELECT r.id, r."listingId", r."enterpriseId", r."userId", r."quantityKg", r."priceFen", r."amountFen", r."depositFen", r."depositId", r.status, r."declineReason", r."decidedAt", r."requestId", r."createdAt"
    FROM json_to_recordset($6::json) AS r(id bigint, "listingId" bigint, "enterpriseId" bigint, "userId" bigint, "quantityKg" bigint, "priceFen" bigint, "amountFen" bigint,
      "depositFen" bigint, "depositId" bigint, status text, "declineReason" text, "decidedAt" timestamptz, "requestId" text, "createdAt" timestamptz)
    RETURNING id, updated_at`,
};

const list = (text: string | null) => (text ? text.split(',').filter(Boolean) : []);

/**
 * Judges a group of subscriptions to one listing in arrival order, under the listing's row lock (which still
 * orders groups of different processes), in four statements whatever its size: the listing's lock (which also
 * reads the enterprises' audit, the replays and the pay switches, and reserves the new rows' ids), the deposit
 * accounts' lock, the deposits (one funds statement) and the subscriptions with the listing's new quantity.
 */
async function commitGroup(tx: Tx, tradeNo: string, jobs: readonly SubscribeJob[]): Promise<Verdict<Subscription>[]> {
  const enterpriseIds = [...new Set(jobs.map((job) => job.actor.enterpriseId))];
  const requestIds = [...new Set(jobs.map((job) => job.input.requestId))];
  const [raw] = await queryPrepared<Record<string, unknown> & GroupHead>(tx, LOCK_LISTING, [tradeNo, enterpriseIds, requestIds, Object.values(PAYMENT_AUTH_SWITCHES), jobs.length]);
  const head = raw ? { listing: rowOf(listings, raw), ...pickHead(raw) } : null;
  // no such listing: still answer replays and unapproved enterprises as before
  const { approved, replays, payChecks } = head ?? pickHead((await queryPrepared<GroupHead>(tx, GROUP_CONTEXT, [enterpriseIds, requestIds, Object.values(PAYMENT_AUTH_SWITCHES)]))[0]!);
  const approvedIds = new Set(list(approved).map(Number));
  const replayIds = list(replays).map(Number);
  const replayRows = replayIds.length ? await tx.select().from(listingSubscriptions).where(inArray(listingSubscriptions.id, replayIds)) : [];
  const requestKey = (enterpriseId: number, requestId: string) => `${enterpriseId}\u0000${requestId}`;
  const done = new Map(replayRows.map((row) => [requestKey(row.enterpriseId, row.requestId), row]));
  const listing: Listing | null = head && head.listing.status === 'approved' ? { ...head.listing } : null;
  const freshIds = list(head?.ids ?? null).map(Number);
  const deposits = listing && listing.depositValueFen > 0 ? await DepositBatch.lock(tx, enterpriseIds) : null;

  // judge each in order exactly as one transaction each would; the accepted ones are written below
  const verdicts: (Verdict<Subscription> | { accepted: number })[] = [];
  const accepted: { job: SubscribeJob; row: Subscription; now: Date }[] = [];
  const acceptedOf = new Map<string, number>();
  for (const job of jobs) {
    const key = requestKey(job.actor.enterpriseId, job.input.requestId);
    if (payChecks && !job.payChecked) {
      verdicts.push({ ok: false, error: PAY_CHECK_NEEDED });
      continue;
    }
    const replay = done.get(key);
    if (replay) {
      verdicts.push({ ok: true, value: replay });
      continue;
    }
    const earlier = acceptedOf.get(key);
    if (earlier !== undefined) {
      // the same request twice in one group: the second copy is answered with the first's subscription
      verdicts.push({ accepted: earlier });
      continue;
    }
    try {
      if (!approvedIds.has(job.actor.enterpriseId)) throw notApproved();
      if (!listing) throw notFound('挂牌不存在或未通过审核');
      const now = job.clock.now();
      const row = judge(listing, job, now, freshIds[accepted.length]!);
      if (row.depositFen > 0) deposits!.hold(job.actor.enterpriseId, row.depositFen);
      listing.subscribedKg += row.quantityKg;
      if (listing.subscribedKg >= listing.quantityKg) Object.assign(listing, { hangState: SELL_OUT.to, endedAt: now });
      listing.updatedAt = now;
      acceptedOf.set(key, accepted.length);
      verdicts.push({ accepted: accepted.length });
      accepted.push({ job, row, now });
    } catch (error) {
      verdicts.push({ ok: false, error });
    }
  }
  if (!listing || !accepted.length) return verdicts as Verdict<Subscription>[];

  const paying = accepted.filter((a) => a.row.depositFen > 0);
  if (paying.length) {
    const depositIds = await deposits!.freeze(
      tx,
      'listing',
      listing.tradeNo,
      paying.map(({ row, job }) => ({ enterpriseId: row.enterpriseId, refId: String(row.id), amount: row.depositFen, createdBy: job.actor.userId })),
    );
    paying.forEach(({ row }, k) => (row.depositId = depositIds[k]!));
  }
  const soldOut = listing.subscribedKg >= listing.quantityKg;
  const written = await queryPrepared<{ id: number | string; updated_at: Date | string }>(tx, WRITE_SUBSCRIPTIONS, [
    listing.id,
    listing.subscribedKg - head!.listing.subscribedKg,
    soldOut,
    soldOut ? listing.endedAt!.toISOString() : null,
    listing.updatedAt.toISOString(),
    JSON.stringify(accepted.map(({ row }) => ({ ...row, createdAt: row.createdAt.toISOString(), updatedAt: undefined }))),
  ]);
  // updated_at is the database's default
  const updatedAt = new Map(written.map((r) => [Number(r.id), new Date(r.updated_at)]));
  for (const { row } of accepted) row.updatedAt = updatedAt.get(row.id) ?? row.createdAt;
  await publish(tx, 'listing.quantity_changed', { id: listing.id });
  if (soldOut && SELL_OUT.moves(head!.listing.hangState)) {
    await publish(tx, SELL_OUT.event as 'listing.ended', { id: listing.id, to: SELL_OUT.state, ...announceListing(listing) });
  }

  const answers: Subscription[] = [];
  for (const { row, now } of accepted) answers.push(listing.autoConfirm ? await confirmSubscriptionInTx(tx, now, listing, row) : row);
  // one waiting for the publisher's answer is a notice to it (an auto-confirmed one announces its confirmation)
  if (!listing.autoConfirm) for (const { row } of accepted) await publish(tx, 'subscription.created', { id: row.id });
  return verdicts.map((v) => ('accepted' in v ? { ok: true, value: answers[v.accepted]! } : v));
}

/** The rules of one subscription against the listing as the earlier ones of the group left it: the row to write. */
function judge(listing: Listing, job: SubscribeJob, now: Date, id: number): Subscription {
  listingPolicy.can(job.actor, 'subscribe', listing);
  if (now < listing.listedDateStart) throw appError('listing_not_open', '挂牌尚未开始，暂不能摘牌');
  const remaining = listing.quantityKg - listing.subscribedKg;
  if (remaining <= 0) throw appError('listing_sold_out');
  if (listingHangState(listing, now) !== HangState.open) throw appError('listing_ended', '挂牌已结束，不能摘牌');
  const q = job.input.quantity;
  if (q > remaining) throw appError('subscribe_quantity_invalid', `摘牌数量超过剩余可摘量 ${formatTons(remaining)}`);
  if (q > listing.maxSubscribeKg) throw appError('subscribe_quantity_invalid', `摘牌数量不能大于最大摘牌量 ${formatTons(listing.maxSubscribeKg)}`);
  // the last lot may be smaller than the minimum: whoever takes exactly the remainder is served
  if (q < listing.minSubscribeKg && q !== remaining) throw appError('subscribe_quantity_invalid', `摘牌数量不能小于最小摘牌量 ${formatTons(listing.minSubscribeKg)}`);
  return {
    id,
    listingId: listing.id,
    enterpriseId: job.actor.enterpriseId,
    userId: job.actor.userId,
    quantityKg: q,
    priceFen: listing.priceFen,
    amountFen: Number(amountFen(listing.priceFen, q)),
    depositFen: subscriptionDeposit(listing.depositMode, listing.depositValueFen, q),
    depositId: null,
    status: 'pending',
    declineReason: null,
    decidedAt: null,
    requestId: job.input.requestId,
    createdAt: now,
    updatedAt: now,
  };
}
