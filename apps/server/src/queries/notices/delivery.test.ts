import 'reflect-metadata';
import { formatFen } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatches, orders, users, type Order, type WebhookEndpoint } from '../../db/schema/index';
import { newRequestId } from '../../modules/funds/funds.test-helpers';
import { deliveryFixture } from '../../test/delivery-fixture';
import { effectiveOrder } from '../../test/order-factory';
import { testDatabaseKinds } from '../../test/test-app';
import { endpointFor, messagesOf, schedulerRound, settled, textsOf, webhookBodiesOf, webhookReceiver } from '../../test/notices';

const HOUR = 3600_000;

describe.each(testDatabaseKinds())('notices of orders, trucks and lab reports on %s', (kind) => {
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

  /** The user's messages of a kind that link to this page. */
  const linked = async (userId: number, kind: string, link: string) => (await messagesOf(db(), userId, kind)).filter((m) => m.link === link);
  const orderRow = async (id: number) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
  const truckRow = async (id: number) => (await db().select().from(dispatches).where(eq(dispatches.id, id)))[0]!;

  let ticketSeq = 0;
  const ticket = (netKg: number, photo: string) => ({ ticketNo: `TK-${kind}-${++ticketSeq}`, grossKg: netKg + 15_000, tareKg: 15_000, netKg, weighedAt: t.clock.now().toISOString(), photo });
  async function dispatched(order: Order, driverId: number) {
    const sent = await call('POST', '/delivery/dispatch', seller.traderToken, { orderId: order.id, driverId, plannedKg: 40_000, planDate: order.terms.deliveryDateStart });
    expect(sent.statusCode, sent.body).toBe(200);
    return sent.json().result.id as number;
  }
  /** A truck of the order taken through loading (40 t) and, an hour later, arrival (the given net). */
  async function arrived(order: Order, driverId: number, arrivedNetKg = 39_950) {
    const id = await dispatched(order, driverId);
    const loading = await call('POST', `/delivery/dispatch/${id}/loading`, seller.traderToken, ticket(40_000, await upload(seller.traderToken)));
    expect(loading.statusCode, loading.body).toBe(200);
    await later(HOUR);
    const arrival = await call('POST', `/delivery/dispatch/${id}/arrival`, buyer.traderToken, ticket(arrivedNetKg, await upload(buyer.traderToken)));
    expect(arrival.statusCode, arrival.body).toBe(200);
    return id;
  }

  it('an order: the buyer is told to pay (urgent, by SMS), reminded a day before the deadline once, told once past it with the operator; paying tells the seller; terminating tells both', async () => {
    const { order } = await effectiveOrder(t, { seller, buyer });
    const { order: other } = await effectiveOrder(t, { seller, buyer });
    expect(order.status).toBe('unpaid');
    await settled(t);
    const link = `/order/info?id=${order.id}`;
    const [toPay] = await linked(buyer.admin.id, 'order.to_pay', link);
    expect(toPay).toMatchObject({ title: '订单待付款', category: 'delivery', urgent: true });
    expect(toPay!.dueAt!.toISOString()).toBe(order.paymentDeadline.toISOString());
    expect(toPay!.content).toContain(order.orderNo);
    expect(toPay!.content).toContain(`预付款 ${formatFen(order.prepaymentFen)} 元`);
    expect(await linked(buyer.trader.id, 'order.to_pay', link)).toHaveLength(1);
    expect(await linked(seller.admin.id, 'order.to_pay', link)).toHaveLength(0);
    const [text] = await textsOf(db(), [toPay!.id]);
    expect(text!.body.startsWith('【CoalX】')).toBe(true);
    expect(text!.body).toContain(order.orderNo);
    expect(Array.from(text!.body).length).toBeLessThanOrEqual(70);

    // more than a day before the deadline: no reminder yet
    await schedulerRound(t);
    expect(await linked(buyer.admin.id, 'order.payment_due', link)).toHaveLength(0);

    // the other order is paid: the seller ships, members' systems hear it
    const paid = await call('POST', `/order/${other.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(paid.statusCode, paid.body).toBe(200);
    await settled(t);
    const [ship] = await linked(seller.trader.id, 'order.paid', `/order/info?id=${other.id}`);
    expect(ship).toMatchObject({ title: '订单已付款，请发货', urgent: false });
    expect(ship!.content).toContain(`预付款 ${formatFen(other.prepaymentFen)} 元`);
    expect(await linked(buyer.admin.id, 'order.paid', `/order/info?id=${other.id}`)).toHaveLength(0);
    const paidHooks = (await webhookBodiesOf(db(), sellerHook.id, 'order.paid')).filter((b) => b.data.orderNo === other.orderNo);
    expect(paidHooks).toHaveLength(1);
    expect(paidHooks[0]!.data).toMatchObject({ contractNo: other.contractNo, status: 'awaiting_shipment', prepaymentFen: other.prepaymentFen });

    // 23 hours before the deadline: reminded once, and not again on the next round
    await later(order.paymentDeadline.getTime() - 23 * HOUR - t.clock.now().getTime());
    await schedulerRound(t);
    const due = await linked(buyer.admin.id, 'order.payment_due', link);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ title: '订单付款即将到期', urgent: true });
    await schedulerRound(t);
    expect(await linked(buyer.admin.id, 'order.payment_due', link)).toHaveLength(1);
    // the paid order is not reminded
    expect(await linked(buyer.admin.id, 'order.payment_due', `/order/info?id=${other.id}`)).toHaveLength(0);

    // past the deadline: the buyer (urgent) and the operator's queue, once
    await later(order.paymentDeadline.getTime() + HOUR - t.clock.now().getTime());
    await schedulerRound(t);
    await schedulerRound(t);
    const overdue = await linked(buyer.admin.id, 'order.payment_overdue', link);
    expect(overdue).toHaveLength(1);
    expect(overdue[0]!.urgent).toBe(true);
    const queue = (await messagesOf(db(), operatorId, 'todo.order_overdue')).filter((m) => m.content.includes(order.orderNo));
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ title: '逾期未付款订单', category: 'todo', link: '/order/list?status=unpaid&overdue=1' });
    expect(await messagesOf(db(), operatorId, 'order.payment_overdue')).toHaveLength(0);

    const terminated = await call('POST', `/order/${order.id}/terminate`, operator.token, { reason: '买方逾期未付款' });
    expect(terminated.statusCode, terminated.body).toBe(200);
    await settled(t);
    for (const userId of [seller.admin.id, buyer.admin.id]) {
      const [told] = await linked(userId, 'order.terminated', link);
      expect(told!.content).toContain('买方逾期未付款');
    }
    // nothing more for a terminated order
    await schedulerRound(t);
    expect(await linked(buyer.admin.id, 'order.payment_overdue', link)).toHaveLength(1);
  });

  it('a truck: dispatched and arrived to the buyer, a dispute to the seller and the operator, the answer and the ruling, auto sign-for tomorrow once; webhooks with the numbers', async () => {
    const { order, driver } = await fixture.readyOrder({}, { plateNo: '晋B66871' });
    await settled(t);
    const link = `/order/info?id=${order.id}`;
    // no prepayment: the buyer hears of the order, the seller is asked to ship
    expect(await linked(buyer.admin.id, 'order.created', link)).toHaveLength(1);
    expect(await linked(buyer.admin.id, 'order.to_pay', link)).toHaveLength(0);
    expect(await linked(seller.admin.id, 'order.paid', link)).toHaveLength(1);

    const first = await dispatched(order, driver.id);
    await settled(t);
    const truck = await truckRow(first);
    const sent = (await linked(buyer.trader.id, 'dispatch.dispatched', link)).filter((m) => m.content.includes(truck.dispatchNo));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content).toContain('晋B66871');
    expect(sent[0]!.content).toContain('计划 40.00 吨');
    expect((await messagesOf(db(), seller.trader.id, 'dispatch.dispatched')).filter((m) => m.content.includes(truck.dispatchNo))).toHaveLength(0);
    const hooks = (await webhookBodiesOf(db(), buyerHook.id, 'dispatch.dispatched')).filter((b) => b.data.dispatchNo === truck.dispatchNo);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.data).toMatchObject({ orderNo: order.orderNo, plateNo: '晋B66871', plannedKg: 40_000 });
    expect((await webhookBodiesOf(db(), sellerHook.id, 'dispatch.dispatched')).filter((b) => b.data.dispatchNo === truck.dispatchNo)).toHaveLength(1);

    // the first truck: arrived, disputed, answered, ruled
    const loading = await call('POST', `/delivery/dispatch/${first}/loading`, seller.traderToken, ticket(40_000, await upload(seller.traderToken)));
    expect(loading.statusCode, loading.body).toBe(200);
    await later(HOUR);
    const arrival = await call('POST', `/delivery/dispatch/${first}/arrival`, buyer.traderToken, ticket(38_000, await upload(buyer.traderToken)));
    expect(arrival.statusCode, arrival.body).toBe(200);
    await settled(t);
    const toSign = (await messagesOf(db(), buyer.admin.id, 'dispatch.to_sign')).filter((m) => m.content.includes(truck.dispatchNo));
    expect(toSign).toHaveLength(1);
    expect(toSign[0]!.link).toBe('/settlement/signFor');
    expect(toSign[0]!.dueAt!.toISOString()).toBe((await truckRow(first)).autoSignAt!.toISOString());
    expect((await webhookBodiesOf(db(), buyerHook.id, 'dispatch.arrived')).filter((b) => b.data.dispatchNo === truck.dispatchNo)[0]!.data).toMatchObject({ arrivedNetKg: 38_000, loadedNetKg: 40_000 });

    const disputed = await call('POST', `/delivery/dispatch/${first}/dispute`, buyer.traderToken, { reason: '到货亏吨 2 吨', photos: [] });
    expect(disputed.statusCode, disputed.body).toBe(200);
    await settled(t);
    const [dispute] = (await messagesOf(db(), seller.admin.id, 'dispatch.disputed')).filter((m) => m.content.includes(truck.dispatchNo));
    expect(dispute).toMatchObject({ urgent: true, link: '/settlement/signFor' });
    expect(dispute!.content).toContain('到货亏吨 2 吨');
    expect(await textsOf(db(), [dispute!.id])).toHaveLength(1);
    const [toRule] = (await messagesOf(db(), operatorId, 'todo.dispatch_disputed')).filter((m) => m.content.includes(truck.dispatchNo));
    expect(toRule).toMatchObject({ title: '待裁定签收异议', category: 'todo', link: '/settlement/signFor' });
    expect((await messagesOf(db(), buyer.admin.id, 'dispatch.disputed')).filter((m) => m.content.includes(truck.dispatchNo))).toHaveLength(0);
    expect((await webhookBodiesOf(db(), sellerHook.id, 'dispatch.disputed')).filter((b) => b.data.dispatchNo === truck.dispatchNo)[0]!.data).toMatchObject({ disputeReason: '到货亏吨 2 吨' });

    expect((await call('POST', `/delivery/dispatch/${first}/answer`, seller.traderToken, { answer: '以装车磅单为准' })).statusCode).toBe(200);
    await settled(t);
    const [answered] = (await messagesOf(db(), buyer.trader.id, 'dispatch.dispute_answered')).filter((m) => m.content.includes(truck.dispatchNo));
    expect(answered!.content).toContain('以装车磅单为准');
    expect((await messagesOf(db(), operatorId, 'todo.dispatch_dispute_answered')).filter((m) => m.content.includes(truck.dispatchNo))).toHaveLength(1);

    const ruled = await call('POST', `/delivery/dispatch/${first}/rule`, operator.token, { decision: 'signed', signedKg: 39_000, note: '双方各担一半亏吨' });
    expect(ruled.statusCode, ruled.body).toBe(200);
    await settled(t);
    for (const userId of [seller.admin.id, buyer.admin.id]) {
      const [told] = (await messagesOf(db(), userId, 'dispatch.ruled')).filter((m) => m.content.includes(truck.dispatchNo));
      expect(told).toMatchObject({ urgent: true, title: '签收异议已裁定：签收' });
      expect(told!.content).toContain('39.00 吨');
    }
    expect((await webhookBodiesOf(db(), buyerHook.id, 'dispatch.signed')).filter((b) => b.data.dispatchNo === truck.dispatchNo)[0]!.data).toMatchObject({ signedKg: 39_000, signedHow: 'ruling' });

    // the second truck waits for its sign-for: reminded a day before the automatic one, once
    const second = await arrived(order, driver.id);
    const secondNo = (await truckRow(second)).dispatchNo;
    const tomorrow = async () => (await messagesOf(db(), buyer.admin.id, 'dispatch.auto_sign_tomorrow')).filter((m) => m.content.includes(secondNo));
    await schedulerRound(t);
    expect(await tomorrow()).toHaveLength(0);
    const autoSignAt = (await truckRow(second)).autoSignAt!;
    await later(autoSignAt.getTime() - 23 * HOUR - t.clock.now().getTime());
    await schedulerRound(t);
    const reminded = await tomorrow();
    expect(reminded).toHaveLength(1);
    expect(reminded[0]!.dueAt!.toISOString()).toBe(autoSignAt.toISOString());
    expect(reminded[0]!.content).toContain('自动签收');
    await schedulerRound(t);
    expect(await tomorrow()).toHaveLength(1);
    // signed by the buyer: members' systems hear it
    expect((await call('POST', `/delivery/dispatch/${second}/sign`, buyer.traderToken, {})).statusCode).toBe(200);
    await settled(t);
    expect((await webhookBodiesOf(db(), sellerHook.id, 'dispatch.signed')).filter((b) => b.data.dispatchNo === secondNo)[0]!.data).toMatchObject({ signedHow: 'buyer' });
    expect((await orderRow(order.id)).status).toBe('shipping');
  });

  it('a lab report: the other side is asked to accept it; its answer goes back to the submitter', async () => {
    const { order, driver } = await fixture.readyOrder({ testingBasis: 'seller' });
    await arrived(order, driver.id);
    const report = (reportNo: string, file: string) => ({ lab: 'seller', labName: '晋北煤业化验中心', reportNo, qnet: 5480, mt: 9.2, st: 0.65, ad: 17.85, vdaf: 29.1, testedAt: '2026-11-25', batch: '第1批', file });
    const link = `/order/info?id=${order.id}`;

    const first = await call('POST', `/delivery/order/${order.id}/quality-report`, seller.traderToken, report(`HY-${kind}-1`, await upload(seller.traderToken)));
    expect(first.statusCode, first.body).toBe(200);
    await settled(t);
    const [toAnswer] = (await linked(buyer.admin.id, 'qualityreport.to_answer', link)).filter((m) => m.content.includes(`HY-${kind}-1`));
    expect(toAnswer).toMatchObject({ title: '化验单待确认', urgent: false });
    expect(toAnswer!.content).toContain('5480 kcal/kg');
    expect(await linked(seller.admin.id, 'qualityreport.to_answer', link)).toHaveLength(0);

    const disputed = await call('POST', `/delivery/quality-report/${first.json().result.id}/answer`, buyer.traderToken, { accept: false, reason: '发热量与我方复检差 200 kcal' });
    expect(disputed.statusCode, disputed.body).toBe(200);
    await settled(t);
    const [back] = await linked(seller.trader.id, 'qualityreport.disputed', link);
    expect(back!.content).toContain('发热量与我方复检差 200 kcal');
    expect(await linked(buyer.admin.id, 'qualityreport.disputed', link)).toHaveLength(0);

    const second = await call('POST', `/delivery/order/${order.id}/quality-report`, seller.traderToken, report(`HY-${kind}-2`, await upload(seller.traderToken)));
    expect((await call('POST', `/delivery/quality-report/${second.json().result.id}/answer`, buyer.traderToken, { accept: true })).statusCode).toBe(200);
    await settled(t);
    const [accepted] = await linked(seller.admin.id, 'qualityreport.accepted', link);
    expect(accepted!.content).toContain(`HY-${kind}-2`);
  });
});
