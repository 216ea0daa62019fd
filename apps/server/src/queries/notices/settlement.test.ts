import 'reflect-metadata';
import { formatFen, invoiceSplitOf } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users, type Order, type WebhookEndpoint } from '../../db/schema/index';
import { deliveryFixture } from '../../test/delivery-fixture';
import { testDatabaseKinds } from '../../test/test-app';
import { endpointFor, messagesOf, settled, textsOf, webhookBodiesOf, webhookReceiver } from '../../test/notices';

const HOUR = 3600_000;

let serial = 0;
/** A 数电 invoice number never used before in this run. */
const digitalNo = () => `2611${String(Date.now()).slice(-8)}${String(++serial).padStart(8, '0')}`;

describe.each(testDatabaseKinds())('notices of statements and invoices on %s', (kind) => {
  const fixture = deliveryFixture(kind);
  const { t, seller, buyer, operator, db, later, call, upload } = fixture;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let sellerHook: WebhookEndpoint;
  let buyerHook: WebhookEndpoint;
  let operatorId = 0;

  beforeAll(async () => {
    receiver = await webhookReceiver();
    sellerHook = await endpointFor(db(), seller.enterprise.id, receiver.url);
    buyerHook = await endpointFor(db(), buyer.enterprise.id, receiver.url);
    operatorId = (await db().select().from(users).where(eq(users.username, operator.username)))[0]!.id;
  });
  afterAll(async () => receiver?.close());

  const orderRow = async (id: number) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
  const mentioning = async (userId: number, kind: string, text: string) => (await messagesOf(db(), userId, kind)).filter((m) => m.content.includes(text));
  let seq = 0;
  const ticket = (netKg: number, photo: string) => ({ ticketNo: `ST-${kind}-${++seq}`, grossKg: netKg + 15_000, tareKg: 15_000, netKg, weighedAt: t.clock.now().toISOString(), photo });

  /** An order delivered through the delivery routes (one truck signed, 交货完毕, the seller's lab report accepted): 待结算. */
  async function deliveredOrder(): Promise<Order> {
    const { order, driver } = await fixture.readyOrder({ testingBasis: 'seller' });
    const sent = await call('POST', '/delivery/dispatch', seller.traderToken, { orderId: order.id, driverId: driver.id, plannedKg: 40_000, planDate: order.terms.deliveryDateStart });
    expect(sent.statusCode, sent.body).toBe(200);
    const truck = sent.json().result.id as number;
    expect((await call('POST', `/delivery/dispatch/${truck}/loading`, seller.traderToken, ticket(40_000, await upload(seller.traderToken)))).statusCode).toBe(200);
    await later(HOUR);
    expect((await call('POST', `/delivery/dispatch/${truck}/arrival`, buyer.traderToken, ticket(39_950, await upload(buyer.traderToken)))).statusCode).toBe(200);
    expect((await call('POST', `/delivery/dispatch/${truck}/sign`, buyer.traderToken, {})).statusCode).toBe(200);
    const finished = await call('POST', `/delivery/order/${order.id}/finish`, seller.traderToken, {});
    expect(finished.statusCode, finished.body).toBe(200);
    const report = await call('POST', `/delivery/order/${order.id}/quality-report`, seller.traderToken, {
      lab: 'seller', labName: '晋北煤业化验中心', reportNo: `HY-S-${kind}-${++seq}`, qnet: 5500, mt: 8, st: 0.6, ad: 11, vdaf: 29.1, testedAt: '2026-11-25', batch: '', file: await upload(seller.traderToken),
    });
    expect(report.statusCode, report.body).toBe(200);
    expect((await call('POST', `/delivery/quality-report/${report.json().result.id}/answer`, buyer.traderToken, { accept: true })).statusCode).toBe(200);
    const row = await orderRow(order.id);
    expect(row.status).toBe('awaiting_settlement');
    return row;
  }

  const issue = async (order: Order) => {
    const issued = await call('POST', '/settlement/statements', seller.traderToken, { orderId: order.id });
    expect(issued.statusCode, issued.body).toBe(200);
    await settled(t);
    return issued.json().result as { id: number; statementNo: string; amountFen: number };
  };

  it('a statement: the buyer is asked to confirm; a dispute goes to the seller (urgent) and the operator; the rulings and the confirmation to both; webhooks with the numbers', async () => {
    const order = await deliveredOrder();
    const first = await issue(order);
    const link = `/settlement/info?id=${first.id}`;
    const [toConfirm] = await mentioning(buyer.admin.id, 'statement.to_confirm', first.statementNo);
    expect(toConfirm).toMatchObject({ title: '结算单待确认', category: 'settlement', link, urgent: false });
    expect(toConfirm!.content).toContain(`${formatFen(first.amountFen)} 元`);
    expect(await mentioning(seller.admin.id, 'statement.to_confirm', first.statementNo)).toHaveLength(0);
    const issuedHook = (await webhookBodiesOf(db(), buyerHook.id, 'statement.issued')).find((b) => b.data.statementNo === first.statementNo);
    expect(issuedHook!.data).toMatchObject({ orderNo: order.orderNo, contractNo: order.contractNo, amountFen: first.amountFen, status: 'pending' });

    expect((await call('POST', `/settlement/statements/${first.id}/dispute`, buyer.traderToken, { reason: '签收重量有误' })).statusCode).toBe(200);
    await settled(t);
    const [disputed] = await mentioning(seller.trader.id, 'statement.disputed', first.statementNo);
    expect(disputed).toMatchObject({ urgent: true, link });
    expect(disputed!.content).toContain('签收重量有误');
    expect(await textsOf(db(), [disputed!.id])).toHaveLength(1);
    const [toRule] = await mentioning(operatorId, 'todo.statement_disputed', first.statementNo);
    expect(toRule).toMatchObject({ title: '待裁定结算异议', category: 'todo', link });

    expect((await call('POST', `/settlement/statements/${first.id}/rule`, operator.token, { uphold: false, note: '请卖方核对后重开' })).statusCode).toBe(200);
    await settled(t);
    for (const userId of [seller.admin.id, buyer.admin.id]) {
      const [returned] = await mentioning(userId, 'statement.returned', first.statementNo);
      expect(returned!.content).toContain('请卖方核对后重开');
    }

    const second = await issue(order);
    expect(await mentioning(buyer.trader.id, 'statement.to_confirm', second.statementNo)).toHaveLength(1);
    expect((await call('POST', `/settlement/statements/${second.id}/dispute`, buyer.traderToken, { reason: '仍有异议' })).statusCode).toBe(200);
    expect((await call('POST', `/settlement/statements/${second.id}/rule`, operator.token, { uphold: true, note: '磅单无误' })).statusCode).toBe(200);
    await settled(t);
    for (const userId of [seller.admin.id, buyer.admin.id]) {
      const [upheld] = await mentioning(userId, 'statement.upheld', second.statementNo);
      expect(upheld).toMatchObject({ title: '结算异议已裁定：维持', link: `/settlement/info?id=${second.id}` });
    }
    expect((await webhookBodiesOf(db(), sellerHook.id, 'statement.confirmed')).find((b) => b.data.statementNo === second.statementNo)!.data).toMatchObject({ settledBy: 'ruling', status: 'confirmed' });

    // another order: confirmed by the buyer
    const other = await deliveredOrder();
    const third = await issue(other);
    const confirmed = await call('POST', `/settlement/statements/${third.id}/confirm`, buyer.traderToken, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await settled(t);
    for (const userId of [seller.trader.id, buyer.trader.id]) expect(await mentioning(userId, 'statement.confirmed', third.statementNo)).toHaveLength(1);
    expect((await webhookBodiesOf(db(), buyerHook.id, 'statement.confirmed')).find((b) => b.data.statementNo === third.statementNo)!.data).toMatchObject({ settledBy: 'buyer', orderNo: other.orderNo });
  });

  it('an invoice: the buyer is asked to confirm it, the seller hears the confirmation, a red-letter reversal goes to the buyer; webhooks with the numbers', async () => {
    const order = await deliveredOrder();
    const statement = await issue(order);
    expect((await call('POST', `/settlement/statements/${statement.id}/confirm`, buyer.traderToken, {})).statusCode).toBe(200);
    const settledFen = (await orderRow(order.id)).settledFen!;
    const today = () => new Date(t.clock.now().getTime() + 8 * HOUR).toISOString().slice(0, 10);
    const body = async (totalFen: number) => ({ kind: 'special', medium: 'digital', code: '', number: digitalNo(), issuedOn: today(), rate: 13, ...invoiceSplitOf(totalFen, 13), total: totalFen, file: await upload(seller.traderToken) });

    const half = Math.floor(settledFen / 2);
    const first = await call('POST', `/invoice/order/${order.id}`, seller.traderToken, await body(half));
    expect(first.statusCode, first.body).toBe(200);
    const invoice = first.json().result as { id: number; number: string };
    await settled(t);
    const [toConfirm] = await mentioning(buyer.admin.id, 'invoice.to_confirm', invoice.number);
    expect(toConfirm).toMatchObject({ title: '发票待确认', link: '/invoice/list?tab=pending' });
    expect(toConfirm!.content).toContain(`${formatFen(half)} 元`);
    expect(toConfirm!.content).toContain(order.orderNo);
    expect(await mentioning(seller.admin.id, 'invoice.to_confirm', invoice.number)).toHaveLength(0);
    expect((await webhookBodiesOf(db(), buyerHook.id, 'invoice.registered')).find((b) => b.data.number === invoice.number)!.data).toMatchObject({ orderNo: order.orderNo, totalFen: half, direction: 'blue' });

    expect((await call('POST', `/invoice/${invoice.id}/confirm`, buyer.traderToken, { note: '已收到' })).statusCode).toBe(200);
    await settled(t);
    expect(await mentioning(seller.trader.id, 'invoice.confirmed', invoice.number)).toHaveLength(1);

    const second = (await call('POST', `/invoice/order/${order.id}`, seller.traderToken, await body(settledFen - half))).json().result as { id: number; number: string };
    const redNumber = digitalNo();
    const red = await call('POST', `/invoice/${second.id}/reverse`, seller.traderToken, { medium: 'digital', code: '', number: redNumber, issuedOn: today(), reason: '开票金额有误', file: await upload(seller.traderToken) });
    expect(red.statusCode, red.body).toBe(200);
    await settled(t);
    const [reversed] = await mentioning(buyer.admin.id, 'invoice.reversed', second.number);
    expect(reversed!.content).toContain(redNumber);
    expect(reversed!.content).toContain('开票金额有误');
    // the red-letter invoice itself asks nobody to confirm it
    expect(await mentioning(buyer.admin.id, 'invoice.to_confirm', redNumber)).toHaveLength(0);
    expect((await webhookBodiesOf(db(), sellerHook.id, 'invoice.reversed')).find((b) => b.data.number === second.number)!.data).toMatchObject({ redNumber, status: 'reversed' });
  });
});
