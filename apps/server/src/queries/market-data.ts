import type { MarketData, MarketDataQuery, MarketDay } from '@coalx/shared';
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctions, deals, listings } from '../db/schema/index';
import { shanghaiDate, shanghaiDayStart } from '../lib/shanghai-time';

/**
 * 行情 (public market data): per product, and optionally per delivery province, each Shanghai day's deals as a
 * candle: open the day's first deal price, close its last, high, low, the volume-weighted average (Σ amount / Σ
 * tonnage) and the tonnage. Only recorded listing and auction deals count; the province is the one of the listing
 * or auction the deal came from (by trade number). No enterprise appears.
 */
export async function marketData(db: Db, now: Date, query: MarketDataQuery): Promise<MarketData> {
  const from = shanghaiDayStart(now, -(query.days - 1));
  const to = shanghaiDayStart(now, 1);
  const province = sql<string>`COALESCE(${listings.deliveryProvince}, ${auctions.deliveryProvince})`;
  const spot = inArray(deals.tradeKind, ['listing', 'auction']);
  const fromListingOrAuction = [
    [listings, and(eq(deals.tradeKind, 'listing'), eq(listings.tradeNo, deals.tradeNo))],
    [auctions, and(eq(deals.tradeKind, 'auction'), eq(auctions.tradeNo, deals.tradeNo))],
  ] as const;

  const products = await db
    .select({ stockCode: deals.stockCode, productName: sql<string>`MAX(${deals.productName})`, tonnage: sql<string>`SUM(${deals.quantityKg})::text` })
    .from(deals)
    .where(spot)
    .groupBy(deals.stockCode)
    .orderBy(desc(sql`SUM(${deals.quantityKg})`), asc(deals.stockCode));
  const chosen = products.find((p) => p.stockCode === query.stockCode) ?? (query.stockCode ? null : products[0]);
  const empty = { from: shanghaiDate(from), to: shanghaiDate(to.getTime() - 1), days: [] as MarketDay[] };
  const productList = products.map((p) => ({ stockCode: p.stockCode, productName: p.productName }));
  if (!chosen) return { products: productList, stockCode: query.stockCode ?? '', productName: '', provinces: [], province: query.province ?? null, ...empty };

  const provinceRows = await db
    .select({ province })
    .from(deals)
    .leftJoin(...fromListingOrAuction[0])
    .leftJoin(...fromListingOrAuction[1])
    .where(and(spot, eq(deals.stockCode, chosen.stockCode)))
    .groupBy(province)
    .orderBy(province);
  const rows = await db
    .select({ createdAt: deals.createdAt, priceFen: deals.priceFen, quantityKg: deals.quantityKg, amountFen: deals.amountFen })
    .from(deals)
    .leftJoin(...fromListingOrAuction[0])
    .leftJoin(...fromListingOrAuction[1])
    .where(and(spot, eq(deals.stockCode, chosen.stockCode), gte(deals.createdAt, from), lt(deals.createdAt, to), query.province ? sql`${province} = ${query.province}` : undefined))
    .orderBy(asc(deals.createdAt), asc(deals.id));

  return {
    products: productList,
    stockCode: chosen.stockCode,
    productName: chosen.productName,
    provinces: provinceRows.map((r) => r.province).filter((p): p is string => !!p),
    province: query.province ?? null,
    ...empty,
    days: candles(rows),
  };
}

/** Deals oldest first → one candle per Shanghai day, oldest first. */
export function candles(rows: readonly { createdAt: Date; priceFen: number; quantityKg: number; amountFen: number }[]): MarketDay[] {
  const byDay = new Map<string, typeof rows[number][]>();
  for (const row of rows) {
    const day = shanghaiDate(row.createdAt);
    const list = byDay.get(day) ?? [];
    list.push(row);
    byDay.set(day, list);
  }
  return [...byDay.entries()].map(([date, list]) => {
    const tonnage = list.reduce((sum, r) => sum + BigInt(r.quantityKg), 0n);
    const amount = list.reduce((sum, r) => sum + BigInt(r.amountFen), 0n);
    // fen per ton = amount (fen) × 1000 / tonnage (kg), half up
    const average = tonnage > 0n ? Number((amount * 2000n + tonnage) / (2n * tonnage)) : 0;
    const prices = list.map((r) => r.priceFen);
    return {
      date,
      open: list[0]!.priceFen,
      close: list[list.length - 1]!.priceFen,
      high: Math.max(...prices),
      low: Math.min(...prices),
      average,
      tonnage: Number(tonnage),
      amount: Number(amount),
      dealCount: list.length,
    };
  });
}
