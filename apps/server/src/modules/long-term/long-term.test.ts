import 'reflect-metadata';
import { ContractStates, addMonths, monthDays, type LongTermDetail, type LongTermOffer } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, deals, longTermCallOffs, longTermMonths, marketIndex, orders } from '../../db/schema/index';
import { makeContractForDeal } from '../../flows/make-contract';
import { makeOrderForContract } from '../../flows/make-order';
import { makeFrameworkContract } from '../../flows/make-long-term-contract';
import { startLongTermOfContract } from '../../flows/start-long-term';
import { isoWeekOf } from '../market-index/market-index.service';
import { shanghaiDate } from '../../lib/shanghai-time';
import { transition } from '../../lib/transition';
import { loginAs, signedIn } from '../../test/factories';
import { tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { createProduct } from '../listing/listing.test-helpers';
import { runScheduledJobs } from '../../plugins/scheduler';

const DAY = 86_400_000;

describe.each(testDatabaseKinds())('long-term deals on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let outsider: TradingParty;
  let operatorToken = '';
  let operatorUsername = '';
  let stockCode = '';
  let thisMonth = '';

  beforeAll(async () => {
    t = await createTestApp(kind);
    [seller, buyer, outsider] = [await tradingParty(t), await tradingParty(t), await tradingParty(t)];
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    operatorToken = operator.token;
    operatorUsername = operator.user.username;
    stockCode = await createProduct(t.database.db);
    thisMonth = shanghaiDate(t.clock.now()).slice(0, 7);
    // the index: four weekly terms in the month before this one (710, 712, 716, 722 元/t: average 715)
    const previous = addMonths(thisMonth, -1);
    let total = 0;
    for (const [day, price] of [['02', 71_000], ['09', 71_200], ['16', 71_600], ['23', 72_200]] as const) {
      const quoteDate = `${previous}-${day}`;
      const week = isoWeekOf(new Date(`${quoteDate}T04:00:00Z`));
      await t.database.db.insert(marketIndex).values({ currentYear: week.year, currentTerm: week.term, totalTerm: ++total, quoteDate, priceFen: price, riseFen: 0 });
    }
  }, 120_000);
  afterAll(async () => t?.close());

  const db = () => t.database.db;
  const call = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    t.app.inject({ method, url: `/trade-api/api${url}`, headers: { 'x-access-token': token }, ...(body ? { payload: body } : {}) });
  const detailOf = async (id: number, token: string) => (await call('GET', `/longTerm/detail?id=${id}`, token)).json().result as LongTermDetail;

  function offer(overrides: Partial<LongTermOffer> = {}): LongTermOffer {
    const months = [thisMonth, addMonths(thisMonth, 1), addMonths(thisMonth, 2)];
    return {
      stockCode,
      quality: { qnet: 5500, st: 0.8, mt: 12 },
      priceType: 'delivered',
      transport: 'road',
      deliveryProvince: '江苏省',
      deliveryCity: '南京市',
      deliveryDistrict: '',
      deliveryPlace: '华能南京电厂煤场',
      periodStart: months[0]!,
      periodEnd: months[2]!,
      months: months.map((month) => ({ month, plannedKg: 10_000_000 })),
      pricing: { mode: 'index', basePriceFen: 68_000, coefficientE4: 5_000, referenceFen: 70_000, heatFactorE4: null },
      applyDeadline: shanghaiDate(t.clock.now()),
      remark: '',
      submit: true,
      ...overrides,
    };
  }

  /** Published, applied to by the buyer, accepted, its framework contract made effective: a deal in execution. */
  async function executingDeal(overrides: Partial<LongTermOffer> = {}) {
    const published = await call('POST', '/longTerm/offer', seller.traderToken, offer(overrides));
    expect(published.statusCode, published.body).toBe(200);
    const id = published.json().result.id as number;
    expect((await call('POST', `/longTerm/${id}/apply`, buyer.traderToken, { note: '年度保供' })).statusCode).toBe(200);
    const applicationId = (await detailOf(id, seller.traderToken)).applications[0]!.id;
    expect((await call('POST', `/longTerm/${id}/accept`, seller.traderToken, { applicationId })).statusCode).toBe(200);
    await makeFrameworkContract(db(), t.app.storage, t.clock, id);
    const [framework] = await db().select().from(contracts).where(eq(contracts.longTermId, id));
    await transition(db(), ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, framework!.id), set: { effectiveAt: t.clock.now() } });
    await startLongTermOfContract(db(), t.clock, framework!.id);
    return { id, framework: framework! };
  }

  it('refuses bad offers in Chinese and saves nothing', async () => {
    const cases: [Partial<LongTermOffer>, string][] = [
      [{ months: [{ month: thisMonth, plannedKg: 10_000_000 }] }, '月度计划须逐月覆盖合同期'],
      [{ periodEnd: addMonths(thisMonth, -1) }, '合同结束月份不能早于开始月份'],
      [{ pricing: { mode: 'index', basePriceFen: -1, coefficientE4: 5_000, referenceFen: 70_000, heatFactorE4: null } }, '基准价须大于 0'],
      [{ pricing: { mode: 'index', basePriceFen: 68_000, coefficientE4: 0, referenceFen: 70_000, heatFactorE4: null } }, '浮动定价须填写大于 0 的浮动系数'],
      [{ targetCreditCode: 'abc' }, '统一社会信用代码应为 18 位'],
    ];
    for (const [overrides, message] of cases) {
      const response = await call('POST', '/longTerm/offer', seller.traderToken, offer(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const past = await call('POST', '/longTerm/offer', seller.traderToken, offer({ periodStart: addMonths(thisMonth, -1), months: [addMonths(thisMonth, -1), thisMonth, addMonths(thisMonth, 1), addMonths(thisMonth, 2)].map((month) => ({ month, plannedKg: 1_000 })) }));
    expect(past.statusCode).toBe(422);
    expect(past.json().message).toBe('合同开始月份不能早于本月');
    const list = await call('GET', '/longTerm/list', seller.traderToken);
    expect(list.json().result.total).toBe(0);
  });

  it('a suspended enterprise publishes, applies to and accepts no new long-term deal (暂停交易), while the call-offs of one in execution go on', async () => {
    const { id } = await executingDeal();
    const open = await call('POST', '/longTerm/offer', seller.traderToken, offer());
    expect(open.statusCode, open.body).toBe(200);
    const openId = open.json().result.id as number;
    const suspend = (who: TradingParty) => call('POST', '/operation/enterprises/suspend', operatorToken, { id: who.enterprise.id, reason: '履约核查中' });
    const lift = (who: TradingParty) => call('POST', '/operation/enterprises/lift', operatorToken, { id: who.enterprise.id, reason: '核查完毕' });
    const refused = (response: { statusCode: number; body: string; json(): { message: string } }) => {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().message).toContain('贵企业已被暂停交易：履约核查中');
    };

    expect((await suspend(buyer)).statusCode).toBe(200);
    refused(await call('POST', `/longTerm/${openId}/apply`, buyer.traderToken, { note: '申请' }));
    // the deal in execution goes on: the buyer still asks for this month's call-off
    const callOff = await call('POST', `/longTerm/${id}/callOff`, buyer.traderToken, {
      month: thisMonth,
      quantityKg: 1_000_000,
      deliveryDateStart: shanghaiDate(t.clock.now()),
      deliveryDateEnd: monthDays(thisMonth).last,
    });
    expect(callOff.statusCode, callOff.body).toBe(200);
    expect((await lift(buyer)).statusCode).toBe(200);
    expect((await call('POST', `/longTerm/${openId}/apply`, buyer.traderToken, { note: '申请' })).statusCode).toBe(200);

    expect((await suspend(seller)).statusCode).toBe(200);
    refused(await call('POST', '/longTerm/offer', seller.traderToken, offer()));
    const applicationId = (await detailOf(openId, seller.traderToken)).applications[0]!.id;
    refused(await call('POST', `/longTerm/${openId}/accept`, seller.traderToken, { applicationId }));
    // a draft is still its own business
    expect((await call('POST', '/longTerm/offer', seller.traderToken, offer({ submit: false }))).statusCode).toBe(200);
    expect((await lift(seller)).statusCode).toBe(200);
    // leave the market as found: the open offer is withdrawn
    const withdrawn = await call('POST', `/longTerm/${openId}/withdraw`, seller.traderToken);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
  });

  it('runs offer → application → acceptance → framework contract → execution, with the month priced from the index', async () => {
    const draft = await call('POST', '/longTerm/offer', seller.traderToken, offer({ submit: false }));
    expect(draft.statusCode, draft.body).toBe(200);
    const id = draft.json().result.id as number;
    expect(draft.json().result).toMatchObject({ status: 'draft', statusText: '草稿', mySide: 'seller', plannedKg: 30_000_000 });
    expect(draft.json().result.dealNo).toMatch(/^CX\d{12}$/);
    // a draft is not offered to anyone yet
    expect((await call('GET', '/longTerm/list?scope=market', buyer.traderToken)).json().result.total).toBe(0);
    expect((await call('GET', `/longTerm/detail?id=${id}`, buyer.traderToken)).statusCode).toBe(404);
    expect((await call('POST', `/longTerm/${id}/publish`, seller.traderToken)).json().result.status).toBe('open');

    const market = (await call('GET', '/longTerm/list?scope=market', buyer.traderToken)).json().result;
    expect(market.records.map((r: { id: number }) => r.id)).toContain(id);
    expect(market.records[0].actions).toEqual(['apply']);
    // the seller cannot apply to its own; an applicant applies once at a time
    expect((await call('POST', `/longTerm/${id}/apply`, seller.traderToken, {})).statusCode).toBe(403);
    expect((await call('POST', `/longTerm/${id}/apply`, buyer.traderToken, { note: '年度保供' })).statusCode).toBe(200);
    const again = await call('POST', `/longTerm/${id}/apply`, buyer.traderToken, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('本企业已提交申请，请等待卖方处理');
    expect((await call('POST', `/longTerm/${id}/apply`, outsider.traderToken, {})).statusCode).toBe(200);

    // only the seller accepts; another enterprise's application id is not found here
    const seen = await detailOf(id, seller.traderToken);
    expect(seen.applications.map((a) => a.buyerName)).toEqual([buyer.enterprise.organName, outsider.enterprise.organName]);
    const mine = seen.applications[0]!.id;
    expect((await call('POST', `/longTerm/${id}/accept`, buyer.traderToken, { applicationId: mine })).statusCode).toBe(403);
    const accepted = await call('POST', `/longTerm/${id}/accept`, seller.traderToken, { applicationId: mine });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().result).toMatchObject({ status: 'signing', buyerName: buyer.enterprise.organName });
    // the other applicant is declined and no longer sees the buyer's name
    const declined = await detailOf(id, outsider.traderToken);
    expect(declined).toMatchObject({ myApplicationStatus: '未接受', buyerName: null, callOffs: [] });

    // the framework contract follows the acceptance's event; made again by the sweep it stays one
    await expect.poll(async () => (await db().select().from(contracts).where(eq(contracts.longTermId, id))).length, { timeout: 10_000 }).toBe(1);
    await makeFrameworkContract(db(), t.app.storage, t.clock, id);
    const [framework] = await db().select().from(contracts).where(eq(contracts.longTermId, id));
    expect(framework).toMatchObject({ kind: 'long_term', dealId: null, contractNo: `HT${draft.json().result.dealNo}`, status: 'pending' });
    const text = framework!.text.join('\n');
    expect(text).toContain('煤炭长期供应框架合同（长协）');
    expect(text).toContain(`${thisMonth.slice(0, 4)}年${thisMonth.slice(5)}月：10,000 吨`);
    expect(text).toContain('浮动价 = 浮动系数 0.5000 ×');
    const listed = (await call('GET', '/contract/list?pageNo=1&pageSize=10', buyer.traderToken)).json().result.records;
    expect(listed.map((c: { contractNo: string }) => c.contractNo)).toContain(framework!.contractNo);

    // both signed: in execution, the contract 履行中, this month priced: 680 + 0.5 × (715 − 700) = 687.50
    await transition(db(), ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, framework!.id), set: { effectiveAt: t.clock.now() } });
    await expect.poll(async () => (await detailOf(id, buyer.traderToken)).status, { timeout: 10_000 }).toBe('executing');
    expect((await db().select().from(contracts).where(eq(contracts.id, framework!.id)))[0]!.status).toBe('performing');
    const executing = await detailOf(id, buyer.traderToken);
    expect(executing.months[0]).toMatchObject({ month: thisMonth, phase: 'current', availableKg: 10_000_000 });
    expect(executing.months[0]!.price).toMatchObject({ basis: 'month_average', averageFen: 71_500, floatFen: 750, priceFen: 68_750, warning: null });
    expect(executing.months[0]!.price!.terms).toHaveLength(4);
    expect(executing.months[1]!.price).toBeNull();
    expect(executing.currentPriceFen).toBe(68_750);
    expect(executing.actions).toEqual(['requestCallOff']);
    // no order is made for a framework contract
    expect(await db().select().from(orders).where(eq(orders.contractId, framework!.id))).toHaveLength(0);
  });

  it('offers a 定向 deal to its named buyer only, and tells its credit code to the seller alone', async () => {
    const named = await call('POST', '/longTerm/offer', seller.traderToken, offer({ targetCreditCode: buyer.enterprise.creditCode }));
    expect(named.statusCode, named.body).toBe(200);
    const id = named.json().result.id as number;
    expect(named.json().result).toMatchObject({ targetName: buyer.enterprise.organName, targetCreditCode: buyer.enterprise.creditCode });
    expect((await call('GET', `/longTerm/detail?id=${id}`, outsider.traderToken)).statusCode).toBe(404);
    expect((await call('POST', `/longTerm/${id}/apply`, outsider.traderToken, {})).statusCode).toBe(404);
    expect(await detailOf(id, buyer.traderToken)).toMatchObject({ actions: ['apply'], targetCreditCode: null });
    const exported = await call('GET', '/longTerm/export', seller.traderToken);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('.xlsx');
  });

  it('holds call-offs within the month’s plan under 20 concurrent issues', async () => {
    const { id } = await executingDeal();
    const days = monthDays(thisMonth);
    const today = shanghaiDate(t.clock.now());
    const body = { month: thisMonth, quantityKg: 1_000_000, deliveryDateStart: today, deliveryDateEnd: days.last, note: '' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/longTerm/${id}/callOff`, seller.traderToken, body)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 422)).toHaveLength(10);
    expect(answers.find((a) => a.statusCode === 422)!.json()).toMatchObject({ error: 'call_off_exceeds_plan' });
    const [month] = await db().select().from(longTermMonths).where(and(eq(longTermMonths.longTermId, id), eq(longTermMonths.month, thisMonth)));
    expect(month!.reservedKg).toBe(10_000_000);
    const issued = await db().select().from(longTermCallOffs).where(eq(longTermCallOffs.longTermId, id));
    expect(issued).toHaveLength(10);
    expect(issued.every((c) => c.priceFen === 68_750 && c.amountFen === 68_750_000)).toBe(true);
    // withdrawing one gives its quantity back to the month
    expect((await call('POST', `/longTerm/callOff/${issued[0]!.id}/withdraw`, seller.traderToken)).statusCode).toBe(200);
    expect((await detailOf(id, seller.traderToken)).months[0]!.availableKg).toBe(1_000_000);
  });

  it('refuses call-offs outside the period, for another month, by outsiders and after termination', async () => {
    const { id } = await executingDeal();
    const today = shanghaiDate(t.clock.now());
    const next = addMonths(thisMonth, 1);
    const outside = await call('POST', `/longTerm/${id}/callOff`, seller.traderToken, { month: addMonths(thisMonth, 5), quantityKg: 1_000, deliveryDateStart: `${addMonths(thisMonth, 5)}-01`, deliveryDateEnd: `${addMonths(thisMonth, 5)}-02` });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().message).toContain('调运月份须在合同期');
    const future = await call('POST', `/longTerm/${id}/callOff`, seller.traderToken, { month: next, quantityKg: 1_000, deliveryDateStart: `${next}-01`, deliveryDateEnd: `${next}-02` });
    expect(future.json().message).toBe('只能发起本月的调运：月度价格在每月第一日确定');
    const body = { month: thisMonth, quantityKg: 1_000_000, deliveryDateStart: today, deliveryDateEnd: monthDays(thisMonth).last };
    // another enterprise can neither see nor act on it
    expect((await call('GET', `/longTerm/detail?id=${id}`, outsider.traderToken)).statusCode).toBe(404);
    expect((await call('POST', `/longTerm/${id}/callOff`, outsider.traderToken, body)).statusCode).toBe(404);
    const requested = await call('POST', `/longTerm/${id}/callOff`, buyer.traderToken, body);
    expect(requested.statusCode, requested.body).toBe(200);
    const callOffId = requested.json().result.callOffs[0].id as number;
    expect(requested.json().result.callOffs[0]).toMatchObject({ initiator: 'buyer', status: 'pending', actions: ['withdraw'] });
    expect((await call('POST', `/longTerm/callOff/${callOffId}/decide`, outsider.traderToken, { accept: true })).statusCode).toBe(404);
    // the requester cannot confirm its own request
    expect((await call('POST', `/longTerm/callOff/${callOffId}/decide`, buyer.traderToken, { accept: true })).statusCode).toBe(403);
    // traders cannot terminate; the operator does, and the pending request is withdrawn with it
    expect((await call('POST', `/longTerm/${id}/terminate`, seller.traderToken, { reason: '买方停产' })).statusCode).toBe(403);
    const terminated = await call('POST', `/longTerm/${id}/terminate`, operatorToken, { reason: '买方停产检修，双方协商终止' });
    expect(terminated.statusCode, terminated.body).toBe(200);
    expect(terminated.json().result).toMatchObject({ status: 'terminated', terminateReason: '买方停产检修，双方协商终止' });
    expect(terminated.json().result.callOffs[0]).toMatchObject({ status: 'withdrawn' });
    const [framework] = await db().select().from(contracts).where(eq(contracts.longTermId, id));
    expect(framework!.status).toBe('terminated');
    const after = await call('POST', `/longTerm/${id}/callOff`, seller.traderToken, body);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toBe('长协状态为「已终止」，不能发起月度调运');
  });

  it('makes exactly one deal and one monthly contract per call-off, and counts what its order delivered', async () => {
    const { id, framework } = await executingDeal();
    const today = shanghaiDate(t.clock.now());
    const issued = await call('POST', `/longTerm/${id}/callOff`, seller.traderToken, { month: thisMonth, quantityKg: 8_000_000, deliveryDateStart: today, deliveryDateEnd: monthDays(thisMonth).last });
    const callOffId = issued.json().result.callOffs[0].id as number;
    // the buyer confirms twice at once: one deal
    const confirms = await Promise.all([1, 2].map(() => call('POST', `/longTerm/callOff/${callOffId}/decide`, buyer.traderToken, { accept: true })));
    expect(confirms.map((c) => c.statusCode).sort()).toEqual([200, 409]);
    const made = await db().select().from(deals).where(and(eq(deals.tradeKind, 'long_term'), eq(deals.sourceId, callOffId)));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ quantityKg: 8_000_000, priceFen: 68_750, amountFen: 550_000_000, sellerEnterpriseId: seller.enterprise.id, buyerEnterpriseId: buyer.enterprise.id });
    await expect.poll(async () => (await db().select().from(contracts).where(eq(contracts.dealId, made[0]!.id))).length, { timeout: 10_000 }).toBe(1);
    await makeContractForDeal(db(), t.app.storage, t.clock, made[0]!.id);
    const monthly = await db().select().from(contracts).where(eq(contracts.dealId, made[0]!.id));
    expect(monthly).toHaveLength(1);
    expect(monthly[0]).toMatchObject({ kind: 'long_term_monthly' });
    expect(monthly[0]!.terms.deliveryDateStart).toBe(today);
    const text = monthly[0]!.text.join('\n');
    expect(text).toContain(`框架合同（合同编号：${framework.contractNo}`);
    expect(text).toContain('基准价 680.00 元/吨 + 浮动价 7.50 元/吨');
    const listed = (await call('GET', '/contract/list?pageNo=1&pageSize=20', buyer.traderToken)).json().result.records;
    expect(listed.map((c: { contractNo: string }) => c.contractNo)).toContain(monthly[0]!.contractNo);

    // the monthly contract takes effect: its order; 7,000 t signed for → 70 % of this month's plan
    await transition(db(), ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, monthly[0]!.id), set: { effectiveAt: t.clock.now() } });
    await makeOrderForContract(db(), t.clock, monthly[0]!.id);
    const [order] = await db().select().from(orders).where(eq(orders.contractId, monthly[0]!.id));
    expect(order).toMatchObject({ quantityKg: 8_000_000, priceFen: 68_750, dealId: made[0]!.id });
    await db().update(orders).set({ signedKg: 7_000_000 }).where(eq(orders.id, order!.id));
    const now = await detailOf(id, seller.traderToken);
    expect(now.months[0]).toMatchObject({ plannedKg: 10_000_000, calledKg: 8_000_000, deliveredKg: 7_000_000, settledKg: 0, rate: 70, flagged: false });
    expect(now.callOffs[0]).toMatchObject({ status: 'accepted', orderNo: order!.orderNo, contractNo: monthly[0]!.contractNo, deliveredKg: 7_000_000 });
    // this month is in progress: nothing flagged yet
    expect(now.fulfilment).toMatchObject({ plannedKg: 0, rate: null, flagged: false });

    // next month: the finished month is below 90 % → flagged, for both sides and the trading centre
    t.clock.advance((Date.parse(`${monthDays(thisMonth).last}T16:00:00Z`) - t.clock.now().getTime()) + DAY);
    await seller.refresh();
    await buyer.refresh();
    operatorToken = await loginAs(t.app, operatorUsername);
    await runScheduledJobs(t.app);
    const later = await detailOf(id, buyer.traderToken);
    expect(later.months[0]).toMatchObject({ phase: 'past', rate: 70, flagged: true });
    expect(later.fulfilment).toMatchObject({ plannedKg: 10_000_000, deliveredKg: 7_000_000, rate: 70, flagged: true });
    expect(later.months[1]!.price).not.toBeNull();
    const flagged = (await call('GET', '/longTerm/list?flagged=1', operatorToken)).json().result;
    expect(flagged.records.map((r: { id: number }) => r.id)).toContain(id);
    const workbench = (await t.app.inject({ method: 'GET', url: '/trade-api/api/workbench/todo', headers: { 'x-access-token': seller.traderToken } })).json().result;
    expect(workbench.todos.find((todo: { key: string }) => todo.key === 'longTermFlagged')?.count).toBeGreaterThanOrEqual(1);

    // past the period's end: 已到期, the framework contract 已完成
    t.clock.advance(3 * 31 * DAY);
    await runScheduledJobs(t.app);
    await seller.refresh();
    expect((await detailOf(id, seller.traderToken)).status).toBe('expired');
    expect((await db().select().from(contracts).where(eq(contracts.id, framework.id)))[0]!.status).toBe('completed');
  });
});
