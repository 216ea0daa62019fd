import { HangState } from '@coalx/shared';
import { sql, type SQL } from 'drizzle-orm';
import { listings } from '../../db/schema/index';
import { sqlLiteral } from '../../lib/sql-literal';

/**
 * The market state (HangState) of an approved listing at `now`, in SQL: the same rule as the shared
 * `listingHangState`. The scheduler stores it; reads compute it too, so a plain GET is right to the second even if
 * the scheduler lags.
 */
export function hangStateAt(now: Date): SQL<number> {
  return sql<number>`(CASE
    WHEN ${listings.subscribedKg} >= ${listings.quantityKg} THEN ${sqlLiteral(HangState.ended)}
    WHEN ${now}::timestamptz < ${listings.listedDateStart} THEN ${sqlLiteral(HangState.notStarted)}
    WHEN ${now}::timestamptz < ${listings.listedDateEnd} THEN ${sqlLiteral(HangState.open)}
    ELSE ${sqlLiteral(HangState.ended)} END)`;
}
