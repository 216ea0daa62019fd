import { ListingMarketStates, marketStateAt, marketStateOf, moveBetween, SubscriptionStates } from '@coalx/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { listingSubscriptions, listings } from '../db/schema/index';
import { notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { transition } from '../lib/transition';
import { createDeal } from '../modules/deal/deal.service';
import { convertToPerformanceDeposit, releaseTradeDeposit } from '../modules/funds/trade-deposits.service';
import { listingPolicy } from '../modules/listing/listing.policy';
import { announceListing } from '../modules/listing/listing.state';
import type { Actor } from '../lib/actor';

type Listing = typeof listings.$inferSelect;
type Subscription = typeof listingSubscriptions.$inferSelect;

/** Confirms a pending subscription: it becomes a deal, and its deposit a performance deposit. */
export async function confirmSubscriptionInTx(tx: Tx, now: Date, listing: Listing, subscription: Subscription) {
  const confirmed = await transition(tx, SubscriptionStates, 'confirm', {
    table: listingSubscriptions,
    where: eq(listingSubscriptions.id, subscription.id),
    set: { decidedAt: now, updatedAt: now },
    notFoundMessage: '摘牌记录不存在',
  });
  await createDeal(tx, now, {
    tradeKind: 'listing',
    tradeNo: listing.tradeNo,
    tradeType: listing.tradeType,
    sourceId: subscription.id,
    publisherEnterpriseId: listing.enterpriseId,
    counterpartyEnterpriseId: subscription.enterpriseId,
    stockCode: listing.stockCode,
    productName: listing.productName,
    quantityKg: subscription.quantityKg,
    priceFen: subscription.priceFen,
    depositFen: subscription.depositFen,
  });
  if (confirmed.depositId) await convertToPerformanceDeposit(tx, confirmed.depositId);
  return confirmed;
}

/**
 * After a decline, the locked listing (as it now is) moves to the state its time rule gives, by the table's move
 * (a sold-out listing reopens in its window: listing.reopened); one already right is left alone.
 */
async function settleMarketState(tx: Tx, now: Date, listing: Listing) {
  const stored = marketStateOf(ListingMarketStates, listing.hangState);
  const due = marketStateAt(ListingMarketStates, listing, now);
  const move = stored && moveBetween(ListingMarketStates, stored, due);
  if (!move) return;
  await transition(tx, ListingMarketStates, move, {
    table: listings,
    where: eq(listings.id, listing.id),
    set: due === 'ended' ? {} : { endedAt: null },
    announce: announceListing,
  });
}

/** The publisher confirms or declines a subscription (listedRecord/answerOrdersDeal). */
export async function answerSubscription(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { id: number; action: 'confirm' | 'decline'; reason?: string },
) {
  return db.transaction(async (tx) => {
    const [subscription] = await tx.select().from(listingSubscriptions).where(eq(listingSubscriptions.id, input.id)).limit(1);
    if (!subscription) throw notFound('摘牌记录不存在');
    // the listing row lock orders this against subscriptions arriving at the same moment
    const [listing] = await tx.select().from(listings).where(eq(listings.id, subscription.listingId)).for('update').limit(1);
    listingPolicy.can(actor, 'manage', listing!);
    const now = clock.now();
    if (input.action === 'confirm') return confirmSubscriptionInTx(tx, now, listing!, subscription);

    const declined = await transition(tx, SubscriptionStates, 'decline', {
      table: listingSubscriptions,
      where: eq(listingSubscriptions.id, subscription.id),
      set: { declineReason: input.reason ?? '', decidedAt: now, updatedAt: now },
    });
    // the quantity goes back on the market; a listing sold out by it reopens if its window is still open
    await tx
      .update(listings)
      .set({ subscribedKg: sql`${listings.subscribedKg} - ${subscription.quantityKg}`, updatedAt: now })
      .where(eq(listings.id, listing!.id));
    if (listing!.status === 'approved') await settleMarketState(tx, now, { ...listing!, subscribedKg: listing!.subscribedKg - subscription.quantityKg });
    if (subscription.depositId) await releaseTradeDeposit(tx, subscription.depositId);
    await publish(tx, 'listing.quantity_changed', { id: listing!.id });
    return declined;
  });
}
