import { AuctionMarketStates, AuctionState, EnrolmentStates } from '@coalx/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auctionEnrolments, auctions } from '../db/schema/index';
import { businessRule, notFound } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { noteAuditChanges } from '../lib/audit-scope';
import { transition } from '../lib/transition';
import { auctionPolicy } from '../modules/auction/auction.policy';
import { moveAuctionsOnTime } from '../modules/auction/auction.state';
import { releaseTradeDeposit } from '../modules/funds/trade-deposits.service';

/**
 * The trading centre's hand on a running auction (实时监控): pause bidding, resume it with the time it had left,
 * cancel an auction not yet ended. Each is a move of the auction's market table (AuctionMarketStates) made under
 * the row lock, so it races safely with bids (their write is guarded on the stored state, flows/place-bid.ts) and
 * with the award (which re-reads the state under the same lock).
 */

type AuctionRow = typeof auctions.$inferSelect;

async function lockedAuction(tx: Tx, tradeNo: string, now: Date): Promise<AuctionRow> {
  // the stored state may lag the clock (the scheduler moves it every few seconds): bring it up to date first
  await moveAuctionsOnTime(tx, now, eq(auctions.tradeNo, tradeNo));
  const [a] = await tx.select().from(auctions).where(eq(auctions.tradeNo, tradeNo)).for('update').limit(1);
  if (!a || a.status !== 'approved') throw notFound('竞价不存在或未通过审核');
  return a;
}

/** Pauses bidding: keeps the bidding time left (current deadline − now); a bid is refused until resumed. */
export async function pauseAuction(db: Db, clock: Clock, actor: Actor, input: { tradeId: string; reason: string }) {
  auctionPolicy.can(actor, 'operate');
  const now = clock.now();
  return db.transaction(async (tx) => {
    const a = await lockedAuction(tx, input.tradeId, now);
    // past the deadline the award is due: nothing is left to pause
    if (a.hangState === AuctionState.bidding && now >= a.currentEnd) throw businessRule('竞价已到截止时间，正在出具结果，不能暂停');
    const remainingMs = a.currentEnd.getTime() - now.getTime();
    const moved = await transition(tx, AuctionMarketStates, 'pause', {
      table: auctions,
      where: eq(auctions.id, a.id),
      set: { pausedAt: now, pausedRemainingMs: remainingMs, operatorReason: input.reason, updatedAt: now },
      announce: (row) => ({ tradeNo: row.tradeNo, reason: input.reason, remainingMs }),
    });
    noteAuditChanges({ hangState: [a.hangState, moved.hangState], operatorReason: [a.operatorReason, input.reason] });
    return moved;
  });
}

/**
 * Resumes bidding with the time it had left at the pause. The whole bidding clock moves by the pause's length: the
 * deadline in force and the regular end (bid_end) alike, so the extension rule reads the same as before the pause
 * and the auction_times CHECK (current_end ≥ bid_end) keeps holding (both move by the same amount, only later).
 */
export async function resumeAuction(db: Db, clock: Clock, actor: Actor, input: { tradeId: string }) {
  auctionPolicy.can(actor, 'operate');
  const now = clock.now();
  return db.transaction(async (tx) => {
    const a = await lockedAuction(tx, input.tradeId, now);
    const remainingMs = a.pausedRemainingMs ?? 0;
    const pausedFor = a.pausedAt ? Math.max(0, now.getTime() - a.pausedAt.getTime()) : 0;
    const currentEnd = new Date(now.getTime() + remainingMs);
    const bidEnd = new Date(a.bidEnd.getTime() + pausedFor);
    const moved = await transition(tx, AuctionMarketStates, 'resume', {
      table: auctions,
      where: eq(auctions.id, a.id),
      set: { currentEnd, bidEnd, pausedAt: null, pausedRemainingMs: null, updatedAt: now },
      announce: (row) => ({ tradeNo: row.tradeNo, currentEnd: row.currentEnd.getTime() }),
    });
    noteAuditChanges({ hangState: [a.hangState, moved.hangState], currentEnd: [a.currentEnd.toISOString(), currentEnd.toISOString()] });
    return moved;
  });
}

/** What a cancel would release: the enrolled enterprises' frozen deposits (the confirmation shows them). */
export async function cancelPreview(db: Db, tradeNo: string) {
  const [a] = await db.select().from(auctions).where(eq(auctions.tradeNo, tradeNo)).limit(1);
  if (!a) throw notFound('竞价不存在');
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(auctionEnrolments)
    .where(sql`${auctionEnrolments.auctionId} = ${a.id} AND ${auctionEnrolments.status} = 'enrolled' AND ${auctionEnrolments.depositId} IS NOT NULL`);
  const count = Number(row?.count ?? 0);
  return { depositCount: count, depositTotal: count * a.depositFen };
}

/**
 * Cancels an auction not yet ended (撤销): no deal, every enrolled enterprise's deposit released through the funds
 * module's release (its ledger moves), each enrolment released, then the auction's `cancel` move, in one transaction.
 */
export async function cancelAuction(db: Db, clock: Clock, actor: Actor, input: { tradeId: string; reason: string }) {
  auctionPolicy.can(actor, 'operate');
  const now = clock.now();
  return db.transaction(async (tx) => {
    const a = await lockedAuction(tx, input.tradeId, now);
    const moved = await transition(tx, AuctionMarketStates, 'cancel', {
      table: auctions,
      where: eq(auctions.id, a.id),
      set: { cancelledAt: now, operatorReason: input.reason, pausedAt: null, pausedRemainingMs: null, updatedAt: now },
      announce: (row) => ({ tradeNo: row.tradeNo, reason: input.reason }),
    });
    const enrolments = await tx.select().from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, a.id));
    let released = 0;
    for (const e of enrolments) {
      if (e.status !== 'enrolled') continue;
      if (e.depositId) {
        await releaseTradeDeposit(tx, e.depositId);
        released += a.depositFen;
      }
      await transition(tx, EnrolmentStates, 'release', { table: auctionEnrolments, where: eq(auctionEnrolments.id, e.id) });
    }
    noteAuditChanges({ hangState: [a.hangState, moved.hangState], operatorReason: [a.operatorReason, input.reason], releasedDepositFen: [0, released] });
    return { auction: moved, releasedDepositFen: released };
  });
}
