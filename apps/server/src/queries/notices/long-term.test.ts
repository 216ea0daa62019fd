import 'reflect-metadata';
import { ContractStates, addMonths, monthDays, type LongTermDetail, type LongTermOffer } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, users, type WebhookEndpoint } from '../../db/schema/index';
import { makeFrameworkContract } from '../../flows/make-long-term-contract';
import { startLongTermOfContract } from '../../flows/start-long-term';
import { shanghaiDate } from '../../lib/shanghai-time';
import { transition } from '../../lib/transition';
import { createProduct } from '../../modules/listing/listing.test-helpers';
import { signedIn } from '../../test/factories';
import { tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { endpointFor, messagesOf, schedulerRound, settled, webhookBodiesOf, webhookReceiver } from '../../test/notices';

const DAY = 86_400_000;

describe.each(testDatabaseKinds())('notices of long-term deals on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let outsider: TradingParty;
  let operatorId = 0;
  let stockCode = '';
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let sellerHook: WebhookEndpoint;
  let buyerHook: WebhookEndpoint;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [seller, buyer, outsider] = [await tradingParty(t), await tradingParty(t), await tradingParty(t)];
    operatorId = (await signedIn(t.app, t.database.db, { role: 'operator' })).user.id;
    stockCode = await createProduct(t.database.db);
    receiver = await webhookReceiver();
    sellerHook = await endpointFor(t.database.db, seller.enterprise.id, receiver.url);
    buyerHook = await endpointFor(t.database.db, buyer.enterprise.id, receiver.url);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const db = () => t.database.db;
  const call = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    t.app.inject({ method, url: `/trade-api/api${url}`, headers: { 'x-access-token': token }, ...(body ? { payload: body } : {}) });
  const detailOf = async (id: number, token: string) => (await call('GET', `/longTerm/detail?id=${id}`, token)).json().result as LongTermDetail;
  const mentioning = async (userId: number, kind: string, text: string) => (await messagesOf(db(), userId, kind)).filter((m) => m.content.includes(text));
  const thisMonth = () => shanghaiDate(t.clock.now()).slice(0, 7);

  /** A fixed-price offer of three months from this one, 10,000 t a month, published. */
  async function published() {
    const months = [thisMonth(), addMonths(thisMonth(), 1), addMonths(thisMonth(), 2)];
    const offer: LongTermOffer = {
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
      pricing: { mode: 'fixed', basePriceFen: 68_000, coefficientE4: 0, referenceFen: 0, heatFactorE4: null },
      applyDeadline: shanghaiDate(t.clock.now()),
      remark: '',
      submit: true,
    };
    const made = await call('POST', '/longTerm/offer', seller.traderToken, offer);
    expect(made.statusCode, made.body).toBe(200);
    const result = made.json().result as { id: number; dealNo: string };
    expect(result.dealNo).toMatch(/^CX\d+$/);
    return { id: result.id, longTermNo: result.dealNo };
  }

  /** The framework contract of an accepted deal made and taken into effect (as if both had signed): 执行中. */
  async function executing(id: number) {
    await makeFrameworkContract(db(), t.app.storage, t.clock, id);
    const [framework] = await db().select().from(contracts).where(eq(contracts.longTermId, id));
    await transition(db(), ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, framework!.id), set: { effectiveAt: t.clock.now() } });
    await startLongTermOfContract(db(), t.clock, framework!.id);
    expect((await detailOf(id, seller.traderToken)).status).toBe('executing');
  }

  it('applications go to the seller; acceptance to the chosen buyer, the others declined; call-offs to the other side to confirm, their answers to the initiator; webhooks', async () => {
    const deal = await published();
    const link = `/longTermDeal/info?id=${deal.id}`;
    expect((await call('POST', `/longTerm/${deal.id}/apply`, buyer.traderToken, { note: '年度保供' })).statusCode).toBe(200);
    expect((await call('POST', `/longTerm/${deal.id}/apply`, outsider.traderToken, { note: '' })).statusCode).toBe(200);
    await settled(t);
    const applications = await mentioning(seller.admin.id, 'longterm.applied', deal.longTermNo);
    expect(applications).toHaveLength(2);
    expect(applications.every((m) => m.link === `${link}#applications`)).toBe(true);
    expect(applications.some((m) => m.content.includes(buyer.enterprise.organName) && m.content.includes('年度保供'))).toBe(true);
    expect(await mentioning(buyer.admin.id, 'longterm.applied', deal.longTermNo)).toHaveLength(0);

    const applicationId = (await detailOf(deal.id, seller.traderToken)).applications.find((a) => a.buyerName === buyer.enterprise.organName)!.id;
    expect((await call('POST', `/longTerm/${deal.id}/accept`, seller.traderToken, { applicationId })).statusCode).toBe(200);
    await settled(t);
    const [accepted] = await mentioning(buyer.trader.id, 'longtermapplication.accepted', deal.longTermNo);
    expect(accepted).toMatchObject({ title: '长协申请已被接受', link, category: 'longTerm' });
    const [declined] = await mentioning(outsider.admin.id, 'longtermapplication.declined', deal.longTermNo);
    expect(declined!.content).toContain('已接受其他买方的申请');
    expect(await mentioning(buyer.admin.id, 'longtermapplication.declined', deal.longTermNo)).toHaveLength(0);

    await executing(deal.id);
    const today = shanghaiDate(t.clock.now());
    const month = thisMonth();
    const callOff = (token: string, quantityKg: number) => call('POST', `/longTerm/${deal.id}/callOff`, token, { month, quantityKg, deliveryDateStart: today, deliveryDateEnd: monthDays(month).last });

    // issued by the seller: the buyer confirms or declines
    const issued = await callOff(seller.traderToken, 2_000_000);
    expect(issued.statusCode, issued.body).toBe(200);
    const first = issued.json().result.callOffs[0] as { id: number; callOffNo: string };
    await settled(t);
    const [toConfirm] = await mentioning(buyer.admin.id, 'calloff.to_confirm', first.callOffNo);
    expect(toConfirm).toMatchObject({ title: '月度调运待确认', link, urgent: false });
    expect(toConfirm!.content).toContain('2,000.00 吨');
    expect(await mentioning(seller.admin.id, 'calloff.to_confirm', first.callOffNo)).toHaveLength(0);
    for (const hook of [sellerHook, buyerHook]) {
      const body = (await webhookBodiesOf(db(), hook.id, 'calloff.created')).find((b) => b.data.callOffNo === first.callOffNo);
      expect(body!.data).toMatchObject({ longTermNo: deal.longTermNo, month, quantityKg: 2_000_000, priceFen: 68_000, initiator: 'seller' });
    }
    expect((await call('POST', `/longTerm/callOff/${first.id}/decide`, buyer.traderToken, { accept: false, reason: '本月库存充足' })).statusCode).toBe(200);
    await settled(t);
    const [refused] = await mentioning(seller.trader.id, 'calloff.declined', first.callOffNo);
    expect(refused!.content).toContain('本月库存充足');

    // requested by the buyer: the seller confirms
    const requested = await callOff(buyer.traderToken, 3_000_000);
    expect(requested.statusCode, requested.body).toBe(200);
    const second = (requested.json().result.callOffs as { id: number; callOffNo: string }[]).find((c) => c.id !== first.id)!;
    await settled(t);
    expect(await mentioning(seller.admin.id, 'calloff.to_confirm', second.callOffNo)).toHaveLength(1);
    expect(await mentioning(buyer.admin.id, 'calloff.to_confirm', second.callOffNo)).toHaveLength(0);
    const confirmed = await call('POST', `/longTerm/callOff/${second.id}/decide`, seller.traderToken, { accept: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await settled(t);
    const [yes] = await mentioning(buyer.trader.id, 'calloff.accepted', second.callOffNo);
    expect(yes!.content).toMatch(/成交编号 CJ\d+/);
  });

  it('a deal below the fulfilment line warns both sides once per deal and month, not the operator', async () => {
    const deal = await published();
    expect((await call('POST', `/longTerm/${deal.id}/apply`, buyer.traderToken, { note: '' })).statusCode).toBe(200);
    const applicationId = (await detailOf(deal.id, seller.traderToken)).applications[0]!.id;
    expect((await call('POST', `/longTerm/${deal.id}/accept`, seller.traderToken, { applicationId })).statusCode).toBe(200);
    await executing(deal.id);
    const warnings = async (userId: number) => mentioning(userId, 'longterm.fulfilment_warning', deal.longTermNo);

    // this month is in progress: nothing yet
    await schedulerRound(t);
    expect(await warnings(seller.admin.id)).toHaveLength(0);

    // next month: the finished month delivered nothing (0 % < 90 %)
    const first = thisMonth();
    t.clock.advance(Date.parse(`${monthDays(first).last}T16:00:00Z`) - t.clock.now().getTime() + DAY);
    await schedulerRound(t);
    await schedulerRound(t);
    for (const party of [seller, buyer]) {
      const told = await warnings(party.admin.id);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ title: '长协履约率低于预警线', link: `/longTermDeal/info?id=${deal.id}`, urgent: false });
      expect(told[0]!.content).toContain(`${first} 月计划 10,000.00 吨`);
      expect(told[0]!.content).toContain('履约率 0%');
    }
    expect(await warnings(buyer.trader.id)).toHaveLength(1);
    expect(await warnings(outsider.admin.id)).toHaveLength(0);
    expect(await warnings(operatorId)).toHaveLength(0);

    // the month after: its own warning, once
    const second = thisMonth();
    t.clock.advance(Date.parse(`${monthDays(second).last}T16:00:00Z`) - t.clock.now().getTime() + DAY);
    await schedulerRound(t);
    await schedulerRound(t);
    const both = await warnings(seller.admin.id);
    expect(both).toHaveLength(2);
    expect(both[1]!.content).toContain(`${second} 月计划`);
  });
});
