import 'reflect-metadata';
import { invoiceSplitOf } from '@coalx/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, invoices, orderEvents, orders, type Order } from '../../db/schema/index';
import { gradientPng } from '../../lib/simple-png';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { effectiveOrder, tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { markOrderSettled, moveOrder } from '../order/order.service';

const PNG = gradientPng(8, 8, [10, 20, 30], [200, 210, 220]);
const DAY = 24 * 3600_000;

/** An invoice at 13 % whose total is exactly `totalFen`. */
function split(totalFen: number, rate = 13) {
  return { ...invoiceSplitOf(totalFen, rate), total: totalFen };
}

let serial = 0;
/** A 数电 number never used before in this run. */
const digitalNo = () => `2611${String(Date.now()).slice(-8)}${String(++serial).padStart(8, '0')}`;

describe.each(testDatabaseKinds())('VAT invoices on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let outsider: TradingParty;
  let operatorToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    seller = await tradingParty(t);
    buyer = await tradingParty(t);
    outsider = await tradingParty(t);
    operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  }, 120_000);
  afterAll(async () => t?.close());

  const db = () => t.database.db;
  const api = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    t.app.inject({ method, url: `/trade-api/api/invoice${url}`, headers: { 'x-access-token': token }, ...(body ? { payload: body } : {}) });

  async function upload(token: string): Promise<string> {
    const { payload, headers } = multipart({ name: '发票.png', data: PNG });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
    expect(response.statusCode).toBe(200);
    return response.json().result.url as string;
  }

  /** An order taken to 待结算 (no prepayment) and settled at `settledFen` by the order service, as settlement will. */
  async function settledOrder(settledFen = 42_275_000, settle = true): Promise<Order> {
    const { order } = await effectiveOrder(t, { seller, buyer, terms: { prepaymentPct: 0, transportArranger: 'seller' } });
    await moveOrder(db(), order.id, 'ship');
    const delivered = await moveOrder(db(), order.id, 'finishDelivery');
    if (!settle) return delivered;
    return db().transaction((tx) => markOrderSettled(tx, order.id, { statementNo: `JS${order.orderNo.slice(2)}`, settledFen, at: t.clock.now(), actor: null }));
  }

  const today = () => new Date(t.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
  async function invoiceBody(totalFen: number, over: Record<string, unknown> = {}) {
    return { kind: 'special', medium: 'digital', code: '', number: digitalNo(), issuedOn: today(), rate: 13, ...split(totalFen), file: await upload(seller.traderToken), ...over };
  }
  async function redBody(over: Record<string, unknown> = {}) {
    return { medium: 'digital', code: '', number: digitalNo(), issuedOn: today(), reason: '开票金额有误', file: await upload(seller.traderToken), ...over };
  }
  const invoiceCount = async (orderId: number) => (await db().select({ n: count() }).from(invoices).where(eq(invoices.orderId, orderId)))[0]!.n;
  const orderRow = async (id: number) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;

  it('refusals, each storing nothing: not settled, the wrong side, another enterprise, number formats, totals over the settled amount, dates, a duplicate number', async () => {
    const unsettled = await settledOrder(42_275_000, false);
    const early = await api('POST', `/order/${unsettled.id}`, seller.traderToken, await invoiceBody(1_000_000));
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('订单当前状态为「待结算」，只有已结算的订单可以登记发票');

    const order = await settledOrder(42_275_000);
    const body = await invoiceBody(42_275_000);
    const cases: [Awaited<ReturnType<typeof api>>, number, string][] = [
      [await api('POST', `/order/${order.id}`, outsider.traderToken, { ...body, file: await upload(outsider.traderToken) }), 404, '订单不存在'],
      [await api('POST', `/order/${order.id}`, buyer.traderToken, { ...body, file: await upload(buyer.traderToken) }), 403, '只有卖方可以登记或红冲发票'],
      [await api('POST', `/order/${order.id}`, operatorToken, body), 403, '只有卖方可以登记或红冲发票'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, number: '2611000000000000123' }), 400, '数电发票号码应为 20 位数字'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, number: '261100000000000012345' }), 400, '数电发票号码应为 20 位数字'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, medium: 'paper', code: '1400191130', number: '0123456' }), 400, '纸质发票号码应为 8 位数字'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, kind: 'ordinary', medium: 'paper', code: '14001911', number: '01234567' }), 400, '纸质发票代码应为 10 位或 12 位数字'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, tax: body.tax + 2, total: body.total + 2 }), 400, '税额应为不含税金额'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, total: body.total - 1 }), 400, '价税合计应等于不含税金额加税额'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, medium: 'paper', code: '140019113011', number: '01234567' }), 400, '增值税专用发票代码应为 10 位数字'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, rate: 9, ...split(42_275_000, 9) }), 422, '发票税率须与合同约定一致：合同价格含 13% 增值税，本张为 9%'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(42_275_001)), 422, '发票价税合计超过结算金额：结算金额 422,750.00 元，已登记 0.00 元，本张最多 422,750.00 元'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, issuedOn: new Date(t.clock.now().getTime() + 8 * 3600_000 + DAY).toISOString().slice(0, 10) }), 422, '开票日期不能晚于今天'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, issuedOn: '2020-01-01' }), 422, '开票日期不能早于订单结算日期'],
      [await api('POST', `/order/${order.id}`, seller.traderToken, { ...body, file: await upload(outsider.traderToken) }), 422, '附件无效'],
    ];
    for (const [response, status, message] of cases) {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
    }
    expect(await invoiceCount(order.id)).toBe(0);

    const first = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(20_000_000));
    expect(first.statusCode, first.body).toBe(200);
    // the same number again (on this order or another) is refused
    const again = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(1_000_000, { number: first.json().result.number }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`发票号码 ${first.json().result.number} 已登记，不能重复登记`);
    // not a fen more than the settled amount
    const over = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(22_275_001));
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain('已登记 200,000.00 元，本张最多 222,750.00 元');
    const fits = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(22_275_000));
    expect(fits.statusCode, fits.body).toBe(200);
    // paper: the same number under another code is another invoice
    const paperOrder = await settledOrder(2_000_000);
    const paper = await api('POST', `/order/${paperOrder.id}`, seller.traderToken, await invoiceBody(1_000_000, { medium: 'paper', code: '1400191130', number: '00012345', kind: 'ordinary' }));
    expect(paper.statusCode, paper.body).toBe(200);
    const otherCode = await api('POST', `/order/${paperOrder.id}`, seller.traderToken, await invoiceBody(1_000_000, { medium: 'paper', code: '140019113011', number: '00012345', kind: 'ordinary' }));
    expect(otherCode.statusCode, otherCode.body).toBe(200);
    const samePaper = await api('POST', `/order/${paperOrder.id}`, seller.traderToken, await invoiceBody(1, { medium: 'paper', code: '1400191130', number: '00012345' }));
    expect(samePaper.statusCode).toBe(409);
    expect(samePaper.json().message).toBe('发票代码 1400191130 号码 00012345 已登记，不能重复登记');
    expect(await invoiceCount(paperOrder.id)).toBe(2);
  });

  it('the buyer confirms; a red-letter invoice reverses one and reopens the requirement; the last confirmation completes order and contract', async () => {
    const order = await settledOrder(42_275_000);
    const first = (await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(22_600_000))).json().result;
    expect(first).toMatchObject({ status: 'pending', direction: 'blue', amount: 20_000_000, tax: 2_600_000, total: 22_600_000, actions: ['reverse'] });
    const buyerView = (await api('GET', `/${first.id}`, buyer.traderToken)).json().result;
    expect(buyerView.actions).toEqual(['confirm']);
    expect((await api('GET', `/${first.id}`, outsider.traderToken)).statusCode).toBe(404);

    // only the buyer confirms
    expect((await api('POST', `/${first.id}/confirm`, seller.traderToken, {})).statusCode).toBe(403);
    expect((await api('POST', `/${first.id}/confirm`, outsider.traderToken, {})).json().message).toBe('发票不存在');
    const confirmed = await api('POST', `/${first.id}/confirm`, buyer.traderToken, {});
    expect(confirmed.json().result.status).toBe('confirmed');
    expect((await api('POST', `/${first.id}/confirm`, buyer.traderToken, {})).statusCode).toBe(409);
    expect((await orderRow(order.id)).status).toBe('settled'); // 226,000 of 422,750

    const second = (await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(19_675_000))).json().result;
    let due = (await api('GET', `/order/${order.id}`, seller.traderToken)).json().result.due;
    expect(due).toMatchObject({ settled: 42_275_000, invoiced: 42_275_000, confirmed: 22_600_000, remaining: 0, canRegister: false });
    expect((await api('GET', '/due?pageSize=100', seller.traderToken)).json().result.records.map((r: { orderId: number }) => r.orderId)).not.toContain(order.id);

    // 红冲 the second: the buyer may not, the seller registers the red-letter invoice
    expect((await api('POST', `/${second.id}/reverse`, buyer.traderToken, await redBody())).statusCode).toBe(403);
    const red = await api('POST', `/${second.id}/reverse`, seller.traderToken, await redBody());
    expect(red.statusCode, red.body).toBe(200);
    expect(red.json().result).toMatchObject({ direction: 'red', status: 'red', amount: -second.amount, tax: -second.tax, total: -19_675_000, reversesNumber: second.number, actions: [] });
    const reversed = (await api('GET', `/${second.id}`, buyer.traderToken)).json().result;
    expect(reversed).toMatchObject({ status: 'reversed', reversedByNumber: red.json().result.number, actions: [], reverseReason: '开票金额有误' });
    expect((await api('POST', `/${second.id}/reverse`, seller.traderToken, await redBody())).statusCode).toBe(409);
    expect((await api('POST', `/${red.json().result.id}/confirm`, buyer.traderToken, {})).statusCode).toBe(422);
    // the requirement reopens
    due = (await api('GET', `/order/${order.id}`, seller.traderToken)).json().result.due;
    expect(due).toMatchObject({ invoiced: 22_600_000, remaining: 19_675_000, canRegister: true });
    const dueList = (await api('GET', '/due?pageSize=100', seller.traderToken)).json().result.records;
    expect(dueList.find((r: { orderId: number }) => r.orderId === order.id)).toMatchObject({ remaining: 19_675_000 });

    const third = (await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(19_675_000))).json().result;
    const done = await api('POST', `/${third.id}/confirm`, buyer.traderToken, { note: '已收到' });
    expect(done.statusCode, done.body).toBe(200);
    const after = await orderRow(order.id);
    expect(after.status).toBe('completed');
    expect(after.completedAt).not.toBeNull();
    const [contract] = await db().select().from(contracts).where(eq(contracts.id, after.contractId));
    expect(contract!.status).toBe('completed');
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['登记发票', '确认收票', '红冲发票', '订单完成']));
    // complete: no more invoices, no reversal
    expect((await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(100))).statusCode).toBe(422);
    const late = await api('POST', `/${first.id}/reverse`, seller.traderToken, await redBody());
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('订单当前状态为「已完成」，只有已结算的订单可以红冲发票');
  });

  it('concurrent registrations never exceed the settled amount; concurrent confirmations complete the order once', async () => {
    const order = await settledOrder(10_000_000);
    const bodies = await Promise.all(Array.from({ length: 8 }, () => invoiceBody(6_000_000)));
    const answers = await Promise.all(bodies.map((b) => api('POST', `/order/${order.id}`, seller.traderToken, b)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(7);
    const second = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(4_000_000));
    const ids = [answers.find((a) => a.statusCode === 200)!.json().result.id, second.json().result.id];
    const confirms = await Promise.all([...ids, ...ids].map((id) => api('POST', `/${id}/confirm`, buyer.traderToken, {})));
    expect(confirms.filter((c) => c.statusCode === 200)).toHaveLength(2);
    expect((await orderRow(order.id)).status).toBe('completed');
    const completions = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(completions.filter((e) => e.action === '订单完成')).toHaveLength(1);
  });

  it('the invoices total the settled amount exactly: nothing after it, not even concurrent 1-fen invoices; a red 专票 keeps the 10-digit code', async () => {
    const order = await settledOrder(600_003);
    // six invoices of 1,000.01 元 at once: 3 fen over together, so only five fit (the old rule let one fen per invoice pass)
    const bodies = await Promise.all(Array.from({ length: 6 }, () => invoiceBody(100_001)));
    const answers = await Promise.all(bodies.map((b) => api('POST', `/order/${order.id}`, seller.traderToken, b)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode !== 200)!;
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('发票价税合计超过结算金额：结算金额 6,000.03 元，已登记 5,000.05 元，本张最多 999.98 元');
    let due = (await api('GET', `/order/${order.id}`, seller.traderToken)).json().result.due;
    expect(due).toMatchObject({ settled: 600_003, invoiced: 500_005, remaining: 99_998, rate: 13, canRegister: true });

    // the rest exactly, on a paper 专票 (10-digit code)
    const last = await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(99_998, { medium: 'paper', code: '1400261130', number: String(order.id).padStart(8, '0') }));
    expect(last.statusCode, last.body).toBe(200);
    due = (await api('GET', `/order/${order.id}`, seller.traderToken)).json().result.due;
    expect(due).toMatchObject({ invoiced: 600_003, remaining: 0, canRegister: false });
    // five 1-fen invoices after the exact total, at once: every one refused
    const pennies = await Promise.all((await Promise.all(Array.from({ length: 5 }, () => invoiceBody(1)))).map((b) => api('POST', `/order/${order.id}`, seller.traderToken, b)));
    for (const penny of pennies) {
      expect(penny.statusCode, penny.body).toBe(422);
      expect(penny.json().message).toContain('本张最多 0.00 元');
    }
    const live = await db().select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(live.reduce((sum, i) => sum + i.totalFen, 0)).toBe(600_003);

    // its red-letter invoice is a 专票 too: a 12-digit code is refused, a 10-digit one taken
    const lastId = last.json().result.id as number;
    const twelve = await api('POST', `/${lastId}/reverse`, seller.traderToken, await redBody({ medium: 'paper', code: '140026113011', number: '87654321' }));
    expect(twelve.statusCode).toBe(422);
    expect(twelve.json().message).toBe('增值税专用发票代码应为 10 位数字');
    const ten = await api('POST', `/${lastId}/reverse`, seller.traderToken, await redBody({ medium: 'paper', code: '1400261131', number: String(order.id).padStart(8, '0') }));
    expect(ten.statusCode, ten.body).toBe(200);
  });

  it('lists: each side its own, the operator all; filters, export and the file behind the order policy', async () => {
    const order = await settledOrder(5_000_000);
    const inv = (await api('POST', `/order/${order.id}`, seller.traderToken, await invoiceBody(5_000_000))).json().result;
    const find = async (token: string, query = '') =>
      (await api('GET', `/list?pageSize=100${query}`, token)).json().result.records.some((r: { id: number }) => r.id === inv.id);
    expect(await find(seller.traderToken)).toBe(true);
    expect(await find(buyer.adminToken)).toBe(true);
    expect(await find(operatorToken)).toBe(true);
    expect(await find(outsider.traderToken)).toBe(false);
    expect(await find(buyer.traderToken, '&status=pending')).toBe(true);
    expect(await find(buyer.traderToken, '&status=confirmed')).toBe(false);
    expect(await find(buyer.traderToken, `&number=${inv.number.slice(-6)}&orderNo=${order.orderNo}`)).toBe(true);
    expect(await find(operatorToken, `&counterparty=${encodeURIComponent('不存在的企业')}`)).toBe(false);

    const exported = await api('GET', `/export?orderNo=${order.orderNo}`, seller.traderToken);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');

    const file = await api('GET', `/${inv.id}/file`, buyer.traderToken);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await api('GET', `/${inv.id}/file`, outsider.traderToken)).statusCode).toBe(404);
    expect((await api('GET', `/${inv.id}/file`, operatorToken)).statusCode).toBe(200);
  });
});
