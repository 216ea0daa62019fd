import type { IndexTermSamples } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deals, marketIndex, marketIndexSamples } from '../../db/schema/index';
import { createEnterprise, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { chooseSamples, EXCLUSION_REASONS, medianOf, weightedPrice, type CandidateDeal } from './index-samples';
import { INDEX_STOCK_CODE, isoWeekStart, maskDealNo } from './market-index.service';

const deal = (dealId: number, priceFen: number, tons: number, seller = 1, buyer = 2): CandidateDeal => ({ dealId, priceFen, quantityKg: tons * 1000, sellerEnterpriseId: seller, buyerEnterpriseId: buyer });

describe('index samples (the method\'s rules)', () => {
  it('leaves out cancelled deals, self-dealing and prices more than 20 % from the median, each with its reason', () => {
    const legal = new Map([[1, '张三'], [2, '李四'], [3, '张三'], [4, '王五']]);
    const chosen = chooseSamples(
      [deal(1, 80_000, 100), deal(2, 81_000, 50), deal(3, 79_000, 200, 1, 3), deal(4, 82_000, 80), deal(5, 100_000, 10, 4, 2), deal(6, 60_000, 10, 2, 4), deal(7, 96_000, 30, 2, 2)],
      new Set([4]),
      legal,
    );
    const reasons = Object.fromEntries(chosen.map((c) => [c.dealId, c.exclusionReason]));
    // median of the deals left after the first two rules: 80 000, 81 000, 100 000, 60 000 → 80 500
    expect(medianOf([80_000, 81_000, 100_000, 60_000])).toBe(80_500);
    expect(reasons).toEqual({
      1: null,
      2: null,
      3: EXCLUSION_REASONS.selfDealing, // one legal person on both sides
      4: EXCLUSION_REASONS.cancelled,
      5: EXCLUSION_REASONS.deviation, // 100 000 is 24 % above 80 500
      6: EXCLUSION_REASONS.deviation, // 60 000 is 25 % below
      7: EXCLUSION_REASONS.selfDealing, // one enterprise on both sides
    });
    // (80 000 × 100 + 81 000 × 50) / 150 = 80 333.33… → 80 333
    expect(weightedPrice(chosen)).toBe(80_333);
  });

  it('a price exactly 20 % away is kept; no deals, no price', () => {
    const chosen = chooseSamples([deal(1, 100_000, 1), deal(2, 100_000, 1), deal(3, 120_000, 1)], new Set(), new Map());
    expect(chosen.every((c) => c.included)).toBe(true);
    expect(weightedPrice([])).toBeNull();
    expect(maskDealNo('CJ202611230012')).toBe('CJ20261123**12');
  });
});

describe.each(testDatabaseKinds())('publishing an index stores its samples on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/trade-api/api/commoditymarketindex/commodityMarketIndex${url}`, headers: token ? { 'x-access-token': token } : {}, payload });

  it('the published price is the tonnage-weighted average of the included samples; the method page shows them masked', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const [a, b, c] = [await createEnterprise(t.database.db, { legalPerson: '赵一' }), await createEnterprise(t.database.db, { legalPerson: '钱二' }), await createEnterprise(t.database.db, { legalPerson: '赵一' })];
    const year = 2031;
    const term = 10;
    const monday = isoWeekStart(year, term).getTime();
    const rows = [
      { price: 81_250, tons: 1_000, seller: a.id, buyer: b.id, day: 0 },
      { price: 80_000, tons: 3_000, seller: b.id, buyer: a.id, day: 2 },
      { price: 79_900, tons: 1_500, seller: a.id, buyer: c.id, day: 3 }, // same legal person: out
      { price: 99_000, tons: 500, seller: b.id, buyer: c.id, day: 4 }, // > 20 % above the median: out
      { price: 50_000, tons: 500, seller: b.id, buyer: a.id, day: 9 }, // next week: not in this term at all
    ];
    let n = 0;
    for (const r of rows) {
      n++;
      await t.database.db.insert(deals).values({
        dealNo: `CJ203103${String(n).padStart(6, '0')}`, tradeKind: n % 2 ? 'listing' : 'auction', tradeNo: `GP2031${n}`, tradeType: 0, sourceId: 900_000 + n,
        sellerEnterpriseId: r.seller, buyerEnterpriseId: r.buyer, stockCode: INDEX_STOCK_CODE, productName: '动力煤5500',
        quantityKg: r.tons * 1000, priceFen: r.price, amountFen: (r.price * r.tons), depositFen: 0, createdAt: new Date(monday + r.day * 86400_000 + 3 * 3600_000),
      });
    }
    const proposal = (await call('GET', `/proposal?year=${year}&term=${term}`, operator.token)).json().result;
    // computed here from the rows: (81 250 × 1 000 + 80 000 × 3 000) / 4 000 = 80 312.5 → 80 313 (half up)
    const expected = Math.round((81_250 * 1_000 + 80_000 * 3_000) / 4_000);
    expect(proposal).toMatchObject({ price: expected, dealCount: 2, dealTonnage: 4_000_000 });
    expect(proposal.samples).toBeUndefined();

    const wrong = await call('POST', '/publish', operator.token, { currentYear: year, currentTerm: term, quoteDate: '2031-03-07', price: expected + 100 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('样本加权均价');
    expect(await t.database.db.select().from(marketIndex).where(eq(marketIndex.currentYear, year))).toHaveLength(0);

    const published = await call('POST', '/publish', operator.token, { currentYear: year, currentTerm: term, quoteDate: '2031-03-07', price: expected });
    expect(published.statusCode, published.body).toBe(200);
    const [index] = await t.database.db.select().from(marketIndex).where(eq(marketIndex.currentYear, year));
    const stored = await t.database.db.select().from(marketIndexSamples).where(eq(marketIndexSamples.indexId, index!.id));
    expect(stored).toHaveLength(4);
    // the stored sample set reproduces the published price
    const included = stored.filter((s) => s.included);
    const tonnage = included.reduce((sum, s) => sum + s.quantityKg, 0);
    const average = Math.round(included.reduce((sum, s) => sum + s.priceFen * s.quantityKg, 0) / tonnage);
    expect(average).toBe(index!.priceFen);
    expect(index).toMatchObject({ dealCount: 2, dealTonnageKg: 4_000_000 });

    // public, no sign-in: masked numbers, no names, each exclusion with its reason
    const page = await call('GET', `/samples?year=${year}&term=${term}`, null);
    expect(page.statusCode).toBe(200);
    const body = page.json().result as IndexTermSamples;
    expect(body.samplePrice).toBe(expected);
    expect(body.price).toBe(expected);
    expect(body.samples.map((s) => [s.included, s.exclusionReason])).toEqual([
      [true, null],
      [true, null],
      [false, EXCLUSION_REASONS.selfDealing],
      [false, EXCLUSION_REASONS.deviation],
    ]);
    expect(body.samples[0]!.dealNo).toBe('CJ20310300**01');
    expect(page.body).not.toContain(a.organName);
    expect(page.body).not.toContain('CJ203103000001');

    // a correction re-samples the term instead of adding to it
    expect((await call('POST', '/publish', operator.token, { currentYear: year, currentTerm: term, quoteDate: '2031-03-08', price: expected })).statusCode).toBe(200);
    expect(await t.database.db.select().from(marketIndexSamples).where(eq(marketIndexSamples.indexId, index!.id))).toHaveLength(4);
    // an unknown term: nothing; a bad one: a Chinese 400
    expect((await call('GET', `/samples?year=${year}&term=11`, null)).json().result).toBeNull();
    const bad = await call('GET', '/samples?year=2031&term=60', null);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/期数/);
  });
});
