import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { chainAuditRows, checkAuditChain } from '../modules/audit/audit-chain';
import { reconciliationFigures } from '../modules/funds/reconciliation.service';
import { loginAs } from '../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../test/test-app';
import { prepareDemoDatabase } from './prepare-database';
import { resolveFigures, seedScale, type ScaleOptions, type ScaleSummary } from './seed-scale';

/** The tables a year fills, counted before and after: the difference is what the generator wrote. */
const COUNTED = {
  enterprise: 'SELECT count(*) AS n FROM enterprise',
  trades: 'SELECT (SELECT count(*) FROM listing) + (SELECT count(*) FROM auction) AS n',
  bids: 'SELECT count(*) AS n FROM auction_bid',
  deals: 'SELECT count(*) AS n FROM deal',
  contracts: 'SELECT count(*) AS n FROM contract',
  orders: 'SELECT count(*) AS n FROM trade_order',
  trucks: 'SELECT count(*) AS n FROM dispatch',
  invoices: 'SELECT count(*) AS n FROM invoice',
  audit: 'SELECT count(*) AS n FROM sys_audit_log',
} as const;

async function counts(db: Db, busyEnterpriseId: number) {
  const out: Record<string, number> = {};
  for (const [key, text] of Object.entries(COUNTED)) out[key] = Number(((await db.execute(text as never)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
  out.busyJournal = Number(((await db.execute(`SELECT count(*) AS n FROM fund_journal WHERE enterprise_id = ${busyEnterpriseId}` as never)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
  return out;
}

async function countOf(db: Db, table: string) {
  return Number(((await db.execute(`SELECT count(*) AS n FROM ${table}` as never)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
}

const OPTIONS: ScaleOptions = { scale: 0.002, seed: 7 };

describe.each(testDatabaseKinds())('seed:scale on %s', (kind) => {
  let t: TestApp;
  let summary: ScaleSummary;
  let before: Record<string, number>;
  let after: Record<string, number>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await prepareDemoDatabase(t.database, { dataDir: t.config.dataDir, caCertFile: t.config.caCertFile, caKeyFile: t.config.caKeyFile });
    const busyId = Number(((await t.database.db.execute(`SELECT enterprise_id AS id FROM sys_user WHERE username = 'buyer01'` as never)) as unknown as { rows: { id: string }[] }).rows[0]!.id);
    before = await counts(t.database.db, busyId);
    summary = await seedScale(t.database.db, OPTIONS);
    after = await counts(t.database.db, busyId);
  }, 240_000);

  // closing checks every auction's public bid log (test-app.ts): the generated ones verify too
  afterAll(async () => t?.close(), 120_000);

  it('writes the figures asked for (every row passed the foreign keys and CHECKs on the way in)', () => {
    const f = resolveFigures(OPTIONS);
    expect(summary.figures).toMatchObject({ enterprises: f.enterprises, trades: f.trades, bids: f.bids, deals: f.deals, trucks: f.trucks, invoices: f.invoices });
    const added = (key: string) => after[key]! - before[key]!;
    expect(added('enterprise')).toBe(f.enterprises);
    expect(added('trades')).toBe(f.trades);
    expect(added('bids')).toBe(f.bids);
    expect(added('deals')).toBe(f.deals);
    expect(added('contracts')).toBe(f.deals);
    // deals of the last hours are still being signed and a few contracts were voided: the rest have orders
    expect(added('orders')).toBeGreaterThan(f.deals * 0.85);
    expect(added('orders')).toBeLessThanOrEqual(f.deals);
    expect(added('trucks')).toBe(f.trucks);
    expect(added('invoices')).toBe(f.invoices);
    expect(added('audit')).toBe(f.auditRows);
    expect(added('busyJournal')).toBe(f.busyJournalRows);
  });

  it('refuses a second year on the same database', async () => {
    await expect(seedScale(t.database.db, OPTIONS)).rejects.toThrow(/已有生成的一年数据/);
  });

  it('leaves the funds balanced: every account is its journal replayed, Σ accounts = 入金 − 出金', async () => {
    const figures = await reconciliationFigures(t.database.db);
    expect(figures.differences).toEqual([]);
    expect(figures.accountCount).toBeGreaterThan(summary.figures.enterprises);
    const operator = await loginAs(t.app, summary.operator.username, summary.operator.password);
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/operation/funds/reconcile', headers: { 'x-access-token': operator }, payload: {} });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({ balanced: true, differenceFen: 0 });
  });

  it('chains the audit rows as the platform does: the whole chain recomputes', async () => {
    // the sign-ins of the tests above wait for the scheduler's chaining step: it links them after the year's rows
    await chainAuditRows(t.database.db);
    const check = await t.database.db.transaction((tx) => checkAuditChain(tx));
    expect(check.brokenCount).toBe(0);
    expect(check.unchained).toBe(0);
    expect(check.chained).toBe(check.rows);
    expect(check.rows).toBeGreaterThanOrEqual(after.audit!);
  });

  it("signs in as the busy enterprise's trader and lists its generated contracts, orders, trucks and journal", async () => {
    const token = await loginAs(t.app, summary.busy.username, summary.busy.password);
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': token } });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json().result as { records: Record<string, unknown>[]; total: number };
    };
    const contracts = await get('/api/contract/list?pageNo=1&pageSize=20');
    expect(contracts.total).toBeGreaterThan(10);
    expect(contracts.records.some((c) => c.sellerName !== summary.busy.organName && c.buyerName === summary.busy.organName)).toBe(true);
    const orders = await get('/api/order/list?pageNo=1&pageSize=20');
    expect(orders.total).toBeGreaterThan(10);
    const trucks = await get('/api/delivery/transport?pageNo=1&pageSize=20');
    expect(trucks.total).toBeGreaterThan(20);
    const plate = String(trucks.records[0]!.plateNo);
    expect(plate).toMatch(/^[晋蒙陕冀豫鲁宁甘苏][A-Z][0-9]{5}$/);
    const byPlate = await get(`/api/delivery/transport?pageNo=1&pageSize=20&plateNo=${encodeURIComponent(plate.slice(0, 3))}`);
    expect(byPlate.total).toBeGreaterThan(0);
    const journal = await get('/api/funds/journal/list?pageNo=1&pageSize=20');
    expect(journal.total).toBeGreaterThanOrEqual(summary.figures.busyJournalRows);
    const invoices = await get('/api/invoice/list?pageNo=1&pageSize=20');
    expect(invoices.total).toBeGreaterThan(0);
    // the other reads a benchmark makes answer on the generated rows (their content is the routes' own tests' business)
    for (const url of ['/api/invoice/due?pageNo=1&pageSize=20', '/api/fundinfo/getFundInfo', '/api/workbench/todo']) await get(url);
  });

  it('answers the trading centre and the public pages on the generated year', async () => {
    const operator = await loginAs(t.app, summary.operator.username, summary.operator.password);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = operator) => {
      const response = await t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json().result as { records: Record<string, unknown>[]; total: number };
    };
    const bids = await call('GET', `/sys/auditLog/list?pageNo=1&pageSize=20&action=${encodeURIComponent('出价')}`);
    expect(bids.total).toBeGreaterThanOrEqual(summary.figures.auditRows * 0.4);
    expect((await call('GET', '/api/delivery/transport?pageNo=1&pageSize=20')).total).toBe(await countOf(t.database.db, 'dispatch'));
    expect((await call('POST', '/api/tradeHome/listedTrade/list', { pageNo: 1, pageSize: 10 }, null)).total).toBeGreaterThan(0);
    await call('POST', '/api/tradeHome/bidTrade/list', { pageNo: 1, pageSize: 10 }, null);
    expect((await call('POST', '/api/tradeHome/recommend/list', { pageNo: 1, pageSize: 10 }, null)).total).toBeGreaterThan(0);
  });
});
