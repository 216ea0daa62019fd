import 'reflect-metadata';
import type { QualityAdjustments } from '@coalx/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatches, fundAccounts, fundJournal, orders, qualityReports, systemParameters, type Order } from '../../db/schema/index';
import { gradientPng } from '../../lib/simple-png';
import { multipart } from '../../test/multipart';
import { effectiveOrder, tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { findStoredFile } from '../files/files.service';
import { newRequestId } from '../funds/funds.test-helpers';
import { reconcile } from '../funds/ledger';
import { platformEnterpriseId } from '../enterprise/enterprise.service';
import { moveOrder } from '../order/order.service';
import { forgetCachedParameters } from '../system/calendar';

const PNG = gradientPng(8, 8, [10, 20, 30], [200, 210, 220]);
/** the issue's clauses on a 5500 kcal contract */
const RULE: QualityAdjustments = {
  basisQnet: 5500,
  qnetTiers: [
    { from: 5000, to: 5500, fenPer100Kcal: 1000 },
    { from: 5500, to: 5800, fenPer100Kcal: 500 },
  ],
  qnetFlatTiers: [
    { from: 4900, to: 5000, fen: -1000 },
    { from: 4800, to: 4900, fen: -2000 },
  ],
  rejectBelowQnet: 4800,
  basisSt: 0.8,
  fenPerStStep: 500,
  basisAd: 11,
  fenPerAdStep: 0,
  adTiers: [
    { from: 11, to: 11.5, fenPerStep: 300 },
    { from: 11.5, to: 100, fenPerStep: 600 },
  ],
  pricingMt: 8,
};

describe.each(testDatabaseKinds())('settlement statements on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let outsider: TradingParty;
  beforeAll(async () => {
    t = await createTestApp(kind);
    seller = await tradingParty(t);
    buyer = await tradingParty(t);
    outsider = await tradingParty(t);
  }, 120_000);
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const api = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    t.app.inject({ method, url: `/trade-api/api/settlement${url}`, headers: { 'x-access-token': token }, ...(body ? { payload: body } : {}) });

  async function fileId(token: string) {
    const { payload, headers } = multipart({ name: 'report.png', data: PNG });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
    return (await findStoredFile(db(), response.json().result.url))!.id;
  }

  /**
   * An order in 待结算: paid through the API (escrow frozen), trucks signed and a lab report accepted written
   * straight into the delivery tables (delivery.test.ts covers how they get there).
   */
  async function orderToSettle(opts: { quantityKg?: number; trucksKg?: number[]; lab?: { qnet: number; mt: number; st: number; ad: number }; buyerParty?: TradingParty; prepaymentPct?: number } = {}) {
    const made = await effectiveOrder(t, { quantityKg: opts.quantityKg ?? 100_000, seller, buyer: opts.buyerParty ?? buyer, terms: { qualityAdjustments: RULE, prepaymentPct: opts.prepaymentPct ?? 100 } });
    const b = opts.buyerParty ?? buyer;
    if (made.order.status === 'unpaid') {
      const paid = await t.app.inject({ method: 'POST', url: `/trade-api/api/order/${made.order.id}/pay`, headers: { 'x-access-token': b.traderToken }, payload: { requestId: newRequestId() } });
      expect(paid.statusCode, paid.body).toBe(200);
    }
    await moveOrder(db(), made.order.id, 'ship');
    const trucks = opts.trucksKg ?? [40_000, 35_000, 25_000];
    for (const [i, kg] of trucks.entries()) {
      await db().insert(dispatches).values({
        dispatchNo: `PC-T${made.order.id}-${i}`,
        orderId: made.order.id,
        enterpriseId: seller.enterprise.id,
        driverId: 1,
        driverName: '王师傅',
        driverMobile: '13912345678',
        driverIdCardNo: '140102199003071234',
        plateNo: '晋B12345',
        vehicleType: 'heavy_semi_trailer',
        ratedLoadKg: 49_000,
        plannedKg: kg,
        planDate: '2026-06-15',
        gateToken: `gate-${made.order.id}-${i}-${Math.random()}`,
        createdBy: seller.trader.id,
        status: 'signed',
        loadedNetKg: kg + 50,
        arrivedNetKg: kg,
        signedKg: kg,
      });
    }
    const lab = opts.lab ?? { qnet: 5230, mt: 9, st: 1.0, ad: 11.2 };
    await db().insert(qualityReports).values({
      orderId: made.order.id,
      side: 'seller',
      enterpriseId: seller.enterprise.id,
      lab: 'third_party',
      labName: '山西煤炭检测中心',
      reportNo: `HY-${made.order.id}-${Math.random().toString(36).slice(2, 8)}`,
      ...lab,
      vdaf: 30,
      testedAt: '2026-06-15',
      fileId: await fileId(seller.traderToken),
      status: 'accepted',
      createdBy: seller.trader.id,
    });
    const [order] = await db().update(orders).set({ status: 'awaiting_settlement' }).where(eq(orders.id, made.order.id)).returning();
    return order as Order;
  }

  const totalOfAll = async () => {
    const [row] = await db().select({ sum: sql<string>`COALESCE(SUM(${fundAccounts.available} + ${fundAccounts.frozen}), 0)::text` }).from(fundAccounts);
    return Number(row!.sum);
  };
  const account = async (enterpriseId: number) => (await db().select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, enterpriseId)))[0]!;

  it('previews and issues a statement with every line and its source; refuses a second one, the buyer and another enterprise', async () => {
    const order = await orderToSettle();
    const preview = await api('GET', `/preview?orderId=${order.id}`, seller.traderToken);
    expect(preview.statusCode, preview.body).toBe(200);
    const f = preview.json().result;
    expect(f.trucks.map((x: { signedKg: number }) => x.signedKg)).toEqual([40_000, 35_000, 25_000]);
    expect(f.trucks[0].dispatchNo).toBe(`PC-T${order.id}-0`);
    expect(f.signedKg).toBe(100_000);
    // Mt 9 % over the pricing 8 %: 1 % of the weight off
    expect(f.settledKg).toBe(99_000);
    // 845.50 − 20 (Qnet 5230: 2 steps of 10) − 10 (St 1.0: 2 steps of 5) − 6 (Ad 11.2: 2 steps of 3)
    expect(f.qualityLines.map((l: { fenPerTon: number }) => l.fenPerTon)).toEqual([-2000, -1000, -600]);
    expect(f.unitPriceFen).toBe(84_550 - 3600);
    expect(f.amountFen).toBe(Math.round((80_950 * 99_000) / 1000));
    expect(f.escrowFen).toBe(8_455_000);
    expect(f.balanceFen).toBe(f.amountFen - 8_455_000);
    expect(f.lab.reportNo).toMatch(/^HY-/);

    expect((await api('POST', '/statements', buyer.traderToken, { orderId: order.id })).statusCode).toBe(403);
    const foreign = await api('GET', `/preview?orderId=${order.id}`, outsider.traderToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain('不存在');

    const issued = await api('POST', '/statements', seller.traderToken, { orderId: order.id });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().result.statementNo).toMatch(/^JS\d{12}$/);
    expect(issued.json().result.status).toBe('pending');
    const again = await api('POST', '/statements', seller.traderToken, { orderId: order.id });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toContain('已有结算单');
    const id = issued.json().result.id;
    expect((await api('GET', `/statements/${id}`, outsider.traderToken)).statusCode).toBe(404);
    const pdf = await api('GET', `/statements/${id}/pdf`, buyer.traderToken);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses without an accepted lab report, and a rejected quality', async () => {
    const order = await orderToSettle();
    await db().update(qualityReports).set({ status: 'disputed' }).where(eq(qualityReports.orderId, order.id));
    const none = await api('POST', '/statements', seller.traderToken, { orderId: order.id });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toContain('化验单');
    const low = await orderToSettle({ lab: { qnet: 4700, mt: 8, st: 0.8, ad: 11 } });
    const rejected = await api('POST', '/statements', seller.traderToken, { orderId: low.id });
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json().message).toContain('拒收');
  });

  it('20 concurrent confirmations move the money once; Σ of all accounts unchanged; the ledger reconciles; the fee reaches the platform', async () => {
    await db().insert(systemParameters).values({ code: 'fee_per_ton_fen', value: '200' }).onConflictDoUpdate({ target: systemParameters.code, set: { value: '200' } });
    forgetCachedParameters(db());
    try {
      const order = await orderToSettle();
      const issued = (await api('POST', '/statements', seller.traderToken, { orderId: order.id })).json().result;
      expect(issued.feeFen).toBe(19_800); // 2 元/t × 99 t
      const before = await totalOfAll();
      const sellerBefore = await account(seller.enterprise.id);
      const buyerBefore = await account(buyer.enterprise.id);
      expect((await api('POST', `/statements/${issued.id}/confirm`, seller.traderToken, {})).statusCode).toBe(403);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api('POST', `/statements/${issued.id}/confirm`, i % 2 ? buyer.traderToken : buyer.adminToken, {})));
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409 || r.statusCode === 422)).toBe(true);
      const sellerAfter = await account(seller.enterprise.id);
      const buyerAfter = await account(buyer.enterprise.id);
      const total = (a: { available: number; frozen: number }) => a.available + a.frozen;
      expect(total(sellerAfter) - total(sellerBefore)).toBe(issued.amountFen - 19_800);
      // the buyer pays exactly the amount; the rest of the escrow and its performance deposit are available again
      expect(total(buyerBefore) - total(buyerAfter)).toBe(issued.amountFen);
      const deposits = await db().select().from(fundJournal).where(sql`${fundJournal.enterpriseId} = ${buyer.enterprise.id} AND ${fundJournal.refType} = 'trade_deposit' AND ${fundJournal.kind} = 'release' AND ${fundJournal.createdAt} >= ${new Date(Date.now() - 60_000)}`);
      expect(buyerAfter.available - buyerBefore.available).toBe(8_455_000 - issued.amountFen + deposits.reduce((s, j) => s + j.amount, 0));
      expect(await totalOfAll()).toBe(before);
      expect((await reconcile(db())).every((r) => r.balanced)).toBe(true);
      const journal = await db().select().from(fundJournal).where(eq(fundJournal.refId, String(issued.id)));
      expect(journal.filter((j) => j.refType === 'settlement_fee')).toHaveLength(1);
      const [settled] = await db().select().from(orders).where(eq(orders.id, order.id));
      expect(settled).toMatchObject({ status: 'settled', settlementNo: issued.statementNo, settledFen: issued.amountFen, escrowFen: 0 });
      const withNo = await db().select().from(fundJournal).where(sql`${fundJournal.remark} LIKE ${`%${issued.statementNo}%`}`);
      expect(new Set(withNo.map((j) => j.enterpriseId))).toEqual(new Set([buyer.enterprise.id, seller.enterprise.id, journal.find((j) => j.refType === 'settlement_fee')!.enterpriseId]));
    } finally {
      await db().update(systemParameters).set({ value: '0' }).where(eq(systemParameters.code, 'fee_per_ton_fen'));
      forgetCachedParameters(db());
    }
  });

  it('a shortfall is paid from available funds, or refused with nothing moved (去入金)', async () => {
    const poor = await tradingParty(t);
    // 10 % prepayment: the statement asks far more than the escrow
    const order = await orderToSettle({ quantityKg: 100_000, trucksKg: [100_000], buyerParty: poor, prepaymentPct: 10, lab: { qnet: 5500, mt: 8, st: 0.8, ad: 11 } });
    const issued = (await api('POST', '/statements', seller.traderToken, { orderId: order.id })).json().result;
    expect(issued.balanceFen).toBeGreaterThan(0);
    const before = await account(poor.enterprise.id);
    const journalBefore = (await db().select().from(fundJournal)).length;
    // the buyer spends its money elsewhere first: not enough left
    await db().update(fundAccounts).set({ available: 1 }).where(eq(fundAccounts.enterpriseId, poor.enterprise.id));
    const refused = await api('POST', `/statements/${issued.id}/confirm`, poor.traderToken, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).not.toBe(0);
    expect(refused.json().message).toContain('入金');
    expect((await db().select().from(fundJournal)).length).toBe(journalBefore);
    const [still] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(still!.status).toBe('awaiting_settlement');
    await db().update(fundAccounts).set({ available: before.available }).where(eq(fundAccounts.enterpriseId, poor.enterprise.id));
    const ok = await api('POST', `/statements/${issued.id}/confirm`, poor.traderToken, {});
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await account(poor.enterprise.id);
    expect(before.available + before.frozen - after.available - after.frozen).toBe(issued.amountFen);
    expect((await reconcile(db())).every((r) => r.balanced)).toBe(true);
  });

  it('the buyer disputes, the operator sends it back, the seller reissues; or upholds and the money moves', async () => {
    const operator = await import('../../test/factories').then((m) => m.signedIn(t.app, db(), { role: 'operator' }));
    const order = await orderToSettle();
    const first = (await api('POST', '/statements', seller.traderToken, { orderId: order.id })).json().result;
    expect((await api('POST', `/statements/${first.id}/dispute`, seller.traderToken, { reason: '数量不对' })).statusCode).toBe(403);
    const disputed = await api('POST', `/statements/${first.id}/dispute`, buyer.traderToken, { reason: '第二车签收重量有误' });
    expect(disputed.json().result).toMatchObject({ status: 'disputed', disputeReason: '第二车签收重量有误' });
    expect((await api('POST', `/statements/${first.id}/rule`, buyer.traderToken, { uphold: true, note: '维持' })).statusCode).toBe(403);
    const back = await api('POST', `/statements/${first.id}/rule`, operator.token, { uphold: false, note: '请卖方核对后重开' });
    expect(back.json().result.status).toBe('returned');
    const second = (await api('POST', '/statements', seller.traderToken, { orderId: order.id })).json().result;
    expect(second.statementNo).not.toBe(first.statementNo);
    await api('POST', `/statements/${second.id}/dispute`, buyer.traderToken, { reason: '仍有异议' });
    const upheld = await api('POST', `/statements/${second.id}/rule`, operator.token, { uphold: true, note: '磅单无误，维持结算单' });
    expect(upheld.statusCode, upheld.body).toBe(200);
    expect(upheld.json().result.status).toBe('confirmed');
    const [settled] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(settled!.status).toBe('settled');
    const list = await api('GET', '/statements?status=returned', buyer.traderToken);
    expect(list.json().result.records.map((r: { id: number }) => r.id)).toContain(first.id);
    const foreign = await api('GET', '/statements', outsider.traderToken);
    expect(foreign.json().result.total).toBe(0);
  });
  it('the platform account row stays out of the operator\'s enterprise audit queue and cannot be audited', async () => {
    const operator = await import('../../test/factories').then((m) => m.signedIn(t.app, db(), { role: 'operator' }));
    const platformId = await platformEnterpriseId(db());
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/trade-api${url}`, headers: { 'x-access-token': operator.token }, ...(payload ? { payload } : {}) });
    const all = await call('GET', '/sys/enterprise/audit/list?pageSize=100&keyword=' + encodeURIComponent('平台服务费'));
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().result.total).toBe(0);
    const full = (await call('GET', '/sys/enterprise/audit/list?pageSize=100')).json().result;
    expect(full.records.map((r: { id: number }) => r.id)).not.toContain(platformId);
    const approve = await call('POST', '/sys/enterprise/audit/approve', { id: platformId });
    expect(approve.statusCode).toBe(404);
  });
});
