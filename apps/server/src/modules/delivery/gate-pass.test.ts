import 'reflect-metadata';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, dispatches, gatePasses, orderEvents, orders, weighTickets, type Order } from '../../db/schema/index';
import { gradientPng } from '../../lib/simple-png';
import { deliveryFixture } from '../../test/delivery-fixture';
import { multipart } from '../../test/multipart';
import { testDatabaseKinds } from '../../test/test-app';
import { verifyGatePass } from './gate-pass';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PHOTO = gradientPng(8, 8, [40, 40, 40], [220, 200, 180]);

/** The weighbridge by QR code (issue 32): a clerk without an account records one truck's ticket with its pass. */
describe.each(testDatabaseKinds())('the weighbridge by QR pass on %s', (kind) => {
  const fixture = deliveryFixture(kind);
  const { t, seller, buyer, outsider, db, later, call, upload } = fixture;
  const api = (method: 'GET' | 'POST', url: string, token: string, body?: object) => call(method, `/delivery${url}`, token, body);

  /** A visitor's call: no token at all, from the weighbridge's address. */
  const atGate = (method: 'GET' | 'POST', url: string, body?: object, remoteAddress = '10.8.0.7') =>
    t.app.inject({ method, url: `/trade-api/api/gate-pass/${url}`, remoteAddress, ...(body ? { payload: body } : {}) });
  async function photoWith(pass: string, name = 'ticket.png', data: Buffer = PHOTO) {
    const { payload, headers } = multipart({ name, data });
    return t.app.inject({ method: 'POST', url: `/trade-api/api/gate-pass/${pass}/photo`, payload, headers, remoteAddress: '10.8.0.7' });
  }
  let seq = 0;
  const ticket = (netKg: number, at: Date, photo: string, recorderName = '张过磅') => ({
    ticketNo: `QR-${kind}-${++seq}`,
    grossKg: netKg + 15_000,
    tareKg: 15_000,
    netKg,
    weighedAt: at.toISOString(),
    photo,
    recorderName,
  });

  async function dispatchedTruck() {
    const { order, driver } = await fixture.readyOrder({}, { name: '王大山', plateNo: '晋B66666' });
    const sent = await api('POST', '/dispatch', seller.traderToken, { orderId: order.id, driverId: driver.id, plannedKg: 40_000, planDate: order.terms.deliveryDateStart });
    expect(sent.statusCode, sent.body).toBe(200);
    return { order: order as Order, truck: sent.json().result as { id: number; dispatchNo: string; gatePasses: { loading: string; arrival: string } }, driver };
  }
  const truckRow = async (id: number) => (await db().select().from(dispatches).where(eq(dispatches.id, id)))[0]!;

  it('the mine clerk opens the loading pass without signing in, records the ticket with a photo; the seller sees who; the plant clerk then records arrival', async () => {
    const { order, truck, driver } = await dispatchedTruck();
    // the seller sent the truck: it prints both passes; the buyer sees only the plant's, an outsider the truck not at all
    expect(truck.gatePasses.loading).toMatch(/^\d+\.L\.\d+\./);
    expect(truck.gatePasses.arrival).toMatch(/^\d+\.A\.\d+\./);
    const buyersView = (await api('GET', `/dispatch/${truck.id}`, buyer.traderToken)).json().result.truck;
    expect(buyersView.gatePasses).toEqual({ loading: null, arrival: truck.gatePasses.arrival });
    expect((await api('GET', `/dispatch/${truck.id}`, outsider.traderToken)).statusCode).toBe(404);

    const opened = await atGate('GET', truck.gatePasses.loading);
    expect(opened.statusCode, opened.body).toBe(200);
    const view = opened.json().result;
    expect(view).toMatchObject({ stage: 'loading', dispatchNo: truck.dispatchNo, plateNo: '晋B66666', driverName: '王**', plannedKg: 40_000, orderNo: order.orderNo, closedReason: null, ticket: null });
    expect(view.driverMobile).toMatch(/^\d{3}\*{4}\d{4}$/);
    expect(JSON.stringify(view)).not.toContain(driver.idCardNo);
    // the plant's pass waits for loading
    expect((await atGate('GET', truck.gatePasses.arrival)).json().result.closedReason).toBe('车辆尚未装车，装车后方可录入到货磅单');

    const photo = await photoWith(truck.gatePasses.loading);
    expect(photo.statusCode, photo.body).toBe(200);
    const recorded = await atGate('POST', `${truck.gatePasses.loading}/ticket`, ticket(40_000, t.clock.now(), photo.json().result.url));
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json().result).toMatchObject({ status: 'loaded', closedReason: '装车磅单已录入，二维码已失效', ticket: { netKg: 40_000, recordedBy: '张过磅（扫码录入）' } });
    expect(await truckRow(truck.id)).toMatchObject({ status: 'loaded', loadedNetKg: 40_000 });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.loadedKg).toBe(40_000);

    // the seller sees the ticket on the order, and who recorded it with what
    const sellers = (await api('GET', `/order/${order.id}`, seller.traderToken)).json().result.trucks.find((x: { id: number }) => x.id === truck.id);
    expect(sellers.tickets[0]).toMatchObject({ stage: 'loading', netKg: 40_000, recordedBy: '张过磅（扫码录入）' });
    const [row] = await db().select().from(weighTickets).where(eq(weighTickets.dispatchId, truck.id));
    const [pass] = await db().select().from(gatePasses).where(and(eq(gatePasses.dispatchId, truck.id), eq(gatePasses.stage, 'loading')));
    expect(row).toMatchObject({ createdBy: null, gatePassId: pass!.id, recorderName: '张过磅', enterpriseId: seller.enterprise.id });
    expect(pass!.usedAt).not.toBeNull();
    const [event] = await db().select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.action, '装车过磅')));
    expect(event!.actorName).toBe('张过磅（扫码）');
    // every use is in the audit trail under the pass's id and the address, for the seller's enterprise
    await t.app.auditTrail.flush();
    const uses = await db().select().from(auditLogs).where(eq(auditLogs.username, `二维码 ${pass!.tokenId}`)).orderBy(auditLogs.id);
    // (the ticket's row is written in its own transaction, the photo's after its answer: their order may differ)
    expect(uses.map((u) => u.action).sort()).toEqual(['扫码上传磅单照片', '扫码录入磅单', '扫码查看派车单'].sort());
    expect(uses.every((u) => u.ip === '10.8.0.7' && u.enterpriseId === seller.enterprise.id && u.userId === null && u.result === 'success')).toBe(true);
    expect(uses.find((u) => u.action === '扫码录入磅单')!.objectId).toBe(truck.dispatchNo);

    // the same link again: refused in Chinese, nothing changes
    const again = await atGate('POST', `${truck.gatePasses.loading}/ticket`, ticket(40_000, t.clock.now(), photo.json().result.url));
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe('装车磅单已录入，二维码已失效');
    expect((await photoWith(truck.gatePasses.loading)).statusCode).toBe(410);
    expect((await db().select().from(weighTickets).where(eq(weighTickets.dispatchId, truck.id))).length).toBe(1);

    // the plant: a photo of the seller's cannot stand for the buyer's ticket; its own can
    await later(3 * HOUR);
    const sellersPhoto = await upload(seller.traderToken);
    const foreign = await atGate('POST', `${truck.gatePasses.arrival}/ticket`, ticket(39_960, t.clock.now(), sellersPhoto, '李计量'));
    expect(foreign.statusCode, foreign.body).toBe(422);
    const arrivalPhoto = (await photoWith(truck.gatePasses.arrival)).json().result.url;
    const arrived = await atGate('POST', `${truck.gatePasses.arrival}/ticket`, ticket(39_960, t.clock.now(), arrivalPhoto, '李计量'));
    expect(arrived.statusCode, arrived.body).toBe(200);
    expect(await truckRow(truck.id)).toMatchObject({ status: 'arrived', arrivedNetKg: 39_960, lossKg: 40 });
    const buyers = (await api('GET', `/dispatch/${truck.id}`, buyer.traderToken)).json().result.truck;
    expect(buyers.tickets.map((x: { recordedBy: string }) => x.recordedBy)).toEqual(['张过磅（扫码录入）', '李计量（扫码录入）']);
  });

  it('a pass reads and records its own truck only: another truck, stage or enterprise in it, or a forged signature, is 二维码无效', async () => {
    const a = await dispatchedTruck();
    const b = await dispatchedTruck();
    const [idA, , enterprise, tokenId, signature] = a.truck.gatePasses.loading.split('.');
    const forged = [
      `${b.truck.id}.L.${enterprise}.${tokenId}.${signature}`, // truck B under A's signature
      `${idA}.A.${enterprise}.${tokenId}.${signature}`, // the plant's stage
      `${idA}.L.${buyer.enterprise.id}.${tokenId}.${signature}`, // another enterprise
      `${idA}.L.${enterprise}.${tokenId}.${'A'.repeat(22)}`, // a made-up signature
      `${b.truck.gatePasses.loading.split('.').slice(0, 4).join('.')}.${signature}`, // B's pass, A's signature
      'not-a-pass',
      `${'9'.repeat(15)}.L.1.${'a'.repeat(22)}.${'b'.repeat(22)}`,
    ];
    for (const pass of forged) {
      const read = await atGate('GET', encodeURIComponent(pass));
      expect(read.statusCode, pass).toBe(404);
      expect(read.json().message).toBe('二维码无效，请核对派车单上的二维码');
      expect((await atGate('POST', `${encodeURIComponent(pass)}/ticket`, ticket(40_000, t.clock.now(), 'x'))).statusCode).toBe(404);
    }
    expect(verifyGatePass(Buffer.alloc(32), a.truck.gatePasses.loading)).toBeNull();
    // B's own pass reads B, not A
    expect((await atGate('GET', b.truck.gatePasses.loading)).json().result.dispatchNo).toBe(b.truck.dispatchNo);
    expect(await truckRow(a.truck.id)).toMatchObject({ status: 'dispatched' });
    expect(await truckRow(b.truck.id)).toMatchObject({ status: 'dispatched' });
  });

  it('cancelling the truck revokes its passes; a pass expires after gate_pass_days; a ticket recorded while signed in closes it too', async () => {
    const cancelled = await dispatchedTruck();
    const photo = (await photoWith(cancelled.truck.gatePasses.loading)).json().result.url;
    expect((await api('POST', `/dispatch/${cancelled.truck.id}/cancel`, seller.traderToken, { reason: '车辆故障' })).statusCode).toBe(200);
    const refused = await atGate('POST', `${cancelled.truck.gatePasses.loading}/ticket`, ticket(40_000, t.clock.now(), photo));
    expect(refused.statusCode).toBe(410);
    expect(refused.json().message).toBe('派车单已取消，二维码已失效');
    expect((await atGate('GET', cancelled.truck.gatePasses.arrival)).json().result.closedReason).toBe('派车单已取消，二维码已失效');

    const signedIn = await dispatchedTruck();
    const loaded = await api('POST', `/dispatch/${signedIn.truck.id}/loading`, seller.traderToken, { ...ticket(40_000, t.clock.now(), await upload(seller.traderToken)), recorderName: undefined });
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect((await atGate('GET', signedIn.truck.gatePasses.loading)).json().result).toMatchObject({ closedReason: '装车磅单已录入，二维码已失效', ticket: { recordedBy: expect.not.stringContaining('扫码') } });

    const late = await dispatchedTruck();
    const latePhoto = (await photoWith(late.truck.gatePasses.loading)).json().result.url;
    await later(7 * DAY + HOUR);
    const expired = await atGate('POST', `${late.truck.gatePasses.loading}/ticket`, ticket(40_000, t.clock.now(), latePhoto));
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe('二维码已过期，请联系派车方重新打印派车单');
    expect(await truckRow(late.truck.id)).toMatchObject({ status: 'dispatched', loadedNetKg: null });
  });

  it('two phones record the same pass at once: one ticket, counted once', async () => {
    const { order, truck } = await dispatchedTruck();
    const photos = [(await photoWith(truck.gatePasses.loading)).json().result.url, (await photoWith(truck.gatePasses.loading)).json().result.url];
    const answers = await Promise.all(photos.map((photo) => atGate('POST', `${truck.gatePasses.loading}/ticket`, ticket(40_000, t.clock.now(), photo))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
    expect((await db().select().from(weighTickets).where(eq(weighTickets.dispatchId, truck.id))).length).toBe(1);
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.loadedKg).toBe(40_000);
    const [latest] = await db().select().from(auditLogs).where(eq(auditLogs.action, '扫码录入磅单')).orderBy(desc(auditLogs.id)).limit(1);
    expect(latest).toBeDefined();
  });
});
