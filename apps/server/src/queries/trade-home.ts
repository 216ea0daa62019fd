import { AuctionState, formatDateTime, HangState, isAuction, isListing, maskName, TradeProgress, TradeType } from '@coalx/shared';
import { aliasedTable, and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { auctions, deals, enterprises, listings, recommendations } from '../db/schema/index';
import { notFound } from '../errors';
import { publish } from '../lib/events';
import { shanghaiDayStart } from '../lib/shanghai-time';
import { sqlLiteral as n } from '../lib/sql-literal';
import { auctionStateAt } from '../modules/auction/auction.state';
import { hangStateAt } from '../modules/listing/listing.state';

/**
 * The home page's recommended trades: listings and auctions the trading centre marked, one list. The quick
 * filters (spec §2) ask for trades starting within `preDayNum` days of today (0: today), types as a comma list, and
 * the hang_state_total_select state: 0 not started (enrolment / waiting), 1 under way, 2 ended.
 */
export interface RecommendQuery {
  pageNo: number;
  pageSize: number;
  tradeId?: string;
  preDayNum?: number;
  tradeType?: string;
  hangState?: number | string;
  productName?: string;
  stockCode?: string;
  category?: string;
}

export async function recommendedTrades(db: Db, now: Date, q: RecommendQuery) {
  const types = q.tradeType ? q.tradeType.split(',').map(Number) : Object.values(TradeType);
  const states = q.hangState === undefined || q.hangState === '' ? null : String(q.hangState).split(',').map(Number);
  const windowStart = q.preDayNum !== undefined ? shanghaiDayStart(now, -q.preDayNum) : null;
  const windowEnd = q.preDayNum !== undefined ? shanghaiDayStart(now, q.preDayNum + 1) : null;
  const like = (column: AnyPgColumn, text: string) => sql`${column} ILIKE ${'%' + text.replace(/[%_\\]/g, '\\$&') + '%'}`;

  const listingState = hangStateAt(now);
  // hang_state_total_select: a listing not started is upcoming, an open one ongoing
  const listingTotal = sql<number>`(CASE ${listingState} WHEN ${n(HangState.notStarted)} THEN ${n(TradeProgress.upcoming)} WHEN ${n(HangState.open)} THEN ${n(TradeProgress.ongoing)} ELSE ${n(TradeProgress.ended)} END)`;
  const listingRows = types.some(isListing)
    ? await db
        .select({ l: listings, enterpriseName: enterprises.organName, state: listingState, sort: recommendations.sort })
        .from(recommendations)
        .innerJoin(listings, eq(listings.tradeNo, recommendations.tradeNo))
        .innerJoin(enterprises, eq(enterprises.id, listings.enterpriseId))
        .where(
          and(
            eq(listings.status, 'approved'),
            sql`${listingState} IN (${n(HangState.open)}, ${n(HangState.ended)})`, // not-started listings are not shown publicly (spec §4)
            inArray(listings.tradeType, types),
            states ? sql`${listingTotal} IN (${sql.join(states.map((s) => sql`${s}`), sql`, `)})` : undefined,
            windowStart ? sql`${listings.listedDateStart} >= ${windowStart} AND ${listings.listedDateStart} < ${windowEnd}` : undefined,
            q.tradeId ? eq(listings.tradeNo, q.tradeId) : undefined,
            q.productName ? like(listings.productName, q.productName) : undefined,
            q.stockCode ? eq(listings.stockCode, q.stockCode) : undefined,
            q.category ? eq(listings.category, q.category) : undefined,
          ),
        )
    : [];
  const auctionState = auctionStateAt(now);
  // an auction is upcoming while enrolling or waiting, ongoing while bidding or paused by the trading centre
  const auctionTotal = sql<number>`(CASE WHEN ${auctionState} IN (${n(AuctionState.enrolling)}, ${n(AuctionState.waiting)}) THEN ${n(TradeProgress.upcoming)} WHEN ${auctionState} IN (${n(AuctionState.bidding)}, ${n(AuctionState.paused)}) THEN ${n(TradeProgress.ongoing)} ELSE ${n(TradeProgress.ended)} END)`;
  const auctionRows = types.some(isAuction)
    ? await db
        .select({ a: auctions, enterpriseName: enterprises.organName, state: auctionState, sort: recommendations.sort })
        .from(recommendations)
        .innerJoin(auctions, eq(auctions.tradeNo, recommendations.tradeNo))
        .innerJoin(enterprises, eq(enterprises.id, auctions.enterpriseId))
        .where(
          and(
            eq(auctions.status, 'approved'),
            inArray(auctions.tradeType, types),
            states ? sql`${auctionTotal} IN (${sql.join(states.map((s) => sql`${s}`), sql`, `)})` : undefined,
            windowStart ? sql`${auctions.bidStart} >= ${windowStart} AND ${auctions.bidStart} < ${windowEnd}` : undefined,
            q.tradeId ? eq(auctions.tradeNo, q.tradeId) : undefined,
            q.productName ? like(auctions.productName, q.productName) : undefined,
            q.stockCode ? eq(auctions.stockCode, q.stockCode) : undefined,
            q.category ? eq(auctions.category, q.category) : undefined,
          ),
        )
    : [];

  const all = [
    ...listingRows.map(({ l, enterpriseName, state, sort }) => ({
      sort,
      live: Number(state) === 1,
      startsAt: l.listedDateStart.getTime(),
      record: {
        tradeId: l.tradeNo,
        tradeType: l.tradeType,
        stockCode: l.stockCode,
        productName: l.productName,
        category: l.category,
        enterpriseName,
        hangState: Number(state),
        price: l.priceFen,
        startPrice: null,
        bestPrice: null,
        quantity: l.quantityKg,
        listedDateStart: formatDateTime(l.listedDateStart),
        listedDateEnd: formatDateTime(l.listedDateEnd),
        bidDateStart: null,
        bidDateEnd: null,
        auditTime: l.auditTime ? formatDateTime(l.auditTime) : null,
        deliveryProvince: l.deliveryProvince,
        deliveryCity: l.deliveryCity,
        deliveryDistrict: l.deliveryDistrict,
        deliveryPlace: l.deliveryPlace,
        deliveryDateStart: l.deliveryDateStart,
        deliveryDateEnd: l.deliveryDateEnd,
      },
    })),
    ...auctionRows.map(({ a, enterpriseName, state, sort }) => ({
      sort,
      live: Number(state) === 2,
      startsAt: a.bidStart.getTime(),
      record: {
        tradeId: a.tradeNo,
        tradeType: a.tradeType,
        stockCode: a.stockCode,
        productName: a.productName,
        category: a.category,
        enterpriseName,
        hangState: Number(state),
        price: a.bestPriceFen ?? a.startPriceFen,
        startPrice: a.startPriceFen,
        bestPrice: a.bestPriceFen,
        quantity: a.quantityKg,
        listedDateStart: null,
        listedDateEnd: null,
        bidDateStart: formatDateTime(a.bidStart),
        bidDateEnd: formatDateTime(a.currentEnd),
        auditTime: a.auditTime ? formatDateTime(a.auditTime) : null,
        deliveryProvince: a.deliveryProvince,
        deliveryCity: a.deliveryCity,
        deliveryDistrict: a.deliveryDistrict,
        deliveryPlace: a.deliveryPlace,
        deliveryDateStart: a.deliveryDateStart,
        deliveryDateEnd: a.deliveryDateEnd,
      },
    })),
  ];
  // live trades first, then the centre's own order, then the newest
  all.sort((x, y) => Number(y.live) - Number(x.live) || x.sort - y.sort || y.startsAt - x.startsAt);
  const start = (q.pageNo - 1) * q.pageSize;
  return { records: all.slice(start, start + q.pageSize).map((x) => x.record), total: all.length, current: q.pageNo, size: q.pageSize };
}

/** The trading centre marks or unmarks a listing or an auction as recommended. */
export async function markRecommended(db: Db, userId: number, tradeNo: string, recommended: boolean) {
  const kind = tradeNo.startsWith('GP') ? 'listing' : tradeNo.startsWith('JJ') ? 'auction' : null;
  const table = kind === 'listing' ? listings : auctions;
  const [trade] = kind ? await db.select({ id: table.id }).from(table).where(eq(table.tradeNo, tradeNo)).limit(1) : [];
  if (!kind || !trade) throw notFound('交易不存在');
  if (recommended) await db.insert(recommendations).values({ tradeKind: kind, tradeNo, createdBy: userId }).onConflictDoNothing();
  else await db.delete(recommendations).where(eq(recommendations.tradeNo, tradeNo));
  await publish(db, 'home.recommendations_changed', {});
}

/** Every trade number the centre recommends, whatever its state (the operator's switches read it). */
export async function recommendedTradeIds(db: Db): Promise<string[]> {
  const rows = await db.select({ tradeNo: recommendations.tradeNo }).from(recommendations).orderBy(recommendations.sort);
  return rows.map((r) => r.tradeNo);
}

const seller = aliasedTable(enterprises, 'seller');
const buyer = aliasedTable(enterprises, 'buyer');

/** Latest deals of the market (成交汇总), counterparties partly masked. */
export async function tradeSummary(db: Db, q: { pageNo: number; pageSize: number }) {
  // the market's deals: a long-term call-off executes a bilateral framework, it is not a market deal
  const market = inArray(deals.tradeKind, ['listing', 'auction']);
  const [{ total } = { total: 0 }] = await db.select({ total: sql<number>`COUNT(*)::int` }).from(deals).where(market);
  const rows = await db
    .select({ deal: deals, sellerName: seller.organName, buyerName: buyer.organName })
    .from(deals)
    .innerJoin(seller, eq(seller.id, deals.sellerEnterpriseId))
    .innerJoin(buyer, eq(buyer.id, deals.buyerEnterpriseId))
    .where(market)
    .orderBy(desc(deals.createdAt), desc(deals.id))
    .limit(q.pageSize)
    .offset((q.pageNo - 1) * q.pageSize);
  return {
    records: rows.map((r) => ({
      dealNo: r.deal.dealNo,
      tradeId: r.deal.tradeNo,
      tradeType: r.deal.tradeType,
      productName: r.deal.productName,
      sellerName: maskName(r.sellerName),
      buyerName: maskName(r.buyerName),
      quantity: r.deal.quantityKg,
      price: r.deal.priceFen,
      amount: r.deal.amountFen,
      createdAt: formatDateTime(r.deal.createdAt),
    })),
    total: Number(total),
    current: q.pageNo,
    size: q.pageSize,
  };
}
