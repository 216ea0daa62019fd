import type { Workbench, WorkbenchTodo } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../demo/index';
import { enterpriseSuspensions, enterprises, marketIndex, orders, qualityReports, settlementStatements, users } from '../../db/schema/index';
import { shanghaiDayStart } from '../../lib/shanghai-time';
import { loginAs } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { isoWeekOf } from '../market-index/market-index.service';

/**
 * Every to-do of the operator and of the demo enterprises, on the demo market made richer: its link's filter, handed
 * to the list API its page calls, finds exactly as many rows as the to-do counts.
 */
describe.each(testDatabaseKinds())('to-do links land on lists of exactly their items on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await loadDemoData(t.database.db, t.app.storage, t.app.platformCa, t.clock.now());
  }, 600_000);
  afterAll(async () => t?.close());

  const get = async (url: string, token: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': token } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json().result;
  };
  const post = async (url: string, body: object, token: string) => {
    const response = await t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': token }, payload: body });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json().result;
  };
  const qs = (params: URLSearchParams, drop: string[] = []) => {
    const copy = new URLSearchParams(params);
    for (const key of drop) copy.delete(key);
    copy.set('pageSize', '100');
    return copy.toString();
  };
  const workbench = async (token: string) => (await get('/api/workbench/todo', token)) as Workbench;

  /** The total the to-do's page shows: the list API it calls with the filters of the link. */
  async function listedTotal(todo: WorkbenchTodo, token: string): Promise<number> {
    const url = new URL(todo.path!, 'http://page');
    const p = url.searchParams;
    const body = Object.fromEntries([...p.entries()].filter(([k]) => k !== 'tab'));
    switch (url.pathname) {
      case '/operation/enterpriseAudit':
        return p.get('tab') === 'change' ? (await get(`/sys/enterprise/change/list?${qs(p, ['tab'])}`, token)).total : (await get(`/sys/enterprise/audit/list?${qs(p)}`, token)).total;
      case '/operation/tradeAudit':
        return (await post(p.get('tab') === 'auction' ? '/api/auction/audit/list' : '/api/listing/audit/list', { ...body, pageSize: 100 }, token)).total;
      case '/operation/fundsAudit':
        return (await get(`/api/funds/admin/${p.get('tab')}/list?${qs(p, ['tab'])}`, token)).total;
      case '/financial/application':
        return (await get(`/api/funds/${p.get('tab')}/list?${qs(p, ['tab'])}`, token)).total;
      case '/contract/list':
      case '/contract/sign':
        return (await get(`/api/contract/list?${qs(p)}`, token)).total;
      case '/order/list':
        return (await get(`/api/order/list?${qs(p)}`, token)).total;
      case '/settlement/payment':
        return (await get(`/api/order/payments?${qs(p)}`, token)).total;
      case '/settlement/signFor':
        return (await get(`/api/delivery/sign-for?${qs(p)}`, token)).total;
      case '/settlement/balance':
        return (await get(`/api/settlement/statements?${qs(p)}`, token)).total;
      case '/invoice/list':
        return (await get(`/api/invoice/list?${qs(p)}`, token)).total;
      case '/logistics/driverAudit':
        return (await get(`/api/driver/list?${qs(p)}`, token)).total;
      case '/logistics/transport':
        return (await get(`/api/driver/list?${qs(p, ['tab'])}`, token)).total;
      case '/auctionTrade/sign':
        return (await post('/api/bidEnroll/myList', { ...body, pageSize: 100 }, token)).total;
      case '/auctionTrade/query':
        return (await post('/api/myBidTradeList', { ...body, pageSize: 100 }, token)).total;
      case '/listingTrade/confirm':
        return (await post('/api/listedRecord/myListedApplyList', { ...body, pageSize: 100 }, token)).total;
      case '/listingTrade/subscribe':
        return (await post('/api/listedRecord/myDealListedApplyList', { ...body, pageSize: 100 }, token)).total;
      case '/longTermDeal':
        return (await get(`/api/longTerm/list?${qs(p)}`, token)).total;
      case '/operation/marketIndex': {
        // the to-do counts this week's term when it is missing from the published terms
        const week = isoWeekOf(t.clock.now());
        const history = (await get('/api/commoditymarketindex/commodityMarketIndex/history?limit=260', token)) as { currentYear: number; currentTerm: number }[];
        return history.some((h) => h.currentYear === week.year && h.currentTerm === week.term) ? 0 : 1;
      }
      case '/operation/fundsOverview': {
        // 资金总览 lists the latest reconciliation's differences
        const latest = (await get('/api/operation/funds/reconciliations?pageSize=1', token)).records[0];
        return latest ? latest.figures.differences.length : 0;
      }
      case '/operation/enterprises':
        return (await get(`/api/operation/enterprises/list?${qs(p)}`, token)).total;
      default:
        throw new Error(`no list known for the to-do ${todo.key} (${todo.path})`);
    }
  }

  /** To-dos whose page lists something other than what they count (long-term applications and call-offs per deal). */
  const COUNTED_ELSEWHERE = new Set(['longTermApplications', 'longTermCallOffs']);

  async function expectEveryTodoMatches(token: string, who: string) {
    const todos = (await workbench(token)).todos;
    expect(todos.length).toBeGreaterThan(5);
    const mismatches: string[] = [];
    for (const todo of todos) {
      if (COUNTED_ELSEWHERE.has(todo.key)) continue;
      expect(todo.path, todo.key).toBeTruthy();
      const total = await listedTotal(todo, token);
      if (total !== todo.count) mismatches.push(`${who} ${todo.key}: 待办 ${todo.count}, 列表 ${total} (${todo.path})`);
    }
    if (process.env.SHOW_TODOS) console.log(who, todos.map((x) => `${x.key}=${x.count}`).join(' '));
    expect(mismatches).toEqual([]);
    return todos;
  }

  /** More than the demo holds: a disputed statement and lab report, a late order, a suspension ending today. */
  async function enrich() {
    const db = t.database.db;
    const now = t.clock.now();
    const [statement, pendingOne] = await db.select().from(settlementStatements).orderBy(settlementStatements.id).limit(2);
    if (statement) await db.execute(sql`UPDATE settlement_statement SET status = 'disputed', dispute_reason = '测试异议' WHERE id = ${statement.id}`);
    if (pendingOne) await db.execute(sql`UPDATE settlement_statement SET status = 'pending' WHERE id = ${pendingOne.id}`);
    await db.execute(sql`UPDATE invoice SET status = 'pending' WHERE id = (SELECT min(id) FROM invoice WHERE direction = 'blue')`);
    await db.execute(sql`UPDATE trade_order SET payment_deadline = ${new Date(now.getTime() - 3600_000)} WHERE id = (SELECT min(id) FROM trade_order WHERE status = 'unpaid')`);
    const [report] = await db.select().from(qualityReports).limit(1);
    if (report) await db.execute(sql`UPDATE quality_report SET status = 'disputed' WHERE id = ${report.id}`);
    const [shipping] = await db.select().from(orders).where(sql`${orders.status} IN ('awaiting_shipment', 'shipping')`).limit(1);
    if (shipping) await db.execute(sql`UPDATE trade_order SET terms = jsonb_set(terms, '{deliveryDateEnd}', '"2020-01-01"') WHERE id = ${shipping.id}`);
    const [operator] = await db.select().from(users).where(eq(users.username, 'operator'));
    const [enterprise] = await db.select().from(enterprises).limit(1);
    await db.insert(enterpriseSuspensions).values({ enterpriseId: enterprise!.id, reason: '测试暂停', startsAt: new Date(now.getTime() - 86400_000), endsAt: shanghaiDayStart(now, 1), status: 'active', createdBy: operator!.id });
    await db.insert(enterpriseSuspensions).values({ enterpriseId: enterprise!.id, reason: '今日结束', startsAt: new Date(now.getTime() - 86400_000), endsAt: new Date(shanghaiDayStart(now, 1).getTime() - 60_000), status: 'active', createdBy: operator!.id });
    return { statement: !!statement, report: !!report, late: !!shipping };
  }

  it('for the operator and every demo enterprise, each to-do counts what its filtered list shows', async () => {
    const operatorToken = await loginAs(t.app, 'operator', 'Operator#2026');
    const before = Object.fromEntries((await workbench(operatorToken)).todos.map((x) => [x.key, x.count]));
    const made = await enrich();
    const operatorTodos = await expectEveryTodoMatches(operatorToken, '运营');
    const after = Object.fromEntries(operatorTodos.map((x) => [x.key, x.count]));
    // each new to-do appears when its condition holds
    expect(after.suspensionsEndingToday).toBe(before.suspensionsEndingToday! + 1);
    if (made.statement) expect(after.statementDisputes).toBe(before.statementDisputes! + 1);
    if (made.report) expect(after.labReportDisputes).toBeGreaterThanOrEqual(1);
    if (made.late) expect(after.lateOrders).toBe(before.lateOrders! + 1);
    for (const username of ['seller01', 'buyer01', 'buyer02', 'bidder01', 'bidder02', 'trader01']) {
      await expectEveryTodoMatches(await loginAs(t.app, username, 'Trader#2026'), username);
    }
  }, 300_000);

  it('the week\'s index counts once until the term is published, then not', async () => {
    const operatorToken = await loginAs(t.app, 'operator', 'Operator#2026');
    const week = isoWeekOf(t.clock.now());
    const published = await t.database.db.select().from(marketIndex).where(and(eq(marketIndex.currentYear, week.year), eq(marketIndex.currentTerm, week.term)));
    const todo = () => workbench(operatorToken).then((w) => w.todos.find((x) => x.key === 'indexUnpublished')!);
    expect((await todo()).count).toBe(published.length > 0 ? 0 : 1);
    if (published.length === 0) {
      // published at the week's sample average when it has deals (the index method), else at a quote
      const proposal = await get(`/api/commoditymarketindex/commodityMarketIndex/proposal?year=${week.year}&term=${week.term}`, operatorToken);
      const response = await t.app.inject({
        method: 'POST',
        url: '/trade-api/api/commoditymarketindex/commodityMarketIndex/publish',
        headers: { 'x-access-token': operatorToken },
        payload: { currentYear: week.year, currentTerm: week.term, quoteDate: '2026-11-27', price: proposal.price ?? 80000 },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect((await todo()).count).toBe(0);
  });

  it('a list refuses a filter value it does not know, in Chinese', async () => {
    const operatorToken = await loginAs(t.app, 'operator', 'Operator#2026');
    for (const url of ['/api/order/list?late=2', '/api/order/list?labReport=x', '/api/settlement/statements?status=x', '/api/delivery/sign-for?status=signed', '/api/contract/list?paper=x', '/api/funds/admin/depositIn/list?status=x']) {
      const response = await t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': operatorToken } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/[\u4e00-\u9fa5]/);
    }
    const seller = await loginAs(t.app, 'seller01', 'Trader#2026');
    for (const [url, body] of [
      ['/api/bidEnroll/myList', { startsToday: '2' }],
      ['/api/myBidTradeList', { startsToday: 'yes' }],
      ['/api/listedRecord/myListedApplyList', { status: 'x' }],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': seller }, payload: body });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/[\u4e00-\u9fa5]/);
    }
    for (const url of ['/api/order/payments?side=x', '/api/invoice/list?side=x', '/api/settlement/statements?side=x', '/api/delivery/sign-for?answer=x']) {
      const response = await t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': seller } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});
