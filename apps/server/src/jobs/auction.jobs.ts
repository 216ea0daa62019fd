import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctions } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { auctionStateAt } from '../modules/auction/auction.state';

/** An approved auction gets its market state at once, without waiting for the scheduler's next round. */
export function auctionFollowUps(bus: EventBus, db: Db, clock: Clock): Array<() => void> {
  return [bus.on('auction.approved', ({ id }) => db.update(auctions).set({ hangState: sql`${auctionStateAt(clock.now())}` }).where(eq(auctions.id, id)))];
}
