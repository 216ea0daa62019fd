import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auctions, enterpriseSuspensions, listings, users } from '../../db/schema/index';
import { liftSuspension, requireTradingAllowed, suspendTrading } from './trading-rights.service';
import { runScheduledJobs } from '../../plugins/scheduler';
import { deliveryFixture } from '../../test/delivery-fixture';
import { settled, messagesOf } from '../../test/notices';
import { effectiveOrder } from '../../test/order-factory';
import { testDatabaseKinds } from '../../test/test-app';
import { auctionInput } from '../auction/auction.test-helpers';
import { newRequestId } from '../funds/funds.test-helpers';
import { createProduct, listingInput } from '../listing/listing.test-helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(testDatabaseKinds())('trading rights (暂停交易) on %s', (kind) => {
  const fixture = deliveryFixture(kind);
  const { t, seller, buyer, outsider, operator, db, later, call, upload } = fixture;
  const api = (method: 'GET' | 'POST', url: string, token: string, body?: object) => call(method, url, token, body);
  const ops = (method: 'GET' | 'POST', url: string, token: string, body?: object) => call(method, `/operation${url}`, token, body);

  async function openListing(stockCode: string) {
    const created = await api('POST', '/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now(), { quantity: 10_000_000, maxSubscribe: 500_000 }));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await api('POST', '/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    return tradeId;
  }
  async function approvedAuction(stockCode: string, overrides = {}) {
    const created = await api('POST', '/bidApply', seller.adminToken, auctionInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await api('POST', '/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    return tradeId;
  }
  const subscribe = (token: string, tradeId: string) => api('POST', '/listedAnswerApply', token, { tradeId, quantity: 100_000, requestId: newRequestId() });
  const enrol = (token: string, tradeId: string) => api('POST', '/bidEnroll/add', token, { tradeId, acceptRules: true, requestId: newRequestId() });
  const ticket = (ticketNo: string, netKg: number, photo: string) => ({ ticketNo, grossKg: netKg + 15_000, tareKg: 15_000, netKg, weighedAt: t.clock.now().toISOString(), photo });

  function expectRefused(response: { statusCode: number; body: string; json(): { message: string; error?: string } }, reason: string) {
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().message).toContain(`贵企业已被暂停交易：${reason}`);
    expect(response.json().error).toBe('trading_suspended');
  }

  it('a suspended enterprise is refused 摘牌, enrolment, bids and new listings and auctions, yet pays its order and signs for its truck; lifting restores trading', async () => {
    const stockCode = await createProduct(db());
    // before the suspension: an auction the buyer enrols in, one still open for enrolment, an open listing,
    // an order waiting for the buyer's payment and a truck on its way to the buyer
    const auctionA = await approvedAuction(stockCode);
    expect((await enrol(buyer.traderToken, auctionA)).statusCode).toBe(200);
    const auctionB = await approvedAuction(stockCode, {
      enrolDeadline: new Date(t.clock.now().getTime() + 5 * HOUR).toISOString(),
      bidStart: new Date(t.clock.now().getTime() + 6 * HOUR).toISOString(),
      bidEnd: new Date(t.clock.now().getTime() + 7 * HOUR).toISOString(),
    });
    const listing = await openListing(stockCode);
    const unpaid = await effectiveOrder(t, { seller, buyer, quantityKg: 100_000, terms: { prepaymentPct: 100 } });
    expect(unpaid.order.status).toBe('unpaid');
    const { order, driver } = await fixture.readyOrder({ quantityKg: 100_000 });
    const sent = await api('POST', '/delivery/dispatch', seller.traderToken, { orderId: order.id, driverId: driver.id, plannedKg: 40_000, planDate: order.terms.deliveryDateStart });
    expect(sent.statusCode, sent.body).toBe(200);
    const truckId = sent.json().result.id as number;
    expect((await api('POST', `/delivery/dispatch/${truckId}/loading`, seller.traderToken, ticket(`ZC-${kind}-1`, 40_000, await upload(seller.traderToken)))).statusCode).toBe(200);

    // a listing the buyer submitted for approval before its suspension
    const submitted = await api('POST', '/addListedApply', buyer.adminToken, listingInput(stockCode, t.clock.now()));
    expect(submitted.statusCode, submitted.body).toBe(200);
    const submittedId = submitted.json().result.tradeId as string;

    // the operator suspends the buyer until tomorrow evening
    const endsAt = new Date(t.clock.now().getTime() + 30 * HOUR);
    endsAt.setUTCSeconds(0, 0);
    const reason = '涉嫌违约未履行，暂停交易待查';
    const suspended = await ops('POST', '/enterprises/suspend', operator.token, { id: buyer.enterprise.id, reason, endsAt: endsAt.toISOString() });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().result).toMatchObject({ tradingState: 'suspended', can: { suspend: false, lift: true } });
    const endText = suspended.json().result.suspension.endsAt.slice(0, 16) as string;
    expect(suspended.json().result.tradingStateText).toBe(`暂停交易 至 ${endText}`);
    // a second suspension while one is in force is refused
    expect((await ops('POST', '/enterprises/suspend', operator.token, { id: buyer.enterprise.id, reason: '再次暂停' })).statusCode).toBe(409);

    // refused: 摘牌, enrolment, a new listing and auction, a bid
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const refusedSubscription = await subscribe(buyer.traderToken, listing);
    expectRefused(refusedSubscription, reason);
    expect(refusedSubscription.json().message).toBe(`贵企业已被暂停交易：${reason}（至 ${endText}）`);
    expectRefused(await enrol(buyer.traderToken, auctionB), reason);
    expectRefused(await api('POST', '/addListedApply', buyer.adminToken, listingInput(stockCode, t.clock.now())), reason);
    expectRefused(await api('POST', '/bidApply', buyer.adminToken, auctionInput(stockCode, t.clock.now())), reason);
    const [a] = await db().select().from(auctions).where(eq(auctions.tradeNo, auctionA));
    t.clock.advance(Math.max(0, a!.bidStart.getTime() - t.clock.now().getTime()) + 1000);
    await runScheduledJobs(t.app);
    expectRefused(await api('POST', '/bidRecord/bidAnswerApply', buyer.traderToken, { tradeId: auctionA, price: 80_000 }), reason);
    // nothing was made for the suspended enterprise, and what it submitted before is not approved meanwhile
    expect((await db().select().from(listings).where(eq(listings.enterpriseId, buyer.enterprise.id))).map((l) => [l.tradeNo, l.status])).toEqual([[submittedId, 'submitted']]);
    const refusedApproval = await api('POST', '/listing/audit/approve', operator.token, { tradeId: submittedId });
    expect(refusedApproval.statusCode, refusedApproval.body).toBe(422);
    expect(refusedApproval.json().message).toBe(`发布企业已被暂停交易，不能审核通过：${reason}（至 ${endText}）`);
    // a draft is still its own business
    expect((await api('POST', '/addListedApply', buyer.adminToken, { ...listingInput(stockCode, t.clock.now()), submit: false })).statusCode).toBe(200);

    // what is under way goes on: the goods payment and the truck's arrival and sign-for
    const paid = await api('POST', `/order/${unpaid.order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().result.status).toBe('awaiting_shipment');
    await later(HOUR);
    const arrived = await api('POST', `/delivery/dispatch/${truckId}/arrival`, buyer.traderToken, ticket(`DH-${kind}-1`, 39_960, await upload(buyer.traderToken)));
    expect(arrived.statusCode, arrived.body).toBe(200);
    const signed = await api('POST', `/delivery/dispatch/${truckId}/sign`, buyer.traderToken, {});
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().result.status).toBe('signed');

    // the 企业名录 shows it under 暂停交易, with its members and its history
    const list = await call('GET', '/operation/enterprises/list?tradingState=suspended&pageSize=100', operator.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().result.records.map((r: { id: number }) => r.id)).toContain(buyer.enterprise.id);
    const normal = await call('GET', '/operation/enterprises/list?tradingState=normal&pageSize=100', operator.token);
    expect(normal.json().result.records.map((r: { id: number }) => r.id)).not.toContain(buyer.enterprise.id);
    const detail = (await call('GET', `/operation/enterprises/${buyer.enterprise.id}`, operator.token)).json().result;
    expect(detail.members.map((m: { username: string }) => m.username)).toEqual(expect.arrayContaining([buyer.admin.username, buyer.trader.username]));
    expect(detail.audits[0]).toMatchObject({ kind: 'registration', status: 'approved', statusText: '已通过' });
    expect(detail.suspensions).toHaveLength(1);
    expect(detail.suspensions[0]).toMatchObject({ reason, status: 'active', statusText: '暂停中' });

    // its members were told, with the reason
    await settled(t);
    const told = await messagesOf(db(), buyer.trader.id, 'enterprise.trading_suspended');
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain(reason);

    // lifting restores trading at once
    const lifted = await ops('POST', '/enterprises/lift', operator.token, { id: buyer.enterprise.id, reason: '核查完毕，恢复交易' });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().result).toMatchObject({ tradingState: 'normal', tradingStateText: '正常' });
    expect(lifted.json().result.suspensions[0]).toMatchObject({ status: 'lifted', statusText: '已恢复', liftReason: '核查完毕，恢复交易' });
    expect((await subscribe(buyer.traderToken, listing)).statusCode).toBe(200);
    expect((await enrol(buyer.traderToken, auctionB)).statusCode).toBe(200);
    expect((await api('POST', '/listing/audit/approve', operator.token, { tradeId: submittedId })).statusCode).toBe(200);
    // lifting again has nothing to lift
    expect((await ops('POST', '/enterprises/lift', operator.token, { id: buyer.enterprise.id, reason: '再次恢复' })).statusCode).toBe(422);
    await settled(t);
    expect(await messagesOf(db(), buyer.trader.id, 'enterprise.trading_resumed')).toHaveLength(1);
  });

  it('a suspension for a period ends by itself at its end time; the scheduler marks it ended', async () => {
    const stockCode = await createProduct(db());
    const listing = await openListing(stockCode);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const endsAt = new Date(t.clock.now().getTime() + 2 * HOUR);
    const suspended = await ops('POST', '/enterprises/suspend', operator.token, { id: outsider.enterprise.id, reason: '资料待补充', endsAt: endsAt.toISOString() });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expectRefused(await subscribe(outsider.traderToken, listing), '资料待补充');

    await later(HOUR);
    expectRefused(await subscribe(outsider.traderToken, listing), '资料待补充');
    // past the end: trading again, before any scheduler round
    await later(HOUR + 1000);
    const after = await subscribe(outsider.traderToken, listing);
    expect(after.statusCode, after.body).toBe(200);
    const [row] = await db().select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.enterpriseId, outsider.enterprise.id));
    expect(row!.status).toBe('active');
    await runScheduledJobs(t.app);
    const [ended] = await db().select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.id, row!.id));
    expect(ended!.status).toBe('ended');
    const detail = (await call('GET', `/operation/enterprises/${outsider.enterprise.id}`, operator.token)).json().result;
    expect(detail).toMatchObject({ tradingState: 'normal', can: { suspend: true, lift: false } });
    expect(detail.suspensions[0]).toMatchObject({ status: 'ended', statusText: '已到期' });
  });

  it("the bid path reads an enterprise's suspension once, until a suspension event drops the copy", async () => {
    const clock = t.clock;
    await requireTradingAllowed(db(), clock, seller.enterprise.id);
    // a row written behind the service's back (no event) is not read again: the check holds a copy per enterprise
    const [operatorRow] = await db().select().from(users).where(eq(users.username, operator.username));
    await db().insert(enterpriseSuspensions).values({ enterpriseId: seller.enterprise.id, reason: '直接写入', startsAt: clock.now(), status: 'active', createdBy: operatorRow!.id });
    await expect(requireTradingAllowed(db(), clock, seller.enterprise.id)).resolves.toBeUndefined();
    // any suspension event (here another enterprise's) drops every copy on every process
    await suspendTrading(db(), clock, operatorRow!.id, { enterpriseId: buyer.enterprise.id, reason: '另一家企业' });
    await expect(requireTradingAllowed(db(), clock, seller.enterprise.id)).rejects.toThrow('贵企业已被暂停交易：直接写入（至交易中心恢复交易）');
    await liftSuspension(db(), clock, operatorRow!.id, { enterpriseId: seller.enterprise.id, reason: '测试结束' });
    await liftSuspension(db(), clock, operatorRow!.id, { enterpriseId: buyer.enterprise.id, reason: '测试结束' });
    await expect(requireTradingAllowed(db(), clock, seller.enterprise.id)).resolves.toBeUndefined();
  });

  it('refuses bad input in Chinese and keeps traders off the operator routes (403)', async () => {
    const past = new Date(t.clock.now().getTime() - MINUTE).toISOString();
    const cases: [object, number, string][] = [
      [{ id: seller.enterprise.id, reason: '' }, 400, '请填写暂停交易原因'],
      [{ id: seller.enterprise.id, reason: '测试', endsAt: past }, 422, '暂停截止时间须晚于当前时间'],
      [{ id: seller.enterprise.id, reason: '测试', endsAt: '明天' }, 400, '暂停截止时间格式不正确'],
      [{ id: 99_999_999, reason: '测试' }, 404, '企业不存在'],
    ];
    const before = await db().select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.enterpriseId, seller.enterprise.id));
    for (const [body, status, message] of cases) {
      const response = await ops('POST', '/enterprises/suspend', operator.token, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
    }
    expect(await db().select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.enterpriseId, seller.enterprise.id))).toEqual(before);

    for (const token of [seller.traderToken, seller.adminToken]) {
      expect((await ops('GET', '/enterprises/list', token)).statusCode).toBe(403);
      expect((await ops('GET', `/enterprises/${seller.enterprise.id}`, token)).statusCode).toBe(403);
      expect((await ops('POST', '/enterprises/suspend', token, { id: buyer.enterprise.id, reason: '自行暂停' })).statusCode).toBe(403);
      expect((await ops('POST', '/enterprises/lift', token, { id: buyer.enterprise.id, reason: '自行恢复' })).statusCode).toBe(403);
      expect((await ops('GET', '/funds/overview', token)).statusCode).toBe(403);
      expect((await ops('GET', '/funds/reconciliations', token)).statusCode).toBe(403);
      expect((await ops('POST', '/funds/reconcile', token)).statusCode).toBe(403);
    }
  });
});
