import { amountFen, dealSides, formatDateTime, maskName } from '@coalx/shared';
import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { deals } from '../../db/schema/index';
import { publish } from '../../lib/events';
import { enterpriseNames } from '../enterprise/enterprise.service';
import { nextTradeNumber } from '../../lib/trade-number';

export interface NewDealInput {
  /** long_term: a long-term deal's monthly call-off (tradeNo is the CX number, sourceId the call-off) */
  tradeKind: 'listing' | 'auction' | 'long_term';
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

/** One deal by its id; null when unknown. */
export async function findDeal(db: Db | Tx, dealId: number) {
  const [row] = await db.select().from(deals).where(eq(deals.id, dealId)).limit(1);
  return row ?? null;
}

/** Subscription id → the id of the deal it became (listing deals only; a subscription without a deal is absent). */
export async function dealIdsBySubscription(db: Db | Tx, subscriptionIds: readonly number[]): Promise<Map<number, number>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: deals.id, sourceId: deals.sourceId })
    .from(deals)
    .where(and(eq(deals.tradeKind, 'listing'), inArray(deals.sourceId, [...new Set(subscriptionIds)])));
  return new Map(rows.map((r) => [r.sourceId, r.id]));
}

/** Deals of listings and auctions alike, as both sides and the public notices show them. */
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
    .select()
    .from(deals)
    .where(where)
    .orderBy(desc(deals.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const names = await enterpriseNames(db, rows.flatMap((deal) => [deal.sellerEnterpriseId, deal.buyerEnterpriseId]));
  const records = rows.map((deal) =>
    presentDeal({ deal, sellerName: names.get(deal.sellerEnterpriseId) ?? '', buyerName: names.get(deal.buyerEnterpriseId) ?? '' }, mask),
  );
  return { records, total, current: pageNo, size: pageSize };
}

type DealQuery = { pageNo: number; pageSize: number; tradeId?: string };

/** An enterprise's deals of one kind, on either side (its own view: names not masked). */
export function dealsOfEnterprise(db: Db, tradeKind: 'listing' | 'auction', enterpriseId: number, query: DealQuery) {
  const where = and(
    eq(deals.tradeKind, tradeKind),
    or(eq(deals.sellerEnterpriseId, enterpriseId), eq(deals.buyerEnterpriseId, enterpriseId)),
    query.tradeId ? eq(deals.tradeNo, query.tradeId) : undefined,
  );
  return pageOfDeals(db, where, query.pageNo, query.pageSize, false);
}

/** A trade's deals for its public result notice (counterparties masked) and their totals. */
export async function tradeResult(db: Db, tradeKind: 'listing' | 'auction', tradeNo: string, query: { pageNo: number; pageSize: number }) {
  const where = and(eq(deals.tradeKind, tradeKind), eq(deals.tradeNo, tradeNo));
  const page = await pageOfDeals(db, where, query.pageNo, query.pageSize, true);
  const [totals] = await db
    .select({ quantity: sql<string>`COALESCE(SUM(${deals.quantityKg}), 0)::text`, amount: sql<string>`COALESCE(SUM(${deals.amountFen}), 0)::text` })
    .from(deals)
    .where(where);
  return { page, quantityKg: Number(totals?.quantity ?? 0), amountFen: Number(totals?.amount ?? 0) };
}

/** Deals by id (any order; unknown ids are absent). */
export async function dealsByIds(db: Db | Tx, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return db.select().from(deals).where(inArray(deals.id, unique));
}

/** Every spot deal (listing, auction) of one product made in [from, to), oldest first (the index's sample). */
export async function spotDealsBetween(db: Db | Tx, stockCode: string, from: Date, to: Date) {
  return db
    .select()
    .from(deals)
    .where(and(eq(deals.stockCode, stockCode), inArray(deals.tradeKind, ['listing', 'auction']), gte(deals.createdAt, from), lt(deals.createdAt, to)))
    .orderBy(deals.createdAt, deals.id);
}

/** Spot deals (listing, auction) of one product made in [from, to): how many, their tonnage and Σ price × kg (for weighted averages). */
export async function dealVolume(db: Db, stockCode: string, from: Date, to: Date) {
  const [row] = await db
    .select({
      count: sql<number>`COUNT(*)::int`,
      tonnage: sql<string>`COALESCE(SUM(${deals.quantityKg}), 0)::text`,
      weighted: sql<string>`COALESCE(SUM(${deals.priceFen}::numeric * ${deals.quantityKg}), 0)::text`,
    })
    .from(deals)
    // call-offs are priced from the index itself: counting them would feed the index its own output
    .where(and(eq(deals.stockCode, stockCode), inArray(deals.tradeKind, ['listing', 'auction']), gte(deals.createdAt, from), lt(deals.createdAt, to)));
  return { count: Number(row?.count ?? 0), tonnageKg: BigInt(row?.tonnage ?? '0'), weightedFenKg: BigInt((row?.weighted ?? '0').split('.')[0]!) };
}
