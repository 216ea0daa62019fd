import { AuctionState, bidderAlias, bidLogGenesis, bidLogHash, bidLogTime, bidPriceProblem, deadlineAfterBid } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionBids, auctionEnrolments, auctions } from '../db/schema/index';
import { appError, notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { auctionPolicy } from '../modules/auction/auction.policy';
import type { Actor } from '../lib/actor';
import { publish } from '../lib/events';


/**
 * One bid, one transaction: lock the auction row, check every rule against the server clock, record the bid, move
 * the best price and the deadline (延时竞价), and announce it on commit. Bids are served strictly one after another
 * per auction, so the accepted sequence only ever improves and equal prices can never both be accepted. The locked
 * row also holds the bid log's head, so each bid's hash (公开出价记录) chains on from it with no extra read.
 */
export async function placeBid(db: Db, clock: Clock, actor: Actor, input: { tradeId: string; price: number }) {
  return db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.tradeNo, input.tradeId)).for('update').limit(1);
    if (!auction || auction.status !== 'approved') throw notFound('竞价不存在或未通过审核');
    auctionPolicy.can(actor, 'participate', auction);
    const now = clock.now();
    if (auction.hangState === AuctionState.ended || now >= auction.currentEnd) throw appError('auction_ended');
    if (now < auction.bidStart) throw appError('auction_not_started');
    const [enrolment] = await tx
      .select()
      .from(auctionEnrolments)
      .where(and(eq(auctionEnrolments.auctionId, auction.id), eq(auctionEnrolments.enterpriseId, actor.enterpriseId!)))
      .limit(1);
    if (!enrolment || enrolment.status !== 'enrolled') throw appError('not_enrolled');
    if (auction.bestEnterpriseId === actor.enterpriseId) throw appError('already_leading');
    const refusal = bidPriceProblem(
      { tradeType: auction.tradeType, startPrice: auction.startPriceFen, bestPrice: auction.bestPriceFen, minStep: auction.minStepFen, maxStep: auction.maxStepFen, limitPrice: auction.limitPriceFen },
      input.price,
    );
    if (refusal) throw appError(refusal.code, refusal.message);

    const seq = auction.bidCount + 1;
    const hash = bidLogHash(auction.bidLogHash ?? bidLogGenesis(auction.tradeNo), auction.tradeNo, { seq, bidder: bidderAlias(enrolment.bidderNo), price: input.price, at: bidLogTime(now) });
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
        hash,
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
        bidLogHash: hash,
        currentEnd,
        hangState: AuctionState.bidding,
        updatedAt: now,
      })
      .where(eq(auctions.id, auction.id));
    await publish(tx, 'auction.bid_accepted', { tradeNo: auction.tradeNo, seq, price: input.price });
    return { seq, price: input.price, currentEnd, bidder: enrolment.bidderNo };
  });
}
