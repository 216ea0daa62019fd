import { AuctionState, bidderAlias, HangState, isSale, type BoardAuction, type BoardListing } from '@coalx/shared';
import { and, count, eq, gte, inArray, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionEnrolments, auctions, enterprises, listings, listingSubscriptions } from '../db/schema/index';
import { notFound } from '../errors';
import { shanghaiDayStart } from '../lib/shanghai-time';
import { auctionStateAt } from '../modules/auction/auction.state';
import { hangStateAt } from '../modules/listing/listing.state';

/**
 * The trading centre's live market board (实时监控): today's approved listings and auctions with their real
 * enterprise names, read across the listing, auction and enterprise tables. "Today" is the Shanghai day: a trade
 * whose window touches it, and any auction the trading centre holds paused whatever its day.
 */

export async function marketBoard(db: Db, now: Date) {
  const dayStart = shanghaiDayStart(now);
  const dayEnd = shanghaiDayStart(now, 1);
  const auctionState = auctionStateAt(now);
  const auctionRows = await db
    .select({ a: auctions, enterpriseName: enterprises.organName, state: auctionState })
    .from(auctions)
    .innerJoin(enterprises, eq(enterprises.id, auctions.enterpriseId))
    .where(
      and(
        eq(auctions.status, 'approved'),
        or(
          and(lt(auctions.enrolDeadline, dayEnd), gte(auctions.currentEnd, dayStart)),
          and(lt(auctions.bidStart, dayEnd), gte(auctions.currentEnd, dayStart)),
          gte(auctions.cancelledAt, dayStart),
          gte(auctions.endedAt, dayStart),
          eq(auctions.hangState, AuctionState.paused),
        ),
      ),
    )
    .orderBy(auctions.bidStart, auctions.id);
  const listingState = hangStateAt(now);
  const listingRows = await db
    .select({ l: listings, enterpriseName: enterprises.organName, state: listingState })
    .from(listings)
    .innerJoin(enterprises, eq(enterprises.id, listings.enterpriseId))
    .where(and(eq(listings.status, 'approved'), lt(listings.listedDateStart, dayEnd), gte(listings.listedDateEnd, dayStart)))
    .orderBy(listings.listedDateStart, listings.id);
  const listingIds = listingRows.map((r) => r.l.id);
  const subscriptionCounts = listingIds.length
    ? await db.select({ listingId: listingSubscriptions.listingId, n: count() }).from(listingSubscriptions).where(inArray(listingSubscriptions.listingId, listingIds)).groupBy(listingSubscriptions.listingId)
    : [];
  const subscriptionsOf = new Map(subscriptionCounts.map((r) => [r.listingId, Number(r.n)]));

  const auctionsOnBoard: BoardAuction[] = auctionRows.map(({ a, enterpriseName, state }) => {
    const hangState = Number(state);
    const currentPrice = a.bestPriceFen ?? a.startPriceFen;
    const premium = isSale(a.tradeType) ? currentPrice - a.startPriceFen : a.startPriceFen - currentPrice;
    const next = hangState === AuctionState.enrolling ? a.enrolDeadline : hangState === AuctionState.waiting ? a.bidStart : hangState === AuctionState.bidding ? a.currentEnd : null;
    return {
      tradeId: a.tradeNo,
      tradeType: a.tradeType,
      productName: a.productName,
      enterpriseName,
      hangState,
      quantity: a.quantityKg,
      startPrice: a.startPriceFen,
      currentPrice,
      premium,
      premiumBp: Math.round((premium * 10_000) / a.startPriceFen),
      enrolCount: a.enrolCount,
      bidCount: a.bidCount,
      deposit: a.depositFen,
      bidStart: a.bidStart.getTime(),
      currentEnd: a.currentEnd.getTime(),
      remainingMs: hangState === AuctionState.paused ? (a.pausedRemainingMs ?? 0) : next ? Math.max(0, next.getTime() - now.getTime()) : null,
      operatorReason: hangState === AuctionState.paused || hangState === AuctionState.cancelled ? a.operatorReason : null,
      result: a.result,
    };
  });
  const listingsOnBoard: BoardListing[] = listingRows.map(({ l, enterpriseName, state }) => {
    const hangState = Number(state);
    const next = hangState === HangState.notStarted ? l.listedDateStart : hangState === HangState.open ? l.listedDateEnd : null;
    return {
      tradeId: l.tradeNo,
      tradeType: l.tradeType,
      productName: l.productName,
      enterpriseName,
      hangState,
      quantity: l.quantityKg,
      subscribed: l.subscribedKg,
      price: l.priceFen,
      subscriptionCount: subscriptionsOf.get(l.id) ?? 0,
      listedDateStart: l.listedDateStart.getTime(),
      listedDateEnd: l.listedDateEnd.getTime(),
      remainingMs: next ? Math.max(0, next.getTime() - now.getTime()) : null,
    };
  });
  return { auctions: auctionsOnBoard, listings: listingsOnBoard, serverTime: now.getTime() };
}

/** The staff view of a bidding room: who is behind each alias (竞买人 N), for the trading centre only. */
export async function roomBidders(db: Db, tradeNo: string) {
  const [a] = await db.select({ id: auctions.id, status: auctions.status }).from(auctions).where(eq(auctions.tradeNo, tradeNo)).limit(1);
  if (!a) throw notFound('竞价不存在');
  const rows = await db
    .select({ bidderNo: auctionEnrolments.bidderNo, enterpriseName: enterprises.organName, status: auctionEnrolments.status })
    .from(auctionEnrolments)
    .innerJoin(enterprises, eq(enterprises.id, auctionEnrolments.enterpriseId))
    .where(eq(auctionEnrolments.auctionId, a.id))
    .orderBy(auctionEnrolments.bidderNo);
  return rows.map((r) => ({ bidder: bidderAlias(r.bidderNo), enterpriseName: r.enterpriseName, status: r.status }));
}

