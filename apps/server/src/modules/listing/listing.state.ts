import { sql, type SQL } from 'drizzle-orm';
import { listings } from '../../db/schema/index';

/**
 * The market state (dictionary hang_state_total_trans) of an approved listing at `now`: 0 before its window,
 * 1 open, 2 after the window or sold out. The scheduler stores it; reads compute it too, so a plain GET is right
 * to the second even if the scheduler lags.
 */
export function hangStateAt(now: Date): SQL<number> {
  return sql<number>`(CASE
    WHEN ${listings.subscribedKg} >= ${listings.quantityKg} THEN 2
    WHEN ${now}::timestamptz < ${listings.listedDateStart} THEN 0
    WHEN ${now}::timestamptz < ${listings.listedDateEnd} THEN 1
    ELSE 2 END)`;
}

export function hangStateOf(listing: { subscribedKg: number; quantityKg: number; listedDateStart: Date; listedDateEnd: Date }, now: Date): 0 | 1 | 2 {
  if (listing.subscribedKg >= listing.quantityKg) return 2;
  if (now < listing.listedDateStart) return 0;
  if (now < listing.listedDateEnd) return 1;
  return 2;
}
