import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOMMEND_QUICK_FILTERS } from '@coalx/shared';
import { auctions, listings } from '../../db/schema/index';
import { loadDemoData } from '../../demo/index';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

describe.each(testDatabaseKinds())('recommended trades and trade summary on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-home-'));
  beforeAll(async () => {
    t = await createTestApp(kind);
    // the app's own file storage: the app's contract maker hears the demo's deals and writes their PDFs there
    await loadDemoData(t.database.db, t.app.storage, t.app.platformCa, t.clock.now());
    operator = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(files, { recursive: true, force: true });
  });

  const call = (url: string, token: string | null, payload: object) =>
    t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, payload });

  it('lists only what the trading centre recommends, filtered like the quick filters', async () => {
    const approvedListings = (await t.database.db.select().from(listings)).filter((l) => l.status === 'approved');
    const approvedAuctions = (await t.database.db.select().from(auctions)).filter((a) => a.status === 'approved');
    expect((await call('/api/tradeHome/recommend/mark', (await signedIn(t.app, t.database.db)).token, { tradeId: approvedListings[0]!.tradeNo, recommended: true })).statusCode).toBe(403);
    for (const trade of [...approvedListings, ...approvedAuctions]) {
      expect((await call('/api/tradeHome/recommend/mark', operator, { tradeId: trade.tradeNo, recommended: true })).statusCode).toBe(200);
    }
    expect((await call('/api/tradeHome/recommend/mark', operator, { tradeId: 'GP000', recommended: true })).statusCode).toBe(404);

    const list = async (params: object) => (await call('/api/tradeHome/recommend/list', null, { pageNo: 1, pageSize: 50, ...params })).json().result;
    const all = await list({});
    // listings before their window are not public (spec §4)
    const visibleListings = approvedListings.filter((l) => l.hangState !== 0).length;
    expect(all.total).toBe(visibleListings + approvedAuctions.length);
    expect(all.records[0].hangState).toBeGreaterThan(0); // live trades first

    const [, todayListing, todayAuction, fiveDays, ended] = RECOMMEND_QUICK_FILTERS;
    const listingsToday = await list(todayListing!.params);
    expect(listingsToday.records.every((r: { tradeType: number }) => r.tradeType < 2)).toBe(true);
    const auctionsToday = await list(todayAuction!.params);
    expect(auctionsToday.records.every((r: { tradeType: number }) => r.tradeType >= 2)).toBe(true);
    expect(auctionsToday.total).toBeGreaterThan(0); // the live demo auction bids today
    expect((await list(fiveDays!.params)).total).toBeLessThanOrEqual(all.total);
    const endedOnes = await list(ended!.params);
    expect(endedOnes.total).toBeGreaterThan(0);
    for (const r of endedOnes.records as { tradeType: number; hangState: number }[]) expect(r.hangState).toBe(r.tradeType < 2 ? 2 : 3);

    const ids = await t.app.inject({ method: 'GET', url: '/trade-api/api/tradeHome/recommend/ids', headers: { 'x-access-token': operator } });
    expect(ids.json().result).toEqual(expect.arrayContaining(approvedListings.map((l) => l.tradeNo)));
    const home = (await call('/api/tradeHome/recommend/list', null, { pageNo: 1, pageSize: 4 })).json().result;
    expect(home.records).toHaveLength(4);
    const capped = (await call('/api/tradeHome/recommend/list', null, { pageNo: 1, pageSize: 100000 })).json().result;
    expect(capped.size).toBe(50);
    expect((await call('/api/tradeHome/recommend/list', null, { tradeType: '0;1' })).statusCode).toBe(400);
    const unmark = await call('/api/tradeHome/recommend/mark', operator, { tradeId: approvedAuctions[0]!.tradeNo, recommended: false });
    expect(unmark.statusCode).toBe(200);
    expect((await list({})).total).toBe(all.total - 1);
  });

  it('summarises the latest deals with masked names', async () => {
    const summary = (await call('/api/tradeHome/tradeSummary/list', null, { pageNo: 1, pageSize: 10 })).json().result;
    // the market's 6 deals and the 6 behind the demo delivery desk
    expect(summary.total).toBe(12);
    expect(summary.records[0].buyerName).toContain('*');
  });
});
