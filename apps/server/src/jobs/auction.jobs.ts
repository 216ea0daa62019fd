import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctions } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { runAuctionSchedule } from '../flows/award-auction';
import { moveAuctionsOnTime } from '../modules/auction/auction.state';
import type { ScheduledJob } from '../plugins/scheduler';

/**
 * An approved auction gets its market state at once, without waiting for the scheduler's next round. One approved
 * after its deadline is ended by the award (with its result) like any other.
 */
export function auctionFollowUps(bus: EventBus, db: Db, clock: Clock): Array<() => void> {
  return [bus.on('auction.approved', ({ id }) => db.transaction((tx) => moveAuctionsOnTime(tx, clock.now(), eq(auctions.id, id))))];
}

/** Auctions move enrolling → waiting → bidding on time, and every one past its deadline is awarded or fails. */
export const auctionJobs: ScheduledJob[] = [{ name: 'auction.schedule', run: runAuctionSchedule }];
