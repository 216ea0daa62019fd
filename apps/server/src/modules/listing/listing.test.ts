import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { fundAccounts, listings, tradeDeposits } from '../../db/schema/index';
import { loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { runScheduledJobs } from '../../plugins/scheduler';
import { reconcile } from '../funds/ledger';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, listingInput, post } from './listing.test-helpers';

describe.each(testDatabaseKinds())('listing trading on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  let operatorToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  /** Publishes, approves and opens a listing; returns its trade number and the seller. */
  async function openListing(overrides = {}) {
    // the clock moves hours between tests: sign the operator in afresh
    operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect(tradeId).toMatch(/^GP\d{12}$/);
    const approved = await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId });
    expect(approved.statusCode, approved.body).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    return { tradeId, seller };
  }

  async function buyerWithFunds(fen = 100_000_000) {
    const buyer = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, buyer.actor, await operatorActor(t.database.db), fen);
    return buyer;
  }

  it('validates the publishing form with clear messages and creates nothing', async () => {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const base = listingInput(stockCode, t.clock.now());
    const cases: [object, string][] = [
      [{ price: -1 }, '价格'],
      [{ price: 850.5 }, '两位小数'],
      [{ quantity: 0 }, '挂牌数量'],
      [{ minSubscribe: 600_000 }, '最小摘牌量不能大于最大摘牌量'],
      [{ maxSubscribe: 20_000_000, minSubscribe: 100_000 }, '最大摘牌量不能大于挂牌数量'],
      [{ listedDateEnd: base.listedDateStart }, '挂牌结束时间须晚于开始时间'],
      [{ listedDateStart: new Date(t.clock.now().getTime() - 3600_000).toISOString() }, '挂牌开始时间须晚于当前时间'],
      [{ deliveryDateStart: '2020-01-01' }, '交收开始日期'],
      [{ stockCode: 'NOPE' }, '产品不存在'],
      [{ tradeType: 2 }, '交易类型'],
      [{ deliveryPlace: 'x'.repeat(101) }, '交收地点'],
    ];
    for (const [override, message] of cases) {
      const response = await post(t.app, '/api/addListedApply', seller.token, { ...base, ...override });
      expect(response.statusCode, JSON.stringify(override)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().message, JSON.stringify(override)).toContain(message);
    }
    const [{ n }] = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(listings).where(eq(listings.enterpriseId, seller.enterprise.id))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('is public only once approved and in its window; the scheduler moves it on time', async () => {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const now = t.clock.now();
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, now, { listedDateStart: new Date(now.getTime() + 3600_000).toISOString(), listedDateEnd: new Date(now.getTime() + 7200_000).toISOString(), deliveryDateStart: '2099-01-01', deliveryDateEnd: '2099-02-01' }));
    const tradeId = created.json().result.tradeId;
    expect((await post(t.app, '/api/listedApplyDetail', null, { tradeId })).statusCode).toBe(404);
    expect((await post(t.app, '/api/listing/audit/approve', seller.token, { tradeId })).statusCode).toBe(403);
    await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId });
    expect((await post(t.app, '/api/listedApplyDetail', null, { tradeId })).statusCode).toBe(404); // state 0
    t.clock.advance(3600_000 + 1000);
    // a plain GET sees state 1 even before the scheduler runs
    expect((await post(t.app, '/api/listedApplyDetail', null, { tradeId })).json().result.hangState).toBe(1);
    await runScheduledJobs(t.app);
    const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
    expect(row!.hangState).toBe(1);
    const market = (await post(t.app, '/api/tradeHome/listedTrade/list', null, { pageSize: 5, pageNo: 1, tradeType: 0 })).json().result;
    expect(market.records.some((r: { tradeId: string }) => r.tradeId === tradeId)).toBe(true);
    t.clock.advance(3600_000);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app); // idempotent
    const [ended] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
    expect(ended!.hangState).toBe(2);
    expect(ended!.endedAt).not.toBeNull();
  });

  it('subscribe → confirm makes a deal with a performance deposit; decline releases quantity and deposit', async () => {
    const { tradeId, seller } = await openListing();
    const buyer = await buyerWithFunds();
    const a = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 500_000, requestId: newRequestId() });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().result).toMatchObject({ status: 'pending', quantity: 500_000, deposit: 1_000_000 }); // 500 t × ¥20
    const b = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 200_000, requestId: newRequestId() });
    const funds = (await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': buyer.token } })).json().result;
    expect(funds).toMatchObject({ frozen: 1_400_000, depositFrozen: 1_400_000 });

    // only the publisher answers
    expect((await post(t.app, '/api/listedRecord/answerOrdersDeal', buyer.token, { id: a.json().result.id, action: 'confirm' })).statusCode).toBe(403);
    const confirmed = await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id: a.json().result.id, action: 'confirm' });
    expect(confirmed.json().result.status).toBe('confirmed');
    expect((await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id: a.json().result.id, action: 'decline' })).statusCode).toBe(409);
    await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id: b.json().result.id, action: 'decline', reason: '数量不符' });

    const detail = (await post(t.app, '/api/listedApplyDetail', null, { tradeId })).json().result;
    expect(detail).toMatchObject({ subscribedQuantity: 500_000, remainingQuantity: 9_500_000 });
    const after = (await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': buyer.token } })).json().result;
    expect(after).toMatchObject({ frozen: 1_000_000, available: 100_000_000 - 1_000_000 });
    const deposits = await t.database.db.select().from(tradeDeposits).where(eq(tradeDeposits.enterpriseId, buyer.enterprise.id));
    expect(deposits.map((d) => d.status).sort()).toEqual(['performance', 'released']);

    const deals = (await post(t.app, '/api/mydealListedTradeList', seller.token, {})).json().result;
    expect(deals.records[0]).toMatchObject({ tradeId, quantity: 500_000, price: 85_000, amount: 42_500_000, deposit: 1_000_000 });
    const result = (await post(t.app, '/api/listedRecord/listSuccessQuery', null, { tradeId })).json().result;
    expect(result.deals.total).toBe(1);
    expect(result.deals.records[0].buyerName).toContain('*');
    const opposite = await post(t.app, '/api/listedRecord/queryOppositeCompanyInfo', seller.token, { id: deals.records[0].id });
    expect(opposite.json().result.organName).toBe(buyer.enterprise.organName);
    const stranger = await fundedEnterprise(t.app, t.database.db);
    expect((await post(t.app, '/api/listedRecord/queryOppositeCompanyInfo', stranger.token, { id: deals.records[0].id })).statusCode).toBe(403);
  });

  it('refuses subscriptions outside the rules and changes nothing', async () => {
    const { tradeId, seller } = await openListing();
    const buyer = await buyerWithFunds(500_000); // ¥5,000: enough for 250 t of deposit only
    const attempt = (token: string, quantity: number) => post(t.app, '/api/listedAnswerApply', token, { tradeId, quantity, requestId: newRequestId() });
    const cases: [string, number, string][] = [
      [buyer.token, 50_000, '最小摘牌量'],
      [buyer.token, 600_000, '最大摘牌量'],
      [seller.token, 200_000, '不能摘本企业'],
      [buyer.token, 300_000, '可用资金不足'],
    ];
    for (const [token, quantity, message] of cases) {
      const response = await attempt(token, quantity);
      expect(response.statusCode, message).toBeGreaterThanOrEqual(400);
      expect(response.json().message).toContain(message);
    }
    const operator = await attempt(operatorToken, 200_000);
    expect(operator.statusCode).toBe(403);
    const detail = (await post(t.app, '/api/listedApplyDetail', null, { tradeId })).json().result;
    expect(detail.subscribedQuantity).toBe(0);
    const [account] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, buyer.enterprise.id));
    expect(account).toMatchObject({ available: 500_000, frozen: 0 });
    // closed listing
    t.clock.advance(25 * 3600_000);
    const buyerToken = await loginAs(t.app, buyer.user.username);
    const sellerToken = await loginAs(t.app, seller.user.username);
    expect((await attempt(buyerToken, 200_000)).json().message).toContain('已结束');
    // not approved
    const draft = await post(t.app, '/api/addListedApply', sellerToken, listingInput(stockCode, t.clock.now(), { submit: false }));
    const response = await post(t.app, '/api/listedAnswerApply', buyerToken, { tradeId: draft.json().result.tradeId, quantity: 200_000, requestId: newRequestId() });
    expect(response.statusCode).toBe(404);
  });

  it('cannot be oversold: 100 concurrent subscriptions of 500 t against 10,000 t', async () => {
    const { tradeId } = await openListing();
    const buyers = await Promise.all(Array.from({ length: 10 }, () => buyerWithFunds(100_000_000)));
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(t.app, '/api/listedAnswerApply', buyers[i % 10]!.token, { tradeId, quantity: 500_000, requestId: newRequestId() })),
    );
    const accepted = responses.filter((r) => r.statusCode === 200);
    expect(accepted).toHaveLength(20);
    for (const r of responses.filter((x) => x.statusCode !== 200)) expect(r.json().message).toMatch(/已全部摘完|挂牌已结束|剩余/);
    const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
    expect(row!.subscribedKg).toBe(10_000_000);
    expect(row!.hangState).toBe(2);
    const [frozen] = await t.database.db
      .select({ sum: sql<string>`SUM(${tradeDeposits.amount})::text` })
      .from(tradeDeposits)
      .where(eq(tradeDeposits.tradeId, tradeId));
    expect(Number(frozen!.sum)).toBe(20 * 1_000_000);
    for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
  });

  it('auto-confirm turns a subscription into a deal at once; a replayed request subscribes once', async () => {
    const { tradeId } = await openListing({ autoConfirm: true, depositMode: 'fixed', depositValue: 5_000_000 });
    const buyer = await buyerWithFunds();
    const requestId = newRequestId();
    const [first, again] = [
      await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 300_000, requestId }),
      await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 300_000, requestId }),
    ];
    expect(first.json().result).toMatchObject({ status: 'confirmed', deposit: 5_000_000 });
    expect(again.json().result.id).toBe(first.json().result.id);
    expect((await post(t.app, '/api/listedApplyDetail', null, { tradeId })).json().result.subscribedQuantity).toBe(300_000);
  });
});
