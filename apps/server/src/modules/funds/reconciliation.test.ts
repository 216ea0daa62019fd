import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { enterprises, enterpriseSuspensions, fundAccounts, fundsReconciliations } from '../../db/schema/index';
import { DEMO_SUSPENDED_ENTERPRISE, DEMO_SUSPENSION_REASON } from '../../demo/desk';
import { loadDemoData } from '../../demo/index';
import { LocalFileStorage } from '../files/storage';
import { loadPlatformCa } from '../ukey/ca';
import { runScheduledJobs } from '../../plugins/scheduler';
import { shanghaiDate } from '../../lib/shanghai-time';
import { signedIn } from '../../test/factories';
import { messagesOf, settled } from '../../test/notices';
import { effectiveOrder, tradingParty } from '../../test/order-factory';
import { createTestApp, openTestDatabase, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { auctionInput } from '../auction/auction.test-helpers';
import { newRequestId } from './funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { reconciliationFigures } from './reconciliation.service';

describe.each(testDatabaseKinds())('funds overview and reconciliation (资金总览, 资金对账) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/trade-api/api${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });

  it('balances over a living market, finds a balance altered through SQL, and keeps one row a day', async () => {
    const db = t.database.db;
    const operator = await signedIn(t.app, db, { role: 'operator' });
    // a market: 入金 of three parties, an order paid into escrow, an auction enrolment's deposit, a withdrawal paid
    const { buyer, seller, order } = await effectiveOrder(t, { quantityKg: 100_000, terms: { prepaymentPct: 100 } });
    const paid = await call('POST', `/order/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(paid.statusCode, paid.body).toBe(200);
    const bidder = await tradingParty(t, 50_000_000);
    const auction = await post(t.app, '/api/bidApply', seller.adminToken, auctionInput(await createProduct(db), t.clock.now()));
    const tradeId = auction.json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    expect((await post(t.app, '/api/bidEnroll/add', bidder.traderToken, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
    const withdrawal = await call('POST', '/funds/withdraw/apply', seller.adminToken, { amount: 1_234_500, requestId: newRequestId() });
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);
    expect((await call('POST', '/funds/admin/withdraw/pay', operator.token, { id: withdrawal.json().result.id })).statusCode).toBe(200);

    // the overview: every fen of the clients, with its frozen parts
    const overview = (await call('GET', '/operation/funds/overview', operator.token)).json().result;
    const figures = await reconciliationFigures(db);
    expect(overview.clientAvailable + overview.clientFrozen + (overview.platform ? overview.platform.available + overview.platform.frozen : 0)).toBe(figures.accountsTotal);
    expect(overview.tradeDeposits).toBe(20_000_000);
    expect(overview.escrow).toBe(order.prepaymentFen);
    expect(overview.otherFrozen).toBeGreaterThanOrEqual(0);
    // Σ confirmed 入金 − Σ paid 出金: three parties' 1,000,000.00 元 and 500,000.00 元, less the withdrawal
    expect(figures.expectedTotal).toBe(100_000_000 * 2 + 50_000_000 - 1_234_500);

    // the day's flows: today's 入金 and 出金
    const today = shanghaiDate(t.clock.now());
    const flows = await call('GET', `/operation/funds/flows?dateFrom=${today}&dateTo=${today}`, operator.token);
    expect(flows.statusCode, flows.body).toBe(200);
    expect(flows.json().result).toEqual([{ day: today, depositIn: 250_000_000, depositInCount: 3, withdrawal: 1_234_500, withdrawalCount: 1, net: 250_000_000 - 1_234_500 }]);
    const badRange = await call('GET', `/operation/funds/flows?dateFrom=${today}&dateTo=2000-01-01`, operator.token);
    expect(badRange.statusCode).toBe(422);
    expect(badRange.json().message).toBe('结束日期不能早于开始日期');

    // 立即对账: no difference
    const first = await call('POST', '/operation/funds/reconcile', operator.token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().result).toMatchObject({ day: today, balanced: true, differenceFen: 0, figures: { differences: [] } });
    expect(first.json().message).toBe('对账完成：无差异');

    // a balance changed behind the ledger's back: both checks see it, with the account, expected and actual
    const [before] = await db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, bidder.enterprise.id));
    await db.execute(sql`UPDATE fund_account SET available = available + 100 WHERE enterprise_id = ${bidder.enterprise.id}`);
    const second = await call('POST', '/operation/funds/reconcile', operator.token);
    expect(second.statusCode, second.body).toBe(200);
    const result = second.json().result;
    expect(result).toMatchObject({ day: today, balanced: false, differenceFen: 200 });
    expect(result.figures.differences).toEqual([
      { enterpriseId: null, enterpriseName: '全部账户', item: '资金合计（入金 − 出金）', expected: figures.expectedTotal, actual: figures.expectedTotal + 100 },
      { enterpriseId: bidder.enterprise.id, enterpriseName: bidder.enterprise.organName, item: '可用资金（流水回放）', expected: before!.available, actual: before!.available + 100 },
    ]);
    // one row for the day, updated by the re-run; the history lists it
    expect(await db.select().from(fundsReconciliations)).toHaveLength(1);
    const history = (await call('GET', '/operation/funds/reconciliations', operator.token)).json().result;
    expect(history.records).toHaveLength(1);
    expect(history.records[0]).toMatchObject({ day: today, balanced: false });
    // the operators' urgent to-do
    await settled(t);
    const todo = await messagesOf(db, operator.user.id, 'todo.funds_reconciliation');
    expect(todo).toHaveLength(1);
    expect(todo[0]!.content).toContain('2.00 元');
    // and the workbench keeps it as a to-do, counting the differences, until a run balances
    const findTodo = async (token = operator.token) => {
      const answer = await call('GET', '/workbench/todo', token);
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().result.todos as { key: string; count: number; path: string }[]).find((x) => x.key === 'fundsDifferences');
    };
    expect(await findTodo()).toMatchObject({ count: 2, path: '/operation/fundsOverview' });

    // put back: the next day's scheduled run finds nothing, and makes that day's row by itself
    await db.execute(sql`UPDATE fund_account SET available = available - 100 WHERE enterprise_id = ${bidder.enterprise.id}`);
    t.clock.advance(24 * 3600_000);
    await runScheduledJobs(t.app);
    const rows = await db.select().from(fundsReconciliations).orderBy(fundsReconciliations.day);
    expect(rows.map((r) => [r.day, r.balanced])).toEqual([
      [today, false],
      [shanghaiDate(t.clock.now()), true],
    ]);
    // (a day later the session has lapsed: a fresh operator looks)
    expect(await findTodo((await signedIn(t.app, db, { role: 'operator' })).token)).toBeUndefined();
  });
});

describe('funds reconciliation on the demo data', () => {
  let database: Database;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-recon-'));
  beforeAll(async () => {
    database = await openTestDatabase('pglite', { installationSwitches: true });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports no difference on the demo market', async () => {
    expect(await loadDemoData(database.db, new LocalFileStorage(dir), await loadPlatformCa({ dataDir: dir }))).toBe(true);
    const figures = await reconciliationFigures(database.db);
    expect(figures.differences).toEqual([]);
    expect(figures.accountsTotal).toBeGreaterThan(0);
    expect(figures.accountsTotal).toBe(figures.depositInTotal - figures.withdrawalTotal);
    // the demo's own history: yesterday's and today's reconciliation, both without difference
    const rows = await database.db.select().from(fundsReconciliations);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.balanced && r.differenceFen === 0)).toBe(true);
    // and one enterprise suspended until a date, with its reason (not seller01's or buyer01's)
    const suspended = await database.db.select().from(enterpriseSuspensions);
    expect(suspended).toHaveLength(1);
    expect(suspended[0]).toMatchObject({ status: 'active', reason: DEMO_SUSPENSION_REASON });
    expect(suspended[0]!.endsAt!.getTime()).toBeGreaterThan(Date.now());
    const [enterprise] = await database.db.select().from(enterprises).where(eq(enterprises.id, suspended[0]!.enterpriseId));
    expect(enterprise!.organName).toBe(DEMO_SUSPENDED_ENTERPRISE);
  }, 300_000);
});
