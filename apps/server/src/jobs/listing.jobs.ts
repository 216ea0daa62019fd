import { HangState } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { listings } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { sqlLiteral } from '../lib/sql-literal';
import { registerScheduledJob } from '../plugins/scheduler';
import { hangStateAt } from '../modules/listing/listing.state';

/** Moves approved listings into and out of their window on time; touches only rows whose state is stale. */
export function registerListingJobs() {
  registerScheduledJob({
    name: 'listing.hang_state',
    run: (db, now) => {
      const state = hangStateAt(now);
      return db
        .update(listings)
        .set({ hangState: sql`${state}`, endedAt: sql`CASE WHEN ${state} = ${sqlLiteral(HangState.ended)} THEN COALESCE(${listings.endedAt}, ${now}::timestamptz) ELSE NULL END`, updatedAt: now })
        .where(and(eq(listings.status, 'approved'), sql`${listings.hangState} <> ${state}`));
    },
  });
}

/** An approved listing gets its market state at once, without waiting for the scheduler's next round. */
export function listingFollowUps(bus: EventBus, db: Db, clock: Clock): Array<() => void> {
  return [bus.on('listing.approved', ({ id }) => db.update(listings).set({ hangState: sql`${hangStateAt(clock.now())}` }).where(eq(listings.id, id)))];
}
