import { sql, type SQL } from 'drizzle-orm';
import { auctions } from '../../db/schema/index';

/**
 * The market state (dictionary bid_hang_state_hp) of an approved auction at `now`: 0 enrolment open, 1 waiting
 * (enrolment closed), 2 bidding, 3 ended. 3 is final once stored; the award job stores it with the result.
 */
export function auctionStateAt(now: Date): SQL<number> {
  return sql<number>`(CASE
    WHEN ${auctions.hangState} = 3 THEN 3
    WHEN ${now}::timestamptz < ${auctions.enrolDeadline} THEN 0
    WHEN ${now}::timestamptz < ${auctions.bidStart} THEN 1
    WHEN ${now}::timestamptz < ${auctions.currentEnd} THEN 2
    ELSE 3 END)`;
}

export function auctionStateOf(a: { hangState: number; enrolDeadline: Date; bidStart: Date; currentEnd: Date }, now: Date): 0 | 1 | 2 | 3 {
  if (a.hangState === 3) return 3;
  if (now < a.enrolDeadline) return 0;
  if (now < a.bidStart) return 1;
  if (now < a.currentEnd) return 2;
  return 3;
}

/** Deadline after an accepted bid at `at`: the regular end while bids come in early, then bid time + period. */
export function deadlineAfterBid(a: { bidEnd: Date; extensionSeconds: number }, at: Date): Date {
  return new Date(Math.max(a.bidEnd.getTime(), at.getTime()) + a.extensionSeconds * 1000);
}

/** Is `price` better than `than` in this auction's direction (sale: higher, purchase: lower)? */
export const isBetter = (tradeType: number, price: number, than: number) => (tradeType === 2 ? price > than : price < than);
