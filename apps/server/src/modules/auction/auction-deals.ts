import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deals } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { pageOfDeals } from '../deal/deal.service';
import { auctionPolicy } from './auction.policy';

/** My enterprise's auction deals, on either side. */
export async function myAuctionDeals(db: Db, actor: Actor, query: { pageNo: number; pageSize: number; tradeId?: string }) {
  auctionPolicy.can(actor, 'publish');
  const me = actor.enterpriseId!;
  const where = and(eq(deals.tradeKind, 'auction'), or(eq(deals.sellerEnterpriseId, me), eq(deals.buyerEnterpriseId, me)), query.tradeId ? eq(deals.tradeNo, query.tradeId) : undefined);
  return pageOfDeals(db, where, query.pageNo, query.pageSize, false);
}
