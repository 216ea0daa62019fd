import { aliasedTable, and, count, desc, eq, or } from 'drizzle-orm';
import { formatDateTime } from '@coalx/shared';
import type { Db } from '../../db/client';
import { deals, enterprises } from '../../db/schema/index';
import type { Actor } from '../../plugins/authenticate';
import { auctionPolicy } from './auction.policy';

const seller = aliasedTable(enterprises, 'seller');
const buyer = aliasedTable(enterprises, 'buyer');

/** My enterprise's auction deals, on either side. */
export async function myAuctionDeals(db: Db, actor: Actor, query: { pageNo: number; pageSize: number; tradeId?: string }) {
  auctionPolicy.publish(actor);
  const me = actor.enterpriseId!;
  const where = and(eq(deals.tradeKind, 'auction'), or(eq(deals.sellerEnterpriseId, me), eq(deals.buyerEnterpriseId, me)), query.tradeId ? eq(deals.tradeNo, query.tradeId) : undefined);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(deals).where(where);
  const rows = await db
    .select({ deal: deals, sellerName: seller.organName, buyerName: buyer.organName })
    .from(deals)
    .innerJoin(seller, eq(seller.id, deals.sellerEnterpriseId))
    .innerJoin(buyer, eq(buyer.id, deals.buyerEnterpriseId))
    .where(where)
    .orderBy(desc(deals.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return {
    records: rows.map((r) => ({
      id: r.deal.id,
      dealNo: r.deal.dealNo,
      tradeId: r.deal.tradeNo,
      tradeType: r.deal.tradeType,
      stockCode: r.deal.stockCode,
      productName: r.deal.productName,
      sellerName: r.sellerName,
      buyerName: r.buyerName,
      quantity: r.deal.quantityKg,
      price: r.deal.priceFen,
      amount: r.deal.amountFen,
      deposit: r.deal.depositFen,
      createdAt: formatDateTime(r.deal.createdAt),
    })),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}
