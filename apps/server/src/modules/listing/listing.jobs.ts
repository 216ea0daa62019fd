import { and, eq, sql } from 'drizzle-orm';
import { listings } from '../../db/schema/index';
import { registerScheduledJob } from '../../plugins/scheduler';
import { hangStateAt } from './listing.state';

/** Moves approved listings into and out of their window on time; touches only rows whose state is stale. */
export function registerListingJobs() {
  registerScheduledJob({
    name: 'listing.hang_state',
    run: (db, now) => {
      const state = hangStateAt(now);
      return db
        .update(listings)
        .set({ hangState: sql`${state}`, endedAt: sql`CASE WHEN ${state} = 2 THEN COALESCE(${listings.endedAt}, ${now}::timestamptz) ELSE NULL END`, updatedAt: now })
        .where(and(eq(listings.status, 'approved'), sql`${listings.hangState} <> ${state}`));
    },
  });
}
