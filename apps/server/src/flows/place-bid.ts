import { AuctionMarketStates, AuctionState, bidderAlias, bidLogGenesis, bidLogHash, bidLogTime, bidPriceProblem, deadlineAfterBid } from '@coalx/shared';
import { eq, sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client';
import { auctionBids, auctionEnrolments, auctions } from '../db/schema/index';
import { appError, notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { GroupCommitter, type Verdict } from '../lib/group-commit';
import { isDatabaseUnavailable, neverSent } from '../lib/db-errors';
import { auctionPolicy } from '../modules/auction/auction.policy';
import type { Actor } from '../lib/actor';
import { deliverHere, EVENTS_CHANNEL, eventBusOf, notificationsDeliveredHere, type DomainEvents } from '../lib/events';
import { inlineMarketMove } from '../lib/transition';
import { requireTradingAllowed } from '../modules/enterprise/trading-rights.service';

export interface BidInput {
  tradeId: string;
  price: number;
}
export interface AcceptedBid {
  seq: number;
  price: number;
  currentEnd: Date;
  bidder: number;
}
interface BidJob {
  clock: Clock;
  actor: Actor;
  input: BidInput;
}

/** Bids in one group at most: enough to absorb a burst, small enough to keep one transaction short. */
const MAX_GROUP = 100;

const sequencers = new WeakMap<Db, GroupCommitter<BidJob, AcceptedBid>>();

function sequencerOf(db: Db) {
  let sequencer = sequencers.get(db);
  if (!sequencer) sequencers.set(db, (sequencer = new GroupCommitter((_tradeNo, jobs) => commitBids(db, jobs), MAX_GROUP, 0, 'bid')));
  return sequencer;
}

type CommitListener = (tradeNo: string, seq: number, atMs: number) => void;
const commitListeners = new Set<CommitListener>();

/** Hears every accepted bid right after its commit, with performance.now(): the benchmark times fan-out from here. */
export function onBidCommitted(listener: CommitListener): () => void {
  commitListeners.add(listener);
  return () => commitListeners.delete(listener);
}

/**
 * One bid. Bids for one auction queue in arrival order in this process's sequencer; each group is judged bid by bid
 * in that order inside one transaction holding the auction's row lock (so groups of several processes still follow
 * one another), with every rule against the server clock, and committed at once. A bid is answered only after its
 * group's commit. The accepted sequence only ever improves, equal prices can never both be accepted, and each
 * bid's hash (公开出价记录) chains on from the head the locked row holds.
 */
export async function placeBid(db: Db, clock: Clock, actor: Actor, input: BidInput): Promise<AcceptedBid> {
  await requireTradingAllowed(db, clock, actor.enterpriseId);
  return sequencerOf(db).submit(input.tradeId, { clock, actor, input });
}

/** Waits until every queued bid of this database has been answered (a shutdown or a test closing). */
export function bidsSettled(db: Db): Promise<void> {
  return sequencers.get(db)?.idle() ?? Promise.resolve();
}

type AuctionRow = typeof auctions.$inferSelect;
/** What judging needs of an auction: the row as last committed and its enrolments (fixed once bidding opens). */
interface AuctionState_ {
  auction: AuctionRow;
  enrolments: Map<number, { bidderNo: number; status: string }>;
}

/**
 * Per process, the state of each auction as its last group committed it, so a group normally costs one statement:
 * judged against this copy, written with a guard that the stored row is still the copy (bid count and deadline).
 * Another process's bid, an enrolment or the auction's end drops the copy (their notifications reach every process),
 * and a failed guard reloads it and judges the group again, so an acceptance is never based on a stale copy.
 */
const auctionCaches = new WeakMap<Db, Map<string, AuctionState_>>();

function cacheOf(db: Db) {
  let cache = auctionCaches.get(db);
  if (!cache) {
    auctionCaches.set(db, (cache = new Map()));
    const bus = eventBusOf(db);
    const drop = ({ tradeNo }: { tradeNo: string }) => cache!.delete(tradeNo);
    bus.on('auction.enrolled', drop);
    bus.on('auction.enrolment_closed', drop);
    bus.on('auction.bidding_started', drop);
    bus.on('auction.ended', drop);
    bus.on('auction.paused', drop);
    bus.on('auction.resumed', drop);
    bus.on('auction.cancelled', drop);
    // our own bids come back through NOTIFY too: only a bid the copy does not hold yet drops it
    bus.on('auction.bid_accepted', ({ tradeNo, seq }) => {
      const held = cache!.get(tradeNo);
      if (held && seq > held.auction.bidCount) cache!.delete(tradeNo);
    });
  }
  return cache;
}

/** Forgets every auction's state this process holds (after a gap in the notifications that keep it current). */
export function forgetAuctionStates(db: Db) {
  auctionCaches.get(db)?.clear();
}

async function loadAuction(db: Db, tradeNo: string): Promise<AuctionState_ | null> {
  const [auction] = await db.select().from(auctions).where(eq(auctions.tradeNo, tradeNo)).limit(1);
  if (!auction) return null;
  const enrolments = await db.select({ enterpriseId: auctionEnrolments.enterpriseId, bidderNo: auctionEnrolments.bidderNo, status: auctionEnrolments.status }).from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, auction.id));
  return { auction, enrolments: new Map(enrolments.map((e) => [e.enterpriseId, e])) };
}

