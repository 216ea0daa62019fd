import { formatPrice } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionBids, auctionEnrolments, auctions } from '../db/schema/index';
import { businessRule, notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { auctionPolicy } from '../modules/auction/auction.policy';
import { deadlineAfterBid } from '../modules/auction/auction.state';
import type { Actor } from '../plugins/authenticate';
import { publishAuctionEvent } from '../plugins/realtime';

type Auction = typeof auctions.$inferSelect;

/** Why a price is not acceptable now, or null. Sale: up from the start price; purchase: down from the base price. */
export function priceRefusal(a: Pick<Auction, 'tradeType' | 'startPriceFen' | 'minStepFen' | 'maxStepFen' | 'limitPriceFen' | 'bestPriceFen'>, price: number): string | null {
  const sale = a.tradeType === 2;
  const best = a.bestPriceFen;
  if (best === null) {
    if (sale && price < a.startPriceFen) return `首次出价须不低于起拍价 (${formatPrice(a.startPriceFen)})`;
    if (!sale && price > a.startPriceFen) return `首次出价须不高于基价 (${formatPrice(a.startPriceFen)})`;
    if (a.maxStepFen !== null && Math.abs(price - a.startPriceFen) > a.maxStepFen) {
      return sale ? `出价不能高于起拍价加最大加价幅度 (${formatPrice(a.startPriceFen + a.maxStepFen)})` : `出价不能低于基价减最大降价幅度 (${formatPrice(a.startPriceFen - a.maxStepFen)})`;
    }
  } else if (sale) {
    if (price < best + a.minStepFen) return `出价须不低于当前价加最小加价幅度 (${formatPrice(best + a.minStepFen)})`;
    if (a.maxStepFen !== null && price > best + a.maxStepFen) return `出价不能高于当前价加最大加价幅度 (${formatPrice(best + a.maxStepFen)})`;
  } else {
    if (price > best - a.minStepFen) return `出价须不高于当前价减最小降价幅度 (${formatPrice(best - a.minStepFen)})`;
    if (a.maxStepFen !== null && price < best - a.maxStepFen) return `出价不能低于当前价减最大降价幅度 (${formatPrice(best - a.maxStepFen)})`;
  }
  if (a.limitPriceFen !== null && sale && price > a.limitPriceFen) return `出价不能高于出价上限 (${formatPrice(a.limitPriceFen)})`;
  if (a.limitPriceFen !== null && !sale && price < a.limitPriceFen) return `出价不能低于出价下限 (${formatPrice(a.limitPriceFen)})`;
  if (price <= 0) return '出价须大于 0';
  return null;
}

/**
 * One bid, one transaction: lock the auction row, check every rule against the server clock, record the bid, move
 * the best price and the deadline (延时竞价), and announce it on commit. Bids are served strictly one after another
 * per auction, so the accepted sequence only ever improves and equal prices can never both be accepted.
 */
export async function placeBid(db: Db, clock: Clock, actor: Actor, input: { tradeId: string; price: number }) {
  return db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.tradeNo, input.tradeId)).for('update').limit(1);
    if (!auction || auction.status !== 'approved') throw notFound('竞价不存在或未通过审核');
    auctionPolicy.participate(actor, auction);
    const now = clock.now();
    if (auction.hangState === 3 || now >= auction.currentEnd) throw businessRule('竞价已结束');
    if (now < auction.bidStart) throw businessRule('竞价尚未开始');
    const [enrolment] = await tx
      .select()
      .from(auctionEnrolments)
      .where(and(eq(auctionEnrolments.auctionId, auction.id), eq(auctionEnrolments.enterpriseId, actor.enterpriseId!)))
      .limit(1);
    if (!enrolment || enrolment.status !== 'enrolled') throw businessRule('本企业未报名或保证金未冻结，不能出价');
    if (auction.bestEnterpriseId === actor.enterpriseId) throw businessRule('您当前已是最优出价，无需重复出价');
    const refusal = priceRefusal(auction, input.price);
    if (refusal) throw businessRule(refusal);

    const seq = auction.bidCount + 1;
    const [bid] = await tx
      .insert(auctionBids)
      .values({
        auctionId: auction.id,
        enterpriseId: actor.enterpriseId!,
        userId: actor.userId,
        bidderNo: enrolment.bidderNo,
        seq,
        priceFen: input.price,
        inExtension: now >= auction.bidEnd ? 1 : 0,
        createdAt: now,
      })
      .returning();
    const currentEnd = deadlineAfterBid(auction, now);
    await tx
      .update(auctions)
      .set({
        bestPriceFen: input.price,
        bestBidId: bid!.id,
        bestEnterpriseId: actor.enterpriseId!,
        bidCount: sql`${auctions.bidCount} + 1`,
        currentEnd,
        hangState: 2,
        updatedAt: now,
      })
      .where(eq(auctions.id, auction.id));
    await publishAuctionEvent(tx, 'bid', auction.tradeNo);
    return { seq, price: input.price, currentEnd, bidder: enrolment.bidderNo };
  });
}
