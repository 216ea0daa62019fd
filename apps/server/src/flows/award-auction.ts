import { AuctionMarketStates, AuctionState, EnrolmentStates } from '@coalx/shared';
import { and, eq, lte, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionEnrolments, auctions } from '../db/schema/index';
import { transition } from '../lib/transition';
import { createDeal } from '../modules/deal/deal.service';
import { moveAuctionsOnTime } from '../modules/auction/auction.state';
import { convertToPerformanceDeposit, releaseTradeDeposit } from '../modules/funds/trade-deposits.service';

/**
 * Ends one auction whose deadline has passed, in one transaction: the best bid wins (a deal; its deposit becomes
 * the performance deposit) and every other deposit is released; with no bid it is 流拍 and all are released.
 * Re-checks under the row lock, so running it on several processes or twice ends the auction once.
 */
export async function awardAuction(db: Db, now: Date, auctionId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [a] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for('update').limit(1);
    // a paused auction waits for its resume, a cancelled one has no result (flows/operate-auction.ts)
    if (!a || a.status !== 'approved' || a.hangState >= AuctionState.ended || now < a.currentEnd) return false;
    const enrolments = await tx.select().from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, a.id));
    const won = a.bestEnterpriseId !== null && a.bestPriceFen !== null;
    for (const e of enrolments) {
      const winner = won && e.enterpriseId === a.bestEnterpriseId;
      if (e.depositId) {
        if (winner) await convertToPerformanceDeposit(tx, e.depositId);
        else await releaseTradeDeposit(tx, e.depositId);
      }
      await transition(tx, EnrolmentStates, winner ? 'win' : 'release', { table: auctionEnrolments, where: eq(auctionEnrolments.id, e.id) });
    }
    if (won) {
      const winnerDeposit = enrolments.find((e) => e.enterpriseId === a.bestEnterpriseId);
      await createDeal(tx, now, {
        tradeKind: 'auction',
        tradeNo: a.tradeNo,
        tradeType: a.tradeType,
        sourceId: a.bestBidId!,
        publisherEnterpriseId: a.enterpriseId,
        counterpartyEnterpriseId: a.bestEnterpriseId!,
        stockCode: a.stockCode,
        productName: a.productName,
        quantityKg: a.quantityKg,
        priceFen: a.bestPriceFen!,
        depositFen: winnerDeposit?.depositId ? a.depositFen : 0,
      });
    }
    const result = won ? 'deal' : 'failed';
    await transition(tx, AuctionMarketStates, 'end', {
      table: auctions,
      where: eq(auctions.id, a.id),
      set: { result, endedAt: now, updatedAt: now },
      announce: (row) => ({ tradeNo: row.tradeNo, result }),
    });
    return true;
  });
}

/**
 * Scheduled: moves states enrolling → waiting → bidding on time (auction.enrolment_closed, auction.bidding_started)
 * and ends every auction whose deadline passed (auction.ended).
 */
export async function runAuctionSchedule(db: Db, now: Date) {
  await db.transaction((tx) => moveAuctionsOnTime(tx, now));
  const due = await db
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(eq(auctions.status, 'approved'), lt(auctions.hangState, AuctionState.ended), lte(auctions.currentEnd, now))); // not paused (4) nor cancelled (5)
  for (const { id } of due) await awardAuction(db, now, id);
}
