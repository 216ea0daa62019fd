import 'reflect-metadata';
import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundAccounts, fundJournal, orderEvents, orders } from '../../db/schema/index';
import { effectiveOrder, tradingParty, type TradingParty } from '../../test/order-factory';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { newRequestId } from '../funds/funds.test-helpers';
import { reconcile } from '../funds/ledger';
import { payOrder } from '../../flows/pay-order';

const API = '/trade-api/api/order';
const DAY = 24 * 3600_000;
const payHash = (clientId: string, digits: string) => createHash('sha256').update(`${clientId}:${digits}`).digest('hex');

describe.each(testDatabaseKinds())('orders and goods payment on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: url.startsWith('/trade-api') ? url : `${API}${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });
  const account = async (enterpriseId: number) => {
    const [row] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, enterpriseId));
    return { available: row!.available, frozen: row!.frozen };
  };
  const escrowJournal = (orderId: number) =>
    t.database.db
      .select()
      .from(fundJournal)
      .where(and(eq(fundJournal.refType, 'order_escrow'), eq(fundJournal.refId, String(orderId))))
      .orderBy(fundJournal.id);
  const current = async (orderId: number) => (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const timeline = async (orderId: number) =>
    (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.id)).map((e) => e.action);
  const expectBalanced = async () => {
    for (const row of await reconcile(t.database.db)) expect(row, `enterprise ${row.enterpriseId}`).toMatchObject({ balanced: true });
  };

  it('the buyer pays: the prepayment leaves available into escrow, journaled once, the order 待发货', async () => {
    const { buyer, order } = await effectiveOrder(t);
    const before = await account(buyer.enterprise.id);
    const paid = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().message).toBe('付款成功，预付款已冻结托管');
    expect(paid.json().result).toMatchObject({ status: 'awaiting_shipment', escrow: 42_275_000, prepayment: 42_275_000, mySide: 'buyer', canPay: false });
    expect(paid.json().result.paidAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(paid.json().result.timeline.map((e: { action: string }) => e.action)).toEqual(['生成订单', '支付货款']);

    expect(await account(buyer.enterprise.id)).toEqual({ available: before.available - 42_275_000, frozen: before.frozen + 42_275_000 });
    const journal = await escrowJournal(order.id);
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({ kind: 'freeze', amount: 42_275_000, enterpriseId: buyer.enterprise.id, idempotencyKey: `order:${order.id}:escrow` });
    expect(journal[0]!.remark).toContain(order.orderNo);
    expect(await current(order.id)).toMatchObject({ status: 'awaiting_shipment', escrowFen: 42_275_000 });
    await expectBalanced();

    // 资金资产 tells the escrow apart, and 支付记录 reads the movement in Chinese terms through its ref type
    const info = await call('GET', '/trade-api/api/fundinfo/getFundInfo', buyer.adminToken);
    expect(info.json().result.escrowFrozen).toBe(42_275_000);

    // another click later, with a new request id: the earlier payment is the answer, nothing moves again
    const again = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe('订单已付款，无需重复支付');
    expect(await escrowJournal(order.id)).toHaveLength(1);
  });

  it('20 concurrent payments (same and different request ids) freeze the escrow exactly once', async () => {
    const { buyer, order } = await effectiveOrder(t);
    const before = await account(buyer.enterprise.id);
    const shared = newRequestId();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', `/${order.id}/pay`, i % 2 ? buyer.traderToken : buyer.adminToken, { requestId: i < 10 ? shared : newRequestId() }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().result).toMatchObject({ status: 'awaiting_shipment', escrow: 42_275_000 });
    }
    expect(answers.filter((a) => a.json().message === '付款成功，预付款已冻结托管')).toHaveLength(1);
    expect(await escrowJournal(order.id)).toHaveLength(1);
    expect(await account(buyer.enterprise.id)).toEqual({ available: before.available - 42_275_000, frozen: before.frozen + 42_275_000 });
    expect((await timeline(order.id)).filter((a) => a === '支付货款')).toHaveLength(1);
    await expectBalanced();
  });

  it('a shortfall is refused with funds_insufficient and nothing moves', async () => {
    // 2,000 t at 845.50 元/t is 1,691,000.00 元; the buyer has 1,000,000.00 元 less its subscription deposit
    const { buyer, order } = await effectiveOrder(t, { quantityKg: 2_000_000 });
    const before = await account(buyer.enterprise.id);
    const refused = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe('funds_insufficient');
    expect(refused.json().message).toMatch(/^可用资金不足：需要 ¥1,691,000\.00，可用 ¥/);
    expect(await account(buyer.enterprise.id)).toEqual(before);
    expect(await escrowJournal(order.id)).toHaveLength(0);
    expect(await current(order.id)).toMatchObject({ status: 'unpaid', escrowFen: 0, paidAt: null });
    expect(await timeline(order.id)).toEqual(['生成订单']);
  });

  it('only the buyer pays; the other enterprise finds no such order on any route', async () => {
    const { seller, buyer, operator, order } = await effectiveOrder(t);
    const stranger = await tradingParty(t);

    const bySeller = await call('POST', `/${order.id}/pay`, seller.traderToken, { requestId: newRequestId() });
    expect(bySeller.statusCode).toBe(403);
    expect(bySeller.json().message).toBe('只有买方可以进行该操作');
    expect((await call('POST', `/${order.id}/pay`, operator.token, { requestId: newRequestId() })).statusCode).toBe(403);

    for (const [method, url, body] of [
      ['GET', `/${order.id}`],
      ['POST', `/${order.id}/pay`, { requestId: newRequestId() }],
    ] as const) {
      const answer = await call(method, url, stranger.traderToken, body);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().message).toBe('订单不存在');
    }
    const list = await call('GET', `/list?pageSize=100`, stranger.traderToken);
    expect(list.statusCode).toBe(200);
    expect(list.json().result.records.map((r: { id: number }) => r.id)).not.toContain(order.id);
    expect((await call('GET', `/list?orderNo=${order.orderNo}`, stranger.traderToken)).json().result.total).toBe(0);
    const exported = await call('GET', `/export?orderNo=${order.orderNo}`, stranger.traderToken);
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(1); // the header only
    const payments = await call('GET', `/payments?tab=due&pageSize=100`, stranger.traderToken);
    expect(payments.json().result.records.map((r: { id: number }) => r.id)).not.toContain(order.id);

    // nothing moved for the order
    expect(await current(order.id)).toMatchObject({ status: 'unpaid', escrowFen: 0 });
    expect((await call('GET', `/${order.id}`, buyer.traderToken)).json().result.canPay).toBe(true);
    expect((await call('GET', `/${order.id}`, seller.traderToken)).json().result).toMatchObject({ canPay: false, mySide: 'seller', canTerminate: false });
  });

  it('lists with state counts and filters, and exports what the list finds', async () => {
    const seller = await tradingParty(t);
    const buyer = await tradingParty(t);
    const first = await effectiveOrder(t, { seller, buyer });
    const second = await effectiveOrder(t, { seller, buyer });
    await call('POST', `/${second.order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });

    const all = (await call('GET', '/list', buyer.traderToken)).json().result;
    expect(all.total).toBe(2);
    expect(all.counts).toMatchObject({ all: 2, unpaid: 1, awaiting_shipment: 1 });
    expect(all.records[0]).toMatchObject({ mySide: 'buyer', sellerName: expect.any(String), progress: { plannedKg: 0, signedTrucks: 0 } });

    const unpaid = (await call('GET', '/list?status=unpaid', buyer.traderToken)).json().result;
    expect(unpaid.records.map((r: { id: number }) => r.id)).toEqual([first.order.id]);
    expect(unpaid.counts).toMatchObject({ all: 2, unpaid: 1 });
    const byContract = (await call('GET', `/list?contractNo=${second.order.contractNo}`, seller.traderToken)).json().result;
    expect(byContract.records).toHaveLength(1);
    expect(byContract.records[0]).toMatchObject({ id: second.order.id, mySide: 'seller', status: 'awaiting_shipment' });
    const byCounterparty = (await call('GET', `/list?counterparty=${encodeURIComponent(seller.enterprise.organName)}`, buyer.traderToken)).json().result;
    expect(byCounterparty.total).toBe(2);
    // an enterprise searches by its counterparty, not by its own name
    expect((await call('GET', `/list?counterparty=${encodeURIComponent(buyer.enterprise.organName)}`, buyer.traderToken)).json().result.total).toBe(0);

    const badDay = await call('GET', '/list?dateFrom=2026-02-30', buyer.traderToken);
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().message).toContain('开始日期不是有效日期');
    const today = new Date(t.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await call('GET', `/list?dateFrom=${today}&dateTo=${today}`, buyer.traderToken)).json().result.total).toBe(2);

    const exported = await call('GET', `/export?status=awaiting_shipment`, buyer.traderToken);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe(second.order.orderNo);
    expect(sheet.getRow(2).getCell(3).value).toBe('买方');
    expect(sheet.getRow(2).getCell(14).value).toBe('待发货');

    // 货款支付: the buyer's due and paid tabs; the seller sees the same orders read-only
    const due = (await call('GET', '/payments?tab=due', buyer.traderToken)).json().result;
    expect(due.records.map((r: { id: number }) => r.id)).toEqual([first.order.id]);
    const history = (await call('GET', '/payments?tab=paid', buyer.traderToken)).json().result;
    expect(history.records.map((r: { id: number }) => r.id)).toEqual([second.order.id]);
    expect(history.records[0].paidAt).not.toBeNull();
    const owed = (await call('GET', '/payments?tab=due', seller.traderToken)).json().result;
    expect(owed.records[0]).toMatchObject({ id: first.order.id, mySide: 'seller' });
  });

  it('the operator terminates with a reason and the escrow goes back; a trader may not; a terminated order cannot be paid', async () => {
    const { buyer, operator, order } = await effectiveOrder(t);
    const before = await account(buyer.enterprise.id);
    await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });

    const byTrader = await call('POST', `/${order.id}/terminate`, buyer.adminToken, { reason: '双方协商一致解除' });
    expect(byTrader.statusCode).toBe(403);
    const short = await call('POST', `/${order.id}/terminate`, operator.token, { reason: '短' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('终止原因至少 2 个字');
    expect(await current(order.id)).toMatchObject({ status: 'awaiting_shipment', escrowFen: 42_275_000 });

    const done = await call('POST', `/${order.id}/terminate`, operator.token, { reason: '双方协商一致解除合同' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().result).toMatchObject({ status: 'terminated', escrow: 0, terminateReason: '双方协商一致解除合同', canTerminate: false });
    expect(done.json().result.timeline.at(-1)).toMatchObject({ action: '终止订单', note: '双方协商一致解除合同；托管货款 ¥422,750.00 已解冻退回买方' });
    expect(await account(buyer.enterprise.id)).toEqual(before);
    expect((await escrowJournal(order.id)).map((j) => [j.kind, j.amount])).toEqual([
      ['freeze', 42_275_000],
      ['release', 42_275_000],
    ]);
    await expectBalanced();

    const payAgain = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(payAgain.statusCode).toBe(409);
    expect(payAgain.json().message).toBe('订单已终止，不能付款');
    const again = await call('POST', `/${order.id}/terminate`, operator.token, { reason: '重复终止' });
    expect(again.statusCode).toBe(409);
    expect((await escrowJournal(order.id))).toHaveLength(2);

    // an unpaid order ends without touching money
    const unpaid = await effectiveOrder(t);
    const quiet = await call('POST', `/${unpaid.order.id}/terminate`, unpaid.operator.token, { reason: '买方逾期未付款' });
    expect(quiet.json().result).toMatchObject({ status: 'terminated', escrow: 0 });
    expect(await escrowJournal(unpaid.order.id)).toHaveLength(0);
    const refused = await call('POST', `/${unpaid.order.id}/pay`, unpaid.buyer.traderToken, { requestId: newRequestId() });
    expect(refused.statusCode).toBe(409);
  });

  it("past the deadline unpaid: on the operator's and the buyer's 待办; paying late is still accepted", async () => {
    const buyer: TradingParty = await tradingParty(t);
    const { order, operator } = await effectiveOrder(t, { buyer });
    const workbench = async (token: string) => (await call('GET', '/trade-api/api/workbench/todo', token)).json().result.todos as { key: string; count: number; path: string }[];
    const overdueInDb = async () =>
      (await t.database.db.select().from(orders).where(eq(orders.status, 'unpaid'))).filter((o) => o.paymentDeadline < t.clock.now()).length;
    expect((await workbench(operator.token)).find((x) => x.key === 'overdueOrders')!.count).toBe(await overdueInDb());
    expect((await workbench(buyer.traderToken)).find((x) => x.key === 'ordersToPay')).toMatchObject({ count: 1, path: '/settlement/payment?tab=due&side=buyer' });

    t.clock.advance(order.paymentDeadline.getTime() - t.clock.now().getTime() + DAY);
    await buyer.refresh();
    const fresh = await signedIn(t.app, t.database.db, { role: 'operator' });
    const overdue = (await workbench(fresh.token)).find((x) => x.key === 'overdueOrders')!;
    const before = await overdueInDb();
    expect(before).toBeGreaterThan(0);
    expect(overdue.count).toBe(before);
    expect(overdue.path).toBe('/order/list?status=unpaid&overdue=1');
    const listed = (await call('GET', '/list?overdue=1&pageSize=100', fresh.token)).json().result.records as { id: number; overdue: boolean }[];
    expect(listed.find((r) => r.id === order.id)).toMatchObject({ overdue: true });
    // still 待付款: nothing terminates it but the operator
    expect(await current(order.id)).toMatchObject({ status: 'unpaid' });

    const late = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().result.timeline.at(-1).note).toContain('已超过付款期限');
    expect((await workbench(fresh.token)).find((x) => x.key === 'overdueOrders')!.count).toBe(before - 1);
    expect((await workbench(buyer.traderToken)).find((x) => x.key === 'ordersToPay')!.count).toBe(0);
  });

  it('with the pay password switch on the password is checked before anything moves; the seeder calls the same service with it off', async () => {
    const { buyer, order } = await effectiveOrder(t);
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const right = payHash(buyer.enterprise.clientId, '246810');
    expect((await call('POST', '/trade-api/api/funds/payPassword/set', buyer.adminToken, { password: right })).statusCode).toBe(200);
    expect((await call('PUT', '/trade-api/sys/switch/update', admin.token, { code: 'PayPassword', content: '1' })).statusCode).toBe(200);
    try {
      const missing = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toBe('请输入支付密码');
      const wrong = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId(), payPassword: payHash(buyer.enterprise.clientId, '000000') });
      expect(wrong.json().message).toContain('支付密码错误');
      expect(await escrowJournal(order.id)).toHaveLength(0);
      const paid = await call('POST', `/${order.id}/pay`, buyer.traderToken, { requestId: newRequestId(), payPassword: right });
      expect(paid.statusCode, paid.body).toBe(200);
    } finally {
      await call('PUT', '/trade-api/sys/switch/update', admin.token, { code: 'PayPassword', content: '0' });
    }

    const other = await effectiveOrder(t);
    const { detail, replayed } = await payOrder(t.database.db, t.clock, t.app.ukeyVerifier, other.buyer.traderActor, other.order.id, { requestId: newRequestId() });
    expect(replayed).toBe(false);
    expect(detail.status).toBe('awaiting_shipment');
  });
});