/** Tries with a fresh copy after a failed guard; past this the group is refused as busy (the bidder may resend). */
const MAX_ATTEMPTS = 5;

async function commitBids(db: Db, jobs: readonly BidJob[]): Promise<Verdict<AcceptedBid>[]> {
  const tradeNo = jobs[0]!.input.tradeId;
  const cache = cacheOf(db);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let held = cache.get(tradeNo);
    if (!held) {
      const loaded = await loadAuction(db, tradeNo);
      if (!loaded || loaded.auction.status !== 'approved') return jobs.map(() => refused(notFound('竞价不存在或未通过审核')));
      cache.set(tradeNo, (held = loaded));
    }
    const judged = judgeBids(held, jobs);
    if (!judged.rows.length) return judged.verdicts;
    let written: Awaited<ReturnType<typeof writeAcceptedBids>>;
    try {
      written = await writeAcceptedBids(db, held.auction, judged);
    } catch (err) {
      cache.delete(tradeNo);
      if (!isDatabaseUnavailable(err) || neverSent(err)) throw err;
      // the database went away with the statement: it committed or it did not, and the stored bids say which
      const stood = await groupStood(db, held.auction.id, judged.rows);
      if (stood === false) throw err; // surely not stored: a retry-safe refusal (503)
      if (stood === null) throw appError('bid_outcome_unknown');
      // stored: each bid is answered accepted; whether it also started the bidding, the next read of the auction says
      written = { started: null };
    }
    if (!written) {
      cache.delete(tradeNo);
      continue;
    }
    // the state this group's write moved to bidding is announced first (its listeners drop the old copy)
    if (written.started) await deliverHere(db, START_BIDDING.event as 'auction.bidding_started', [written.started]);
    cache.set(tradeNo, { auction: judged.state, enrolments: held.enrolments });
    const committedAt = performance.now();
    for (const listener of commitListeners) for (const event of judged.events) listener(tradeNo, event.seq, committedAt);
    // this app's watchers hear the bids right after the commit; other processes by the NOTIFY the statement sent
    await deliverHere(db, 'auction.bid_accepted', judged.events);
    return judged.verdicts;
  }
  return jobs.map(() => refused(appError('too_many_requests', '出价人数较多，请重新出价')));
}

/** How long a bid whose write lost the database waits to learn whether it was stored (a failover takes seconds). */
const OUTCOME_DEADLINE_MS = 20_000;

/**
 * Whether a group whose write lost its connection was stored: its bids' hashes at their seqs (true), another's or
 * none (false), or the database could not be asked before the deadline (null). The write is one statement, so its
 * bids stand or fall together. The auction's row lock is taken first: a write still committing (waiting for its
 * synchronous replica) holds it, and is seen once it has ended either way.
 */
