import type { EventBus, EventName } from '../lib/events';
import type { PublicCache } from '../lib/public-cache';

/**
 * Which public reads each event makes stale. The cache listens to events, so no route or service knows about it;
 * another process's copy expires with the TTL (PUBLIC_CACHE_MS).
 */
const STALE_AFTER: Partial<Record<EventName, readonly string[]>> = {
  'content.banners_changed': ['banner:'],
  'content.saved': ['content:'],
  'content.published': ['content:'],
  'content.unpublished': ['content:'],
  'market_index.published': ['index:'],
  'home.recommendations_changed': ['recommend:'],
  'listing.approved': ['market:listing:', 'recommend:'],
  'listing.quantity_changed': ['market:listing:', 'recommend:'],
  'auction.approved': ['market:auction:', 'recommend:'],
  'deal.created': ['summary:', 'marketdata:'],
};

export function invalidateOnEvents(bus: EventBus, cache: PublicCache): Array<() => void> {
  return Object.entries(STALE_AFTER).map(([name, prefixes]) =>
    bus.on(name as EventName, () => {
      for (const prefix of prefixes!) cache.invalidate(prefix);
    }),
  );
}
