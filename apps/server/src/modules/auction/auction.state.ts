import { AuctionState } from '@coalx/shared';
import { sql, type SQL } from 'drizzle-orm';
import { auctions } from '../../db/schema/index';
import { sqlLiteral } from '../../lib/sql-literal';

/**
 * The market state (AuctionState) of an approved auction at `now`, in SQL: the same rule as the shared
 * `auctionHangState`. `ended` is final once stored; the award job stores it with the result.
 */
export function auctionStateAt(now: Date): SQL<number> {
  return sql<number>`(CASE
    WHEN ${auctions.hangState} = ${sqlLiteral(AuctionState.ended)} THEN ${sqlLiteral(AuctionState.ended)}
    WHEN ${now}::timestamptz < ${auctions.enrolDeadline} THEN ${sqlLiteral(AuctionState.enrolling)}
    WHEN ${now}::timestamptz < ${auctions.bidStart} THEN ${sqlLiteral(AuctionState.waiting)}
    WHEN ${now}::timestamptz < ${auctions.currentEnd} THEN ${sqlLiteral(AuctionState.bidding)}
    ELSE ${sqlLiteral(AuctionState.ended)} END)`;
}
