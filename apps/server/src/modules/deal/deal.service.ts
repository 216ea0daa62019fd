import { formatDateTime, maskName } from '@coalx/shared';
import { aliasedTable, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deals, enterprises } from '../../db/schema/index';

/** Deals of listings and auctions alike, as both sides and the public notices show them. */
const seller = aliasedTable(enterprises, 'seller');
const buyer = aliasedTable(enterprises, 'buyer');

export function presentDeal(r: { deal: typeof deals.$inferSelect; sellerName: string; buyerName: string }, mask: boolean) {
  return {
    id: r.deal.id,
    dealNo: r.deal.dealNo,
    tradeId: r.deal.tradeNo,
    tradeType: r.deal.tradeType,
    stockCode: r.deal.stockCode,
    productName: r.deal.productName,
    sellerName: mask ? maskName(r.sellerName) : r.sellerName,
    buyerName: mask ? maskName(r.buyerName) : r.buyerName,
    quantity: r.deal.quantityKg,
    price: r.deal.priceFen,
    amount: r.deal.amountFen,
    deposit: r.deal.depositFen,
    createdAt: formatDateTime(r.deal.createdAt),
  };
}

export async function pageOfDeals(db: Db, where: SQL | undefined, pageNo: number, pageSize: number, mask: boolean) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(deals).where(where);
  const rows = await db
    .select({ deal: deals, sellerName: seller.organName, buyerName: buyer.organName })
    .from(deals)
    .innerJoin(seller, eq(seller.id, deals.sellerEnterpriseId))
    .innerJoin(buyer, eq(buyer.id, deals.buyerEnterpriseId))
    .where(where)
    .orderBy(desc(deals.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  return { records: rows.map((r) => presentDeal(r, mask)), total, current: pageNo, size: pageSize };
}

