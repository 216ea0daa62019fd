import { HangState, ListingMarketStates } from '@coalx/shared';
import { and, eq, gt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { listings } from '../../db/schema/index';
import { marketStateSql, transitionByTime } from '../../lib/transition';

/**
 * The market state (HangState) of an approved listing at `now`, in SQL: the time rule of the shared table
 * (`ListingMarketStates`), which `listingHangState` reads in TypeScript. The scheduler stores it; reads compute it
 * too, so a plain GET is right to the second even if the scheduler lags.
 */
export function hangStateAt(now: Date): SQL<number> {
  return marketStateSql(ListingMarketStates, listings, now);
}

/** What a listing's market move announces besides its id and state. */
export const announceListing = (row: typeof listings.$inferSelect) => ({ tradeNo: row.tradeNo });

/**
 * Moves approved listings (all, or those `where` selects) to the state their time rule gives at `now`, through the
 * table (opened, ended, reopened: one event per moved row); rows already right are not touched. `endedAt` is kept
 * from the first end.
 */
export function moveListingsOnTime(tx: Tx | Db, now: Date, where?: SQL) {
  return transitionByTime(tx, ListingMarketStates, ['open', 'end', 'reopen'], now, {
    table: listings,
    // an ended listing whose window has closed can never move again: the round reads only the live ones and the
    // ended ones a lost 摘牌 could reopen before their end (a partial index each), not every approved listing
    where: and(eq(listings.status, 'approved'), or(ne(listings.hangState, HangState.ended), gt(listings.listedDateEnd, now)), where)!,
    set: (move) => ({ endedAt: move === 'end' ? sql`COALESCE(${listings.endedAt}, ${now}::timestamptz)` : null, updatedAt: now }),
    announce: announceListing,
  });
}
