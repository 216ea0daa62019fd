import type { MarketData } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, deals, listings } from '../db/schema/index';
import { shanghaiDayStart } from '../lib/shanghai-time';
import { auctionInput } from '../modules/auction/auction.test-helpers';
import { fundedEnterprise } from '../modules/funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../modules/listing/listing.test-helpers';
import { createTestApp, testDatabaseKinds, type TestApp } from '../test/test-app';

describe.each(testDatabaseKinds())('行情 (daily candles from recorded deals) on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
  });
  afterAll(async () => t?.close());

  const daily = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/trade-api/api/tradeHome/market/daily?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return { data: response.json().result as MarketData, body: response.body };
  };

  it('a day\'s candle is the VWAP, high, low, first and last of its deals, per province, with no enterprise names', async () => {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const buyer = await fundedEnterprise(t.app, t.database.db);
    const now = t.clock.now();
    expect((await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, now))).statusCode).toBe(200);
    expect((await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, now))).statusCode).toBe(200);
    const [listing] = await t.database.db.select().from(listings).where(eq(listings.stockCode, stockCode));
    const [auction] = await t.database.db.select().from(auctions).where(eq(auctions.stockCode, stockCode));
    expect(listing!.deliveryProvince).not.toBe(auction!.deliveryProvince);

    const yesterday = shanghaiDayStart(now, -1).getTime();
    const today = shanghaiDayStart(now).getTime();
    // [day start, minutes into the day, kind, price fen/t, tons]; inserted out of time order on purpose
    const rows: [number, number, 'listing' | 'auction', number, number][] = [
      [yesterday, 600, 'listing', 80_500, 300],
      [yesterday, 30, 'listing', 79_800, 1_000], // the day's first
      [yesterday, 900, 'auction', 81_900, 250], // the day's last and highest
      [yesterday, 300, 'auction', 79_200, 500], // lowest
      [today, 60, 'listing', 80_000, 2_000],
      [today, 1, 'auction', 80_150, 1_234.5],
    ];
    let n = 0;
    for (const [day, minutes, tradeKind, price, tons] of rows) {
      n++;
      const kg = Math.round(tons * 1000);
      await t.database.db.insert(deals).values({
        dealNo: `CJMD${kind}${n}`, tradeKind, tradeNo: tradeKind === 'listing' ? listing!.tradeNo : auction!.tradeNo, tradeType: tradeKind === 'listing' ? 0 : 2,
        sourceId: 800_000 + n, sellerEnterpriseId: seller.enterprise.id, buyerEnterpriseId: buyer.enterprise.id, stockCode, productName: '动力煤 5500',
        quantityKg: kg, priceFen: price, amountFen: Math.round((price * kg) / 1000), depositFen: 0, createdAt: new Date(day + minutes * 60_000),
      });
    }

    // the expected figures, from the deal rows themselves
    const all = await t.database.db.select().from(deals).where(eq(deals.stockCode, stockCode));
    const expectDay = (dayStart: number, subset: typeof all) => {
      const of = subset.filter((d) => d.createdAt.getTime() >= dayStart && d.createdAt.getTime() < dayStart + 86400_000).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      const amount = of.reduce((s, d) => s + d.amountFen, 0);
      const tonnage = of.reduce((s, d) => s + d.quantityKg, 0);
      return {
        open: of[0]!.priceFen,
        close: of[of.length - 1]!.priceFen,
        high: Math.max(...of.map((d) => d.priceFen)),
        low: Math.min(...of.map((d) => d.priceFen)),
        average: Math.round((amount * 1000) / tonnage),
        tonnage,
        amount,
        dealCount: of.length,
      };
    };

    const { data, body } = await daily(`stockCode=${encodeURIComponent(stockCode)}&days=7`);
    expect(data.stockCode).toBe(stockCode);
    expect(data.provinces.sort()).toEqual([listing!.deliveryProvince, auction!.deliveryProvince].sort());
    expect(data.days).toHaveLength(2);
    expect(data.days[0]).toMatchObject(expectDay(yesterday, all));
    expect(data.days[0]).toMatchObject({ open: 79_800, close: 81_900, high: 81_900, low: 79_200, tonnage: 2_050_000 });
    expect(data.days[1]).toMatchObject(expectDay(today, all));
    expect(body).not.toContain(seller.enterprise.organName);
    expect(body).not.toContain(buyer.enterprise.organName);

    // one province: only the deals of the auction's delivery province
    const auctionDeals = all.filter((d) => d.tradeKind === 'auction');
    const byProvince = (await daily(`stockCode=${encodeURIComponent(stockCode)}&days=7&province=${encodeURIComponent(auction!.deliveryProvince)}`)).data;
    expect(byProvince.days).toHaveLength(2);
    expect(byProvince.days[0]).toMatchObject(expectDay(yesterday, auctionDeals));
    expect(byProvince.days[1]).toMatchObject({ ...expectDay(today, auctionDeals), open: 80_150, close: 80_150, dealCount: 1 });

    // a one-day window holds today only
    expect((await daily(`stockCode=${encodeURIComponent(stockCode)}&days=1`)).data.days.map((d) => d.dealCount)).toEqual([2]);
  });

  it('refuses a bad window in Chinese; an unknown product has no days', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/trade-api/api/tradeHome/market/daily?days=0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('天数');
    expect((await daily('stockCode=NOPE')).data).toMatchObject({ days: [], provinces: [] });
  });
});
