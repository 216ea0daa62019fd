import { bidderAlias, bidLogGenesis, bidLogTime, verifyBidLog, type BidLogVerification } from '@coalx/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionBids, auctions } from '../db/schema/index';

/** One auction's stored chain checked by the public algorithm, against the head the auction row keeps. */
export async function storedBidLogCheck(db: Db, auctionId: number): Promise<BidLogVerification & { tradeId: string; bids: number }> {
  const [auction] = await db.select().from(auctions).where(eq(auctions.id, auctionId));
  const rows = await db.select().from(auctionBids).where(eq(auctionBids.auctionId, auctionId)).orderBy(asc(auctionBids.seq));
  const entries = rows.map((r) => ({ seq: r.seq, bidder: bidderAlias(r.bidderNo), price: r.priceFen, at: bidLogTime(r.createdAt), hash: r.hash }));
  const result = verifyBidLog({ tradeId: auction!.tradeNo, tradeType: auction!.tradeType as 2 | 3, entries, finalHash: auction!.bidLogHash ?? bidLogGenesis(auction!.tradeNo) });
  return { ...result, tradeId: auction!.tradeNo, bids: rows.length };
}

/**
 * Every auction's bid log in the database, checked: the chain of hashes, the numbering, prices that only improve,
 * and the auction's head equal to the last bid's hash. Returns the failures (empty when all hold).
 */
export async function brokenBidLogs(db: Db): Promise<string[]> {
  const all = await db.select({ id: auctions.id }).from(auctions).orderBy(asc(auctions.id));
  const broken: string[] = [];
  for (const { id } of all) {
    const check = await storedBidLogCheck(db, id);
    if (!check.ok) broken.push(`${check.tradeId}: ${check.firstBroken?.reason ?? ''} (index ${check.firstBroken?.index})`);
  }
  return broken;
}