async function groupStood(db: Db, auctionId: number, rows: readonly NewBid[]): Promise<boolean | null> {
  const deadline = Date.now() + OUTCOME_DEADLINE_MS;
  const seqs = rows.map((r) => r.seq);
  while (Date.now() < deadline) {
    try {
      const stored = await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
        await tx.execute(sql`SELECT 1 FROM auction WHERE id = ${auctionId} FOR SHARE`);
        const result = await tx.execute(sql`SELECT seq, hash FROM auction_bid WHERE auction_id = ${auctionId} AND seq >= ${Math.min(...seqs)} AND seq <= ${Math.max(...seqs)}`);
        return (result as unknown as { rows: { seq: number; hash: string }[] }).rows;
      });
      const hashes = new Map(stored.map((row) => [Number(row.seq), row.hash]));
      return rows.every((row) => hashes.get(row.seq!) === row.hash);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return null;
}

type BidAccepted = DomainEvents['auction.bid_accepted'];
type NewBid = typeof auctionBids.$inferInsert;

/** Every rule, bid by bid in arrival order, each bid finding the auction as the bids accepted before it left it. */
function judgeBids(held: AuctionState_, jobs: readonly BidJob[]) {
  const state: AuctionRow = { ...held.auction };
  const rows: NewBid[] = [];
  const events: BidAccepted[] = [];
  const verdicts = jobs.map(({ clock, actor, input }): Verdict<AcceptedBid> => {
    try {
      auctionPolicy.can(actor, 'participate', state);
      const now = clock.now();
      // held or withdrawn by the trading centre (flows/operate-auction.ts): refused, nothing stored
      if (state.hangState === AuctionState.paused) throw appError('auction_paused', `竞价已暂停：${state.operatorReason ?? '交易中心处理中'}，恢复后可继续出价`);
      if (state.hangState === AuctionState.cancelled) throw appError('auction_cancelled', `竞价已撤销：${state.operatorReason ?? ''}`);
      if (state.hangState === AuctionState.ended || now >= state.currentEnd) throw appError('auction_ended');
      if (now < state.bidStart) throw appError('auction_not_started');
      const enrolment = held.enrolments.get(actor.enterpriseId!);
      if (!enrolment || enrolment.status !== 'enrolled') throw appError('not_enrolled');
      if (state.bestEnterpriseId === actor.enterpriseId) throw appError('already_leading');
      const refusal = bidPriceProblem(
        { tradeType: state.tradeType, startPrice: state.startPriceFen, bestPrice: state.bestPriceFen, minStep: state.minStepFen, maxStep: state.maxStepFen, limitPrice: state.limitPriceFen },
        input.price,
      );
      if (refusal) throw appError(refusal.code, refusal.message);

      const seq = state.bidCount + 1;
      const bidder = bidderAlias(enrolment.bidderNo);
      const hash = bidLogHash(state.bidLogHash ?? bidLogGenesis(state.tradeNo), state.tradeNo, { seq, bidder, price: input.price, at: bidLogTime(now) });
      const inExtension = now >= state.bidEnd;
      const currentEnd = deadlineAfterBid(state, now);
      rows.push({ auctionId: state.id, enterpriseId: actor.enterpriseId!, userId: actor.userId, bidderNo: enrolment.bidderNo, seq, priceFen: input.price, inExtension: inExtension ? 1 : 0, createdAt: now, hash });
      Object.assign(state, { bestPriceFen: input.price, bestEnterpriseId: actor.enterpriseId!, bidCount: seq, bidLogHash: hash, currentEnd, hangState: START_BIDDING.to, updatedAt: now });
      events.push({ tradeNo: state.tradeNo, seq, price: input.price, bidder, at: now.getTime(), currentEnd: currentEnd.getTime(), inExtension });
      return { ok: true, value: { seq, price: input.price, currentEnd, bidder: enrolment.bidderNo } };
    } catch (error) {
      return refused(error);
    }
  });
  return { state, rows, events, verdicts };
}

const refused = (error: unknown): Verdict<AcceptedBid> => ({ ok: false, error });

/**
 * A bid moves the auction into bidding when the scheduler has not yet: the market table's `startBidding` move, made
 * inside the bids' one statement below rather than by a `transition()` call of its own (a round trip per group on the
 * hot path). Its SQL comes from the table; the statement returns the state its guard locked, and only the group whose
 * write left a from-state (the auction's first bid, unless the scheduler came first) announces
 * auction.bidding_started: by a pg_notify in the same statement, and to this process after the commit.
 */
const START_BIDDING = inlineMarketMove(AuctionMarketStates, 'startBidding');

