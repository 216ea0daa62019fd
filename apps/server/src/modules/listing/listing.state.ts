import { HangState, ListingMarketStates } from '@coalx/shared';
import { and, eq, gt, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
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
/**
 * The approved listings a time move may be due for (a superset of those the rule moves): not started past their
 * start, live past their end or sold out, ended but inside their window (a rejected 摘牌 gives quantity back). Each
 * arm is a partial index, so an idle round reads the due rows, not every live listing; an ended listing past its
 * window never moves again and is never read.
 */
function dueListings(now: Date): SQL {
  const approved = eq(listings.status, 'approved');
  const live = inArray(listings.hangState, [HangState.notStarted, HangState.open]);
  return or(
    and(approved, eq(listings.hangState, HangState.notStarted), lte(listings.listedDateStart, now)),
    and(approved, live, lte(listings.listedDateEnd, now)),
    and(approved, live, gte(listings.subscribedKg, sql`${listings.quantityKg}`)),
    and(approved, eq(listings.hangState, HangState.ended), gt(listings.listedDateEnd, now)),
  )!;
}

export function moveListingsOnTime(tx: Tx | Db, now: Date, where?: SQL) {
  return transitionByTime(tx, ListingMarketStates, ['open', 'end', 'reopen'], now, {
    table: listings,
    where: and(dueListings(now), where)!,
    set: (move) => ({ endedAt: move === 'end' ? sql`COALESCE(${listings.endedAt}, ${now}::timestamptz)` : null, updatedAt: now }),
    announce: announceListing,
  });
}
