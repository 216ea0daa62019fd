import { amountFen, dealSides, formatDateTime, maskName } from '@coalx/shared';
import { aliasedTable, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { deals, enterprises } from '../../db/schema/index';
import { publish } from '../../lib/events';
import { nextTradeNumber } from '../../lib/trade-number';

export interface NewDealInput {
  tradeKind: 'listing' | 'auction';
  tradeNo: string;
  tradeType: number;
  /** The subscription or the winning bid. */
  sourceId: number;
  publisherEnterpriseId: number;
  counterpartyEnterpriseId: number;
  stockCode: string;
  productName: string;
  quantityKg: number;
  priceFen: number;
  depositFen: number;
}

/**
 * Every deal of both flows is made here, inside the transaction that confirms the subscription or awards the
 * auction: seller and buyer follow the trade type, the amount is price × quantity half up to the fen, and
 * `deal.created` is announced on commit (the contract chain listens to it).
 */
export async function createDeal(tx: Tx, now: Date, input: NewDealInput) {
  const { seller, buyer } = dealSides(input.tradeType, input.publisherEnterpriseId, input.counterpartyEnterpriseId);
  const [deal] = await tx
    .insert(deals)
    .values({
      dealNo: await nextTradeNumber(tx, 'CJ', now),
      tradeKind: input.tradeKind,
      tradeNo: input.tradeNo,
      tradeType: input.tradeType,
      sourceId: input.sourceId,
      sellerEnterpriseId: seller,
      buyerEnterpriseId: buyer,
      stockCode: input.stockCode,
      productName: input.productName,
      quantityKg: input.quantityKg,
      priceFen: input.priceFen,
      amountFen: Number(amountFen(input.priceFen, input.quantityKg)),
      depositFen: input.depositFen,
      createdAt: now,
    })
    .returning();
  await publish(tx, 'deal.created', { dealId: deal!.id, dealNo: deal!.dealNo, tradeKind: input.tradeKind, tradeNo: input.tradeNo });
  return deal!;
}

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