/**
 * The group's bids, the auction's new head and their announcements in ONE statement (one round trip, one commit),
 * guarded: it writes only if the stored auction is still the one judged against (same bid count and deadline,
 * approved, not ended, paused or cancelled). The deadline is compared to the millisecond JavaScript knows it to: a
 * row written by SQL may hold microseconds, and an exact comparison would refuse every bid on it. The guard row is
 * locked first, so concurrent writers of several processes queue on it and the loser's guard fails on the winner's
 * new bid count. The text never changes, so PostgreSQL prepares it once per connection (a named statement: no
 * parsing or planning per group).
 */
const WRITE_BIDS = {
  name: 'coalx_write_bids_v4',
  text: `
    WITH guard AS (
      SELECT id, hang_state FROM auction
      WHERE id = $1 AND status = 'approved' AND hang_state NOT IN (${AuctionState.ended}, ${AuctionState.paused}, ${AuctionState.cancelled}) AND bid_count = $2
        AND current_end >= $3::timestamptz AND current_end < $3::timestamptz + interval '1 millisecond'
      FOR UPDATE
    ),
    inserted AS (
      INSERT INTO auction_bid (auction_id, enterprise_id, user_id, bidder_no, seq, price_fen, in_extension, created_at, hash)
      SELECT b."auctionId", b."enterpriseId", b."userId", b."bidderNo", b.seq, b."priceFen", b."inExtension", b."createdAt", b.hash
      FROM json_to_recordset($4::json) AS b("auctionId" bigint, "enterpriseId" bigint, "userId" bigint, "bidderNo" int, seq int, "priceFen" bigint, "inExtension" int, "createdAt" timestamptz, hash text)
      WHERE EXISTS (SELECT 1 FROM guard)
      RETURNING id, seq
    ),
    updated AS (
      UPDATE auction SET
        best_price_fen = $5::bigint, best_bid_id = (SELECT id FROM inserted WHERE seq = $6::int),
        best_enterprise_id = $7::bigint, bid_count = $6::int, bid_log_hash = $8::text,
        current_end = $9::timestamptz, hang_state = ${START_BIDDING.toSql}, updated_at = $10::timestamptz
      FROM guard WHERE auction.id = guard.id
      RETURNING auction.id
    ),
    announced AS (
      SELECT pg_notify($11::text, t) FROM json_array_elements_text($12::json) AS t
      WHERE EXISTS (SELECT 1 FROM guard)
    ),
    started AS (
      SELECT pg_notify($11::text, $13::text) FROM guard WHERE guard.${START_BIDDING.fromSql} AND $13::text IS NOT NULL
    )
    SELECT (SELECT count(*) FROM updated)::int AS written, (SELECT count(*) FROM announced)::int AS announced,
      (SELECT count(*) FROM started)::int AS started, (SELECT hang_state FROM guard) AS was`,
};

type BiddingStarted = DomainEvents['auction.bidding_started'];

/** Returns false when the guard failed and nothing was written; else the bidding_started event the write made, if any. */
async function writeAcceptedBids(
  db: Db,
  judgedAgainst: AuctionRow,
  judged: { state: AuctionRow; rows: NewBid[]; events: BidAccepted[] },
): Promise<false | { started: BiddingStarted | null }> {
  const { state, rows, events } = judged;
  const bids = rows.map((r) => ({ ...r, createdAt: (r.createdAt as Date).toISOString() }));
  const notifications = notificationsDeliveredHere(db, 'auction.bid_accepted', events);
  const started: BiddingStarted = { id: state.id, to: START_BIDDING.state, tradeNo: state.tradeNo };
  const [startedNotification = null] = notificationsDeliveredHere(db, 'auction.bidding_started', [started]);
  const values = [
    judgedAgainst.id, judgedAgainst.bidCount, judgedAgainst.currentEnd.toISOString(), JSON.stringify(bids),
    state.bestPriceFen, state.bidCount, state.bestEnterpriseId, state.bidLogHash, state.currentEnd.toISOString(), state.updatedAt.toISOString(),
    EVENTS_CHANNEL, JSON.stringify(notifications), startedNotification,
  ];
  const [row] = await queryPrepared<{ written: number; was: number | null }>(db, WRITE_BIDS, values);
  if (Number(row?.written ?? 0) !== 1) return false;
  return { started: START_BIDDING.moves(Number(row!.was)) ? started : null };
}
