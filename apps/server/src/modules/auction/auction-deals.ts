import type { Db } from '../../db/client';
import type { Actor } from '../../lib/actor';
import { dealsOfEnterprise } from '../deal/deal.service';
import { auctionPolicy } from './auction.policy';

/** My enterprise's auction deals, on either side. */
export async function myAuctionDeals(db: Db, actor: Actor, query: { pageNo: number; pageSize: number; tradeId?: string }) {
  auctionPolicy.can(actor, 'publish');
  return dealsOfEnterprise(db, 'auction', actor.enterpriseId!, query);
}
