import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { listings } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import type { ScheduledJob } from '../plugins/scheduler';
import { moveListingsOnTime } from '../modules/listing/listing.state';

/**
 * Moves approved listings into and out of their window on time, through the market table (listing.opened,
 * listing.ended, …); touches only rows whose state is stale, and its events are delivered once the round commits.
 */
export const listingJobs: ScheduledJob[] = [{ name: 'listing.hang_state', run: (db, now) => db.transaction((tx) => moveListingsOnTime(tx, now)) }];

/** An approved listing gets its market state at once, without waiting for the scheduler's next round. */
export function listingFollowUps(bus: EventBus, db: Db, clock: Clock): Array<() => void> {
  return [bus.on('listing.approved', ({ id }) => db.transaction((tx) => moveListingsOnTime(tx, clock.now(), eq(listings.id, id))))];
}
