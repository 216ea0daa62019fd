import { AuctionMarketStates, AuctionState } from '@coalx/shared';
import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { auctions } from '../../db/schema/index';
import { marketStateSql, transitionByTime } from '../../lib/transition';

/**
 * The market state (AuctionState) of an approved auction at `now`, in SQL: the time rule of the shared table
 * (`AuctionMarketStates`), which `auctionHangState` reads in TypeScript. `ended` is final once stored; the award
 * stores it with the result.
 */
export function auctionStateAt(now: Date): SQL<number> {
  return marketStateSql(AuctionMarketStates, auctions, now);
}

/** What an auction's market move announces besides its id and state: live screens are keyed by the trade number. */
export const announceAuction = (row: typeof auctions.$inferSelect) => ({ tradeNo: row.tradeNo });

/**
 * The approved auctions a time move may be due for: enrolment past its deadline, or waiting past the start of bidding
 * (a superset of those the rule moves). Each arm is a partial index's range, so an idle round reads the due rows,
 * not every auction still open.
 */
function dueAuctions(now: Date): SQL {
  const approved = eq(auctions.status, 'approved');
  return or(
    and(approved, eq(auctions.hangState, AuctionState.enrolling), lte(auctions.enrolDeadline, now)),
    and(approved, eq(auctions.hangState, AuctionState.waiting), lte(auctions.bidStart, now)),
  )!;
}

/**
 * Moves approved auctions (all, or those `where` selects) on time: enrolment closes, bidding starts (one event per
 * moved row). The end is not a time move: the award makes it, with the result.
 */
export function moveAuctionsOnTime(tx: Tx | Db, now: Date, where?: SQL) {
  return transitionByTime(tx, AuctionMarketStates, ['closeEnrolment', 'startBidding'], now, {
    table: auctions,
    where: and(dueAuctions(now), where)!,
    set: () => ({ updatedAt: now }),
    announce: announceAuction,
  });
}
