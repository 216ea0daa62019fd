import 'reflect-metadata';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dispatches, orderEvents, orders, qualityReports, weighTickets, type Order } from '../../db/schema/index';
import { runScheduledJobs } from '../../plugins/scheduler';
import { deliveryFixture, type ReadyOrderOptions } from '../../test/delivery-fixture';
import { effectiveOrder } from '../../test/order-factory';
import { testDatabaseKinds } from '../../test/test-app';
import { moveOrder } from '../order/order.service';

const HOUR = 3600_000;
/** the name and plate of every driver here (the dispatch assertions name the plate) */
const DRIVER = { name: '王师傅', plateNo: '晋B12345' };

describe.each(testDatabaseKinds())('delivery by truck on %s', (kind) => {
  const fixture = deliveryFixture(kind);
  const { t, seller, buyer, outsider, operator, db, later, call, upload, driverOf } = fixture;
  const api = (method: 'GET' | 'POST', url: string, token: string, body?: object) => call(method, `/delivery${url}`, token, body);

  /** The fixture's order ready for delivery and its driver; the order waits for shipment at once (no prepayment). */
  async function readyOrder(options: ReadyOrderOptions = {}) {
    const ready = await fixture.readyOrder(options, DRIVER);
    expect(ready.order.status).toBe('awaiting_shipment');
    return ready;
  }

  const orderRow = async (id: number) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
  const truckRow = async (id: number) => (await db().select().from(dispatches).where(eq(dispatches.id, id)))[0]!;
  const countOf = async (table: typeof dispatches | typeof weighTickets | typeof qualityReports) => Number((await db().select({ n: count() }).from(table))[0]!.n);

  async function dispatch(order: Order, driverId: number, plannedKg = 40_000, token = seller.traderToken) {
    return api('POST', '/dispatch', token, { orderId: order.id, driverId, plannedKg, planDate: order.terms.deliveryDateStart });
  }
  function ticket(ticketNo: string, netKg: number, at: Date, photo: string, tareKg = 15_000) {
    return { ticketNo, grossKg: netKg + tareKg, tareKg, netKg, weighedAt: at.toISOString(), photo };
  }
  let ticketSeq = 0;
  const nextTicketNo = (prefix: string) => `${prefix}-${kind}-${++ticketSeq}`;

  /** A truck taken through loading (40 t) and arrival (the given net), weighed an hour apart. */
  async function arrivedTruck(order: Order, driverId: number, arrivedNetKg = 39_950, loadedKg = 40_000) {
    const sent = await dispatch(order, driverId, loadedKg);
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().result.id as number;
    const loading = await api('POST', `/dispatch/${id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), loadedKg, t.clock.now(), await upload(seller.traderToken)));
    expect(loading.statusCode, loading.body).toBe(200);
    await later(HOUR);
    const arrival = await api('POST', `/dispatch/${id}/arrival`, buyer.traderToken, ticket(nextTicketNo('DH'), arrivedNetKg, t.clock.now(), await upload(buyer.traderToken)));
    expect(arrival.statusCode, arrival.body).toBe(200);
    return id;
  }

  it('the workbench tells the buyer its trucks to sign for, the seller the disputes to answer, the operator those to rule', async () => {
    const todos = async (token: string) => {
      const answer = await t.app.inject({ method: 'GET', url: '/trade-api/api/workbench/todo', headers: { 'x-access-token': token } });
      expect(answer.statusCode, answer.body).toBe(200);
      return Object.fromEntries((answer.json().result.todos as { key: string; count: number }[]).map((todo) => [todo.key, todo.count]));
    };
    const before = { buyer: await todos(buyer.traderToken), seller: await todos(seller.traderToken), operator: await todos(operator.token) };
    const { order, driver } = await readyOrder();
    const id = await arrivedTruck(order, driver.id);
    expect((await todos(buyer.traderToken)).trucksToSign).toBe(before.buyer.trucksToSign! + 1);
    expect((await todos(outsider.traderToken)).trucksToSign).toBe(0);
    const disputed = await api('POST', `/dispatch/${id}/dispute`, buyer.traderToken, { reason: '篷布破损，到货短少', photos: [] });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect((await todos(buyer.traderToken)).trucksToSign).toBe(before.buyer.trucksToSign);
    expect((await todos(seller.traderToken)).disputesToAnswer).toBe(before.seller.disputesToAnswer! + 1);
    expect((await todos(operator.token)).disputesToRule).toBe(before.operator.disputesToRule! + 1);
    expect((await api('POST', `/dispatch/${id}/answer`, seller.traderToken, { answer: '出厂时篷布完好' })).statusCode).toBe(200);
    expect((await todos(seller.traderToken)).disputesToAnswer).toBe(before.seller.disputesToAnswer);
  });

  it('dispatch → loading → arrival → sign-for → 交货完毕: the order ships and reaches 待结算, every step on its timeline', async () => {
    const { order, driver } = await readyOrder();
    const sent = await dispatch(order, driver.id, 40_000);
    expect(sent.statusCode, sent.body).toBe(200);
    const truck = sent.json().result;
    expect(truck).toMatchObject({ status: 'dispatched', plannedKg: 40_000, plateNo: '晋B12345', senderSide: 'seller', driverIdCardNo: driver.idCardNo, actions: ['cancel', 'load'] });
    expect(truck.dispatchNo).toMatch(/^PC\d{12}$/);
    expect(truck.gateToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await orderRow(order.id)).toMatchObject({ status: 'shipping', plannedKg: 40_000, dispatchedTrucks: 1 });

    // the seller's gate opens the loading record from the QR code
    const gate = await api('GET', `/gate/${truck.gateToken}`, seller.traderToken);
    expect(gate.statusCode).toBe(200);
    expect(gate.json().result.truck.dispatchNo).toBe(truck.dispatchNo);

    const loadingPhoto = await upload(seller.traderToken);
    const loaded = await api('POST', `/dispatch/${truck.id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), 40_000, t.clock.now(), loadingPhoto));
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect(loaded.json().result).toMatchObject({ status: 'loaded', loadedNetKg: 40_000 });
    await later(5 * HOUR);
    const arrived = await api('POST', `/dispatch/${truck.id}/arrival`, buyer.traderToken, ticket(nextTicketNo('DH'), 39_900, t.clock.now(), await upload(buyer.traderToken)));
    expect(arrived.statusCode, arrived.body).toBe(200);
    // 100 kg of 40 t is 0.25 %: beyond the 0.2 % tolerance
    expect(arrived.json().result).toMatchObject({ status: 'arrived', arrivedNetKg: 39_900, lossKg: 100, lossExceeded: true, actions: ['sign', 'dispute'] });
    expect(arrived.json().result.autoSignAt).not.toBeNull();

    // the buyer signs for the arrival net (weighing basis: the buyer's scale)
    const signed = await api('POST', `/dispatch/${truck.id}/sign`, buyer.traderToken, {});
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().result).toMatchObject({ status: 'signed', signedKg: 39_900, signedHow: 'buyer' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'shipping', loadedKg: 40_000, loadedTrucks: 1, arrivedKg: 39_900, arrivedTrucks: 1, signedKg: 39_900, signedTrucks: 1 });

    // the buyer cannot declare delivery finished; the seller can
    expect((await api('POST', `/order/${order.id}/finish`, buyer.traderToken, {})).statusCode).toBe(403);
    const finished = await api('POST', `/order/${order.id}/finish`, seller.traderToken, {});
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().result.order.status).toBe('awaiting_settlement');
    const timeline = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(orderEvents.id);
    expect(timeline.map((e) => e.action)).toEqual(['生成订单', '无需预付', '开始发运', '派车', '装车过磅', '到货过磅', '收货签收', '交货完毕']);
    expect(timeline.find((e) => e.action === '到货过磅')!.note).toContain('超过合理途损 0.2%');

    // the photo is served to both parties through the order, not to others
    const photoId = (await db().select().from(weighTickets).where(eq(weighTickets.dispatchId, truck.id)))[0]!.photoFileId!;
    expect((await api('GET', `/order/${order.id}/files/${photoId}`, buyer.traderToken)).statusCode).toBe(200);
    expect((await api('GET', `/order/${order.id}/files/${photoId}`, outsider.traderToken)).statusCode).toBe(404);
    // the daily chart has the day's loaded and arrived tons
    const daily = (await api('GET', `/order/${order.id}/daily`, seller.traderToken)).json().result;
    expect(daily.reduce((sum: number, d: { loadedKg: number }) => sum + d.loadedKg, 0)).toBe(40_000);
    expect(daily.reduce((sum: number, d: { arrivedKg: number }) => sum + d.arrivedKg, 0)).toBe(39_900);
  });

  it('refuses dispatches in Chinese and stores nothing: wrong side, unapproved or foreign driver, overload, plan date, unpaid order, quantity left', async () => {
    const { order, driver } = await readyOrder({ quantityKg: 100_000 });
    const pending = await driverOf(seller, { ...DRIVER, status: 'pending' });
    const buyersDriver = await driverOf(buyer, DRIVER);
    const before = { trucks: await countOf(dispatches), order: await orderRow(order.id) };
    const refusals: [Awaited<ReturnType<typeof dispatch>>, number, string][] = [
      [await dispatch(order, driver.id, 40_000, buyer.traderToken), 403, '本订单由卖方负责运输'],
      [await dispatch(order, driver.id, 40_000, outsider.traderToken), 404, '订单不存在'],
      [await dispatch(order, pending.id), 422, '该司机未通过审核'],
      [await dispatch(order, buyersDriver.id), 404, '司机不存在'],
      [await dispatch(order, driver.id, 44_001), 422, '计划装车量超过该车核定载重 40.00 吨 加 10% 容差'],
      [await api('POST', '/dispatch', seller.traderToken, { orderId: order.id, driverId: driver.id, plannedKg: 30_000, planDate: '2020-01-01' }), 422, '计划装车日期须在合同交收期'],
      [await api('POST', '/dispatch', seller.traderToken, { orderId: order.id, driverId: driver.id, plannedKg: 1.5, planDate: order.terms.deliveryDateStart }), 400, '计划装车量须为整数千克'],
      [await api('POST', '/dispatch', operator.token, { orderId: order.id, driverId: driver.id, plannedKg: 30_000, planDate: order.terms.deliveryDateStart }), 403, ''],
    ];
    for (const [response, status, message] of refusals) {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
      expect(response.json().message).toMatch(/[\u4e00-\u9fa5]/);
    }
    // 100 t + 5 % = 105 t: twice 40 t fits, then 25 t is left
    expect((await dispatch(order, driver.id, 40_000)).statusCode).toBe(200);
    expect((await dispatch(order, driver.id, 40_000)).statusCode).toBe(200);
    const over = await dispatch(order, driver.id, 25_001);
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe('计划量超过合同数量（含溢短装）剩余可派量 25.00 吨');
    expect(await countOf(dispatches)).toBe(before.trucks + 2);
    expect((await orderRow(order.id)).plannedKg).toBe(80_000);

    // an order still waiting for its prepayment takes no truck
    const { order: unpaid } = await effectiveOrder(t, { seller, buyer, terms: { transportArranger: 'seller' } });
    expect(unpaid.status).toBe('unpaid');
    const refused = await dispatch(unpaid, driver.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('订单当前状态为待付款，不能派车');
    // paid (the orders work does it through its payment; here the move itself), it does
    await moveOrder(db(), unpaid.id, 'pay', { paidAt: t.clock.now() });
    expect((await dispatch({ ...unpaid, status: 'awaiting_shipment' }, driver.id)).statusCode).toBe(200);
  });


  it('refuses weigh tickets in Chinese and stores nothing: tare ≥ gross, net ≠ gross − tare, overload, time order, future, duplicate number, wrong side and state, other orders', async () => {
    const { order, driver } = await readyOrder();
    const id = (await dispatch(order, driver.id)).json().result.id as number;
    const photo = await upload(seller.traderToken);
    const now = t.clock.now();
    const loading = (body: object, token = seller.traderToken) => api('POST', `/dispatch/${id}/loading`, token, body);
    const good = ticket(nextTicketNo('ZC'), 40_000, now, photo);
    const tickets = await countOf(weighTickets);
    const refusals: [Promise<{ statusCode: number; json(): { message: string } }>, number, string][] = [
      [loading({ ...good, tareKg: good.grossKg, netKg: 0 }), 400, '净重须大于 0'],
      [loading({ ...good, grossKg: 40_000, tareKg: 40_000, netKg: 1 }), 422, '皮重须小于毛重'],
      [loading({ ...good, netKg: 39_000 }), 422, '净重须等于毛重减皮重（40.00 吨）'],
      [loading(ticket(good.ticketNo, 44_001, now, photo)), 422, '净重超过车辆核定载重 40.00 吨的 10% 容差'],
      [loading({ ...good, weighedAt: new Date(now.getTime() + 11 * 60_000).toISOString() }), 422, '过磅时间不能晚于当前时间'],
      [loading({ ...good, weighedAt: new Date(now.getTime() - HOUR).toISOString() }), 422, '装车过磅时间不能早于派车时间'],
      [loading({ ...good, ticketNo: '磅单' }), 400, '磅单号为 4–30 位字母、数字或 -'],
      [loading({ ...good, photo: await upload(buyer.traderToken) }), 422, '附件无效'],
      [loading(good, buyer.traderToken), 403, '只有卖方可以进行该操作'],
      [loading(good, outsider.traderToken), 404, '派车单不存在'],
      [api('POST', `/dispatch/${id}/arrival`, buyer.traderToken, ticket(nextTicketNo('DH'), 40_000, now, await upload(buyer.traderToken))), 409, '已派车'],
      [api('POST', `/dispatch/${id}/sign`, buyer.traderToken, {}), 409, ''],
    ];
    for (const [pending, status, message] of refusals) {
      const response = await pending;
      expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
      expect(response.json().message).toContain(message);
      expect(response.json().message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(await countOf(weighTickets)).toBe(tickets);
    expect(await truckRow(id)).toMatchObject({ status: 'dispatched', loadedNetKg: null });
    expect((await orderRow(order.id)).loadedKg).toBe(0);

    expect((await loading(good)).statusCode).toBe(200);
    // the same ticket number on another truck of the seller
    const second = (await dispatch(order, driver.id)).json().result.id as number;
    const again = await api('POST', `/dispatch/${second}/loading`, seller.traderToken, { ...good, photo: await upload(seller.traderToken) });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(`磅单号 ${good.ticketNo} 已录入过，不能重复使用`);
    // two at once: the unique index keeps one, the other gets the same Chinese refusal
    const third = (await dispatch(order, driver.id)).json().result.id as number;
    const raced = { ...ticket(nextTicketNo('ZC'), 40_000, t.clock.now(), await upload(seller.traderToken)) };
    const both = await Promise.all([api('POST', `/dispatch/${second}/loading`, seller.traderToken, raced), api('POST', `/dispatch/${third}/loading`, seller.traderToken, raced)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    expect(both.find((r) => r.statusCode === 422)!.json().message).toBe(`磅单号 ${raced.ticketNo} 已录入过，不能重复使用`);

    // arrival: before the loading, in the future, by the seller
    const arrivalPhoto = await upload(buyer.traderToken);
    const early = await api('POST', `/dispatch/${id}/arrival`, buyer.traderToken, ticket(nextTicketNo('DH'), 39_950, new Date(now.getTime() - 60_000), arrivalPhoto));
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('到货过磅时间须晚于装车过磅时间');
    const bySeller = await api('POST', `/dispatch/${id}/arrival`, seller.traderToken, ticket(nextTicketNo('DH'), 39_950, now, photo));
    expect(bySeller.statusCode).toBe(403);
    expect(await truckRow(id)).toMatchObject({ status: 'loaded', arrivedNetKg: null, autoSignAt: null });
  });

  it('50 concurrent dispatches never plan more than the contract quantity plus its tolerance', async () => {
    // 200 t + 5 % = 210 t: twenty-one trucks of 10 t fit
    const { order, driver } = await readyOrder({ quantityKg: 200_000 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => dispatch(order, driver.id, 10_000)));
    const accepted = responses.filter((r) => r.statusCode === 200);
    expect(accepted).toHaveLength(21);
    for (const refused of responses.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toMatch(/^计划量超过合同数量（含溢短装）剩余可派量 0\.00 吨$/);
    }
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ plannedKg: 210_000, dispatchedTrucks: 21, status: 'shipping' });
    const trucks = await db().select().from(dispatches).where(eq(dispatches.orderId, order.id));
    expect(trucks.reduce((sum, d) => sum + d.plannedKg, 0)).toBe(210_000);
    expect(new Set(trucks.map((d) => d.dispatchNo)).size).toBe(21);
    // a cancelled truck gives its tons back
    const cancel = await api('POST', `/dispatch/${trucks[0]!.id}/cancel`, seller.traderToken, { reason: '司机临时有事' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ plannedKg: 200_000, dispatchedTrucks: 20 });
    expect((await api('POST', `/dispatch/${trucks[0]!.id}/cancel`, seller.traderToken, { reason: '再取消一次' })).statusCode).toBe(409);
    expect((await api('POST', `/dispatch/${trucks[1]!.id}/cancel`, buyer.traderToken, { reason: '买方取消' })).statusCode).toBe(403);
  });

  it('a truck loads at most its plan plus the weighing tolerance, refused in Chinese, and nothing is stored', async () => {
    // the hostile case: trucks planned at 1 t each, loaded with a full truck (40 t rated, 44 t with the 10 % tolerance)
    const { order, driver } = await readyOrder({ quantityKg: 100_000 });
    const id = (await dispatch(order, driver.id, 1_000)).json().result.id as number;
    const photo = await upload(seller.traderToken);
    const full = await api('POST', `/dispatch/${id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), 40_000, t.clock.now(), photo));
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toBe('装车净重超过计划装车量 1.00 吨加 10% 容差（最多 1.10 吨）');
    expect(await truckRow(id)).toMatchObject({ status: 'dispatched', loadedNetKg: null });
    expect(await orderRow(order.id)).toMatchObject({ loadedKg: 0, loadedTrucks: 0 });
    const within = await api('POST', `/dispatch/${id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), 1_100, t.clock.now(), photo));
    expect(within.statusCode, within.body).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ loadedKg: 1_100, loadedTrucks: 1 });
  });

  it('concurrent loadings never load more than the contract quantity plus its tolerance; the refusal says what is left', async () => {
    // 100 t + 5 % = 105 t planned as 21 trucks of 5 t; each loads 5.5 t (its plan + 10 %): 19 fit (104.5 t), 0.5 t is left
    const { order, driver } = await readyOrder({ quantityKg: 100_000 });
    const ids: number[] = [];
    for (let i = 0; i < 21; i++) {
      const sent = await dispatch(order, driver.id, 5_000);
      expect(sent.statusCode, sent.body).toBe(200);
      ids.push(sent.json().result.id as number);
    }
    const photo = await upload(seller.traderToken);
    const now = t.clock.now();
    const responses = await Promise.all(ids.map((id) => api('POST', `/dispatch/${id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), 5_500, now, photo))));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(19);
    for (const refused of responses.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().message).toBe('超出订单可交货量（合同数量含溢短装 105.00 吨），剩余可装 0.50 吨');
    }
    expect(await orderRow(order.id)).toMatchObject({ loadedKg: 104_500, loadedTrucks: 19 });
    const trucks = await db().select().from(dispatches).where(eq(dispatches.orderId, order.id));
    expect(trucks.reduce((sum, d) => sum + (d.loadedNetKg ?? 0), 0)).toBe(104_500);
    expect(trucks.filter((d) => d.status === 'dispatched')).toHaveLength(2);
    const tickets = await db().select().from(weighTickets).where(eq(weighTickets.orderId, order.id));
    expect(tickets).toHaveLength(19);
    // the rest fits
    const last = trucks.find((d) => d.status === 'dispatched')!;
    const rest = await api('POST', `/dispatch/${last.id}/loading`, seller.traderToken, ticket(nextTicketNo('ZC'), 500, t.clock.now(), photo));
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await orderRow(order.id)).loadedKg).toBe(105_000);
  });

  it("the other enterprise cannot read or change any truck, ticket, report or file (404); the driver's ID is masked for the receiving side", async () => {
    const { order, driver } = await readyOrder();
    const id = await arrivedTruck(order, driver.id);
    const truck = await truckRow(id);
    const report = await api('POST', `/order/${order.id}/quality-report`, seller.traderToken, reportBody(await upload(seller.traderToken, 'report.png')));
    expect(report.statusCode, report.body).toBe(200);
    const reportId = report.json().result.id as number;
    const fileId = report.json().result.file.id as number;

    const reads = [`/dispatch/${id}`, `/order/${order.id}`, `/order/${order.id}/daily`, `/order/${order.id}/files/${fileId}`, `/gate/${truck.gateToken}`];
    for (const url of reads) {
      const response = await api('GET', url, outsider.traderToken);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toMatch(/不存在$/);
    }
    const writes: [string, object][] = [
      [`/dispatch/${id}/cancel`, { reason: '取消一下' }],
      [`/dispatch/${id}/sign`, {}],
      [`/dispatch/${id}/dispute`, { reason: '重量不对', photos: [] }],
      [`/dispatch/${id}/answer`, { answer: '已核实' }],
      [`/order/${order.id}/finish`, {}],
      [`/order/${order.id}/quality-report`, reportBody(await upload(outsider.traderToken, 'r.png'), 'OUT-1')],
      [`/quality-report/${reportId}/answer`, { accept: true }],
    ];
    for (const [url, body] of writes) expect((await api('POST', url, outsider.traderToken, body)).statusCode, url).toBe(404);
    expect(await truckRow(id)).toMatchObject({ status: 'arrived', signedKg: null });
    // lists: nothing of theirs
    expect((await api('GET', `/transport?orderNo=${order.orderNo}`, outsider.traderToken)).json().result.total).toBe(0);
    expect((await api('GET', '/sign-for', outsider.traderToken)).json().result.records.map((r: { id: number }) => r.id)).not.toContain(id);
    // the buyer (receiving side) sees the ID masked, and cannot open the gate's loading record
    const forBuyer = (await api('GET', `/dispatch/${id}`, buyer.traderToken)).json().result.truck;
    expect(forBuyer.driverIdCardNo).toBe(`1401**********${driver.idCardNo.slice(-4)}`);
    expect(forBuyer.gateToken).toBeNull();
    expect((await api('GET', `/gate/${truck.gateToken}`, buyer.traderToken)).statusCode).toBe(404);
    const inList = (await api('GET', `/transport?orderNo=${order.orderNo}`, buyer.traderToken)).json().result.records[0];
    expect(inList.driverIdCardNo).toMatch(/^1401\*{10}\d{4}$/);
    // the sender and the trading centre see it whole
    expect((await api('GET', `/dispatch/${id}`, seller.traderToken)).json().result.truck.driverIdCardNo).toBe(driver.idCardNo);
    expect((await api('GET', `/dispatch/${id}`, operator.token)).json().result.truck.driverIdCardNo).toBe(driver.idCardNo);
  });

  function reportBody(file: string, reportNo = `HY-${kind}-${++ticketSeq}`) {
    return { lab: 'seller', labName: '晋北煤业化验中心', reportNo, qnet: 5480, mt: 9.2, st: 0.65, ad: 17.85, vdaf: 29.1, testedAt: '2026-11-25', batch: '第1批', file };
  }

  it('the buyer disputes with photos, the seller answers, the operator rules: signed with a weight, or refused (its tons given back)', async () => {
    const { order, driver } = await readyOrder();
    const first = await arrivedTruck(order, driver.id, 38_000);
    const photos = [await upload(buyer.traderToken, 'a.png'), await upload(buyer.traderToken, 'b.png')];
    const tooMany = await api('POST', `/dispatch/${first}/dispute`, buyer.traderToken, { reason: '亏吨严重', photos: Array(7).fill(photos[0]) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain('异议照片最多 6 张');
    const short = await api('POST', `/dispatch/${first}/dispute`, buyer.traderToken, { reason: '亏', photos });
    expect(short.statusCode).toBe(400);
    const disputed = await api('POST', `/dispatch/${first}/dispute`, buyer.traderToken, { reason: '到货亏吨 2 吨，篷布破损', photos });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json().result).toMatchObject({ status: 'disputed', disputeReason: '到货亏吨 2 吨，篷布破损' });
    expect(disputed.json().result.disputePhotos).toHaveLength(2);
    // the seller sees the photo through the order
    const photoId = disputed.json().result.disputePhotos[0].id as number;
    expect((await api('GET', `/order/${order.id}/files/${photoId}`, seller.traderToken)).statusCode).toBe(200);
    expect((await api('GET', `/order/${order.id}/files/${photoId}`, outsider.traderToken)).statusCode).toBe(404);
    // the queues: the seller's to answer, the operator's to rule
    expect((await api('GET', '/sign-for', seller.traderToken)).json().result.records.find((r: { id: number }) => r.id === first).actions).toEqual(['answer']);
    expect((await api('GET', '/sign-for', operator.token)).json().result.records.find((r: { id: number }) => r.id === first).actions).toEqual(['rule']);

    expect((await api('POST', `/dispatch/${first}/answer`, buyer.traderToken, { answer: '买方答复' })).statusCode).toBe(403);
    const answered = await api('POST', `/dispatch/${first}/answer`, seller.traderToken, { answer: '装车磅单为准，篷布完好' });
    expect(answered.statusCode).toBe(200);
    expect(answered.json().result.sellerAnswer).toBe('装车磅单为准，篷布完好');

    // only the operator rules, and not above the loading net
    expect((await api('POST', `/dispatch/${first}/rule`, seller.traderToken, { decision: 'signed', signedKg: 39_000, note: '卖方自裁' })).statusCode).toBe(403);
    const tooHeavy = await api('POST', `/dispatch/${first}/rule`, operator.token, { decision: 'signed', signedKg: 40_001, note: '按装车量' });
    expect(tooHeavy.statusCode).toBe(422);
    expect(tooHeavy.json().message).toBe('裁定签收量不能超过装车净重 40.00 吨');
    const ruled = await api('POST', `/dispatch/${first}/rule`, operator.token, { decision: 'signed', signedKg: 39_000, note: '双方各担一半亏吨' });
    expect(ruled.statusCode, ruled.body).toBe(200);
    expect(ruled.json().result).toMatchObject({ status: 'signed', signedKg: 39_000, signedHow: 'ruling' });
    expect((await api('POST', `/dispatch/${first}/rule`, operator.token, { decision: 'refused', note: '再裁一次' })).statusCode).toBe(409);

    const second = await arrivedTruck(order, driver.id, 39_990);
    expect((await api('POST', `/dispatch/${second}/dispute`, buyer.traderToken, { reason: '煤质不符，拒收', photos: [] })).statusCode).toBe(200);
    const before = await orderRow(order.id);
    const refused = await api('POST', `/dispatch/${second}/rule`, operator.token, { decision: 'refused', note: '经核实煤质不符，准予拒收' });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().result.status).toBe('refused');
    expect(await orderRow(order.id)).toMatchObject({
      plannedKg: before.plannedKg - 40_000,
      dispatchedTrucks: before.dispatchedTrucks - 1,
      loadedKg: before.loadedKg - 40_000,
      arrivedKg: before.arrivedKg - 39_990,
      signedKg: 39_000,
    });
  });

  it('an arrival nobody answers is signed by the scheduler after 3 working days (once, by 系统); signed tons reaching the quantity finish delivery by themselves', async () => {
    // 100 t, 5 % tolerance: 95 t signed is enough
    const { order, driver } = await readyOrder({ quantityKg: 100_000, weighingBasis: 'seller' });
    const first = await arrivedTruck(order, driver.id, 39_950);
    const second = await arrivedTruck(order, driver.id, 39_990);
    const third = await arrivedTruck(order, driver.id, 19_980, 20_000);
    const arrivedAt = (await truckRow(first)).arrivedAt!;
    const due = (await truckRow(first)).autoSignAt!;
    expect(due.getTime() - arrivedAt.getTime()).toBeGreaterThanOrEqual(3 * 24 * HOUR - 24 * HOUR);
    // a day before the deadline: nothing
    await later(due.getTime() - 24 * HOUR - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    expect((await truckRow(first)).status).toBe('arrived');
    // past every truck's deadline (a weekend or holiday between two arrivals puts the later ones' further out):
    // all signed, on the loading net (the seller's scale is the weighing basis)
    const lastDue = Math.max(...(await Promise.all([first, second, third].map(async (id) => (await truckRow(id)).autoSignAt!.getTime()))));
    await later(Math.max(due.getTime() + 24 * HOUR, lastDue + HOUR) - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    expect(await truckRow(first)).toMatchObject({ status: 'signed', signedKg: 40_000, signedHow: 'auto' });
    expect((await truckRow(second)).status).toBe('signed');
    expect(await truckRow(third)).toMatchObject({ status: 'signed', signedKg: 20_000 });
    const events = async () => db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(orderEvents.id);
    const after = await events();
    expect(after.filter((e) => e.action === '自动签收').map((e) => e.actorName)).toEqual(['系统', '系统', '系统']);
    // 100 t signed ≥ 95 t and no truck on the road: 待结算 without the seller
    expect(await orderRow(order.id)).toMatchObject({ status: 'awaiting_settlement', signedKg: 100_000, signedTrucks: 3 });
    expect(after.at(-1)!.action).toBe('交货完成');
    // a second run changes nothing
    await runScheduledJobs(t.app);
    expect(await events()).toHaveLength(after.length);
    expect((await orderRow(order.id)).signedKg).toBe(100_000);
    // every scheduled job runs three times over a moved clock: about 20 s alone, more on a busy 2-core machine
  }, 90_000);

  it('交货完毕 waits for every truck on the road, and needs a signed one', async () => {
    const { order, driver } = await readyOrder();
    const none = await api('POST', `/order/${order.id}/finish`, seller.traderToken, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe('订单当前状态为待发货，不能确认交货完毕');
    const id = await arrivedTruck(order, driver.id);
    const open = await api('POST', `/order/${order.id}/finish`, seller.traderToken, {});
    expect(open.statusCode).toBe(422);
    expect(open.json().message).toContain('还有 1 辆车未完成');
    expect((await orderRow(order.id)).status).toBe('shipping');
    expect((await api('POST', `/dispatch/${id}/sign`, buyer.traderToken, {})).statusCode).toBe(200);
    expect((await api('POST', `/order/${order.id}/finish`, seller.traderToken, { note: '合同量已足' })).statusCode).toBe(200);
    expect((await orderRow(order.id)).status).toBe('awaiting_settlement');
    // nothing moves a truck of a finished order
    expect((await dispatch(order, driver.id)).json().message).toBe('订单当前状态为待结算，不能派车');
  });

  it('lab reports: by the lab the contract names; the other side accepts or disputes with a reason', async () => {
    const { order, driver } = await readyOrder({ testingBasis: 'seller' });
    await arrivedTruck(order, driver.id);
    const file = await upload(seller.traderToken, 'report.png');
    const reports = await countOf(qualityReports);
    const byBuyer = await api('POST', `/order/${order.id}/quality-report`, buyer.traderToken, reportBody(await upload(buyer.traderToken, 'r.png')));
    expect(byBuyer.statusCode).toBe(403);
    expect(byBuyer.json().message).toBe('合同约定以卖方化验为准，化验单由卖方上传');
    const wrongLab = await api('POST', `/order/${order.id}/quality-report`, seller.traderToken, { ...reportBody(file), lab: 'third_party' });
    expect(wrongLab.statusCode).toBe(422);
    expect(wrongLab.json().message).toContain('化验机构类别须为「卖方化验室」');
    const badQnet = await api('POST', `/order/${order.id}/quality-report`, seller.traderToken, { ...reportBody(file), qnet: 9000 });
    expect(badQnet.statusCode).toBe(400);
    expect(badQnet.json().message).toContain('发热量不高于 7500 kcal/kg');
    const byOperator = await api('POST', `/order/${order.id}/quality-report`, operator.token, reportBody(file));
    expect(byOperator.statusCode).toBe(403);
    expect(await countOf(qualityReports)).toBe(reports);

    const body = reportBody(file);
    const made = await api('POST', `/order/${order.id}/quality-report`, seller.traderToken, body);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().result).toMatchObject({ status: 'submitted', qnet: 5480, st: 0.65, ad: 17.85, side: 'seller', canAnswer: false });
    const dup = await api('POST', `/order/${order.id}/quality-report`, seller.traderToken, { ...body, file: await upload(seller.traderToken, 'again.png') });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().message).toBe(`化验单号 ${body.reportNo} 已提交过，不能重复使用`);
    const reportId = made.json().result.id as number;
    expect((await api('POST', `/quality-report/${reportId}/answer`, seller.traderToken, { accept: true })).statusCode).toBe(403);
    const noReason = await api('POST', `/quality-report/${reportId}/answer`, buyer.traderToken, { accept: false });
    expect(noReason.statusCode).toBe(400);
    const answered = await api('POST', `/quality-report/${reportId}/answer`, buyer.traderToken, { accept: false, reason: '发热量与我方复检差 200 kcal' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().result).toMatchObject({ status: 'disputed', answerNote: '发热量与我方复检差 200 kcal' });
    expect((await api('POST', `/quality-report/${reportId}/answer`, buyer.traderToken, { accept: true })).statusCode).toBe(409);
    // both sides open the file
    expect((await api('GET', `/order/${order.id}/files/${made.json().result.file.id}`, buyer.traderToken)).statusCode).toBe(200);

    // a third party's report: either side may upload it
    const { order: thirdParty, driver: d2 } = await readyOrder({ testingBasis: 'third_party' });
    await arrivedTruck(thirdParty, d2.id);
    const byBuyerOk = await api('POST', `/order/${thirdParty.id}/quality-report`, buyer.traderToken, { ...reportBody(await upload(buyer.traderToken, 'tp.png')), lab: 'third_party', labName: '山西煤炭质检中心' });
    expect(byBuyerOk.statusCode, byBuyerOk.body).toBe(200);
    expect(byBuyerOk.json().result.side).toBe('buyer');
  });

  it('运输信息 filters and exports; the buyer transports when the contract says so', async () => {
    const { order, driver } = await readyOrder({ transportArranger: 'buyer' });
    expect((await dispatch(order, driver.id, 40_000, seller.traderToken)).statusCode).toBe(403);
    const sent = await dispatch(order, driver.id, 40_000, buyer.traderToken);
    expect(sent.statusCode, sent.body).toBe(200);
    const plate = sent.json().result.plateNo as string;
    // the seller (receiving the truck at its mine) sees the QR token but a masked ID; the buyer sent it and sees all
    const forSeller = (await api('GET', `/dispatch/${sent.json().result.id}`, seller.traderToken)).json().result.truck;
    expect(forSeller.gateToken).toBe(sent.json().result.gateToken);
    expect(forSeller.driverIdCardNo).toContain('**********');
    expect(forSeller.actions).toEqual(['load']);
    const list = await api('GET', `/transport?orderNo=${order.orderNo}&plateNo=${encodeURIComponent(plate)}&status=dispatched`, seller.traderToken);
    expect(list.statusCode).toBe(200);
    expect(list.json().result.total).toBe(1);
    expect((await api('GET', `/transport?orderNo=${order.orderNo}&status=signed`, seller.traderToken)).json().result.total).toBe(0);
    const exported = await api('GET', `/transport/export?orderNo=${order.orderNo}`, buyer.traderToken);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    // the driver choice for 派车: the buyer's approved drivers
    const choices = (await api('GET', `/order/${order.id}/drivers`, buyer.traderToken)).json().result;
    expect(choices.map((c: { id: number }) => c.id)).toContain(driver.id);
    expect(choices[0].maxPlannedKg).toBe(44_000);
    expect((await api('GET', `/order/${order.id}/drivers`, seller.traderToken)).statusCode).toBe(403);
    // 物流信息 lists the order with its progress
    const progress = (await api('GET', `/progress?orderNo=${order.orderNo}`, buyer.traderToken)).json().result.records[0];
    expect(progress).toMatchObject({ orderNo: order.orderNo, plannedKg: 40_000, dispatchedTrucks: 1, canDispatch: true, mySide: 'buyer' });
  });
});
