import 'reflect-metadata';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ContractStates, SWITCH_DEFAULTS, addMonths, UKEY_ACTIONS, monthDays, type UkeyAction } from '@coalx/shared';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auctionEnrolments,
  auctions,
  contracts,
  deals,
  dispatches,
  fundAccounts,
  fundJournal,
  listingSubscriptions,
  longTermCallOffs,
  orders,
  qualityReports,
  settlementStatements,
  signSessions,
  switches,
  withdrawals,
} from '../../db/schema/index';
import { makeContractForDeal } from '../../flows/make-contract';
import { makeFrameworkContract } from '../../flows/make-long-term-contract';
import { startLongTermOfContract } from '../../flows/start-long-term';
import { gradientPng } from '../../lib/simple-png';
import { shanghaiDate } from '../../lib/shanghai-time';
import { transition } from '../../lib/transition';
import { runScheduledJobs } from '../../plugins/scheduler';
import { loadTree } from '../../test/architecture';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { effectiveOrder, tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, openTestDatabase, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { auctionInput } from '../auction/auction.test-helpers';
import { findStoredFile } from '../files/files.service';
import { createProduct, listingInput, post } from '../listing/listing.test-helpers';
import { moveOrder } from '../order/order.service';
import { newDeviceKey, signAction, type TestKey } from '../ukey/ukey.test-helpers';
import { newRequestId } from './funds.test-helpers';
import { journalWriters, routeReach } from './money-routes.test-helpers';
import { MONEY_ACTIONS, type MoneyAction } from './pay-auth';

/**
 * Issue 27: every action that moves an enterprise's money (or commits it to a deal it pays for) asks the second
 * factor through one check (`verifyPaymentAuth`, MONEY_ACTIONS in pay-auth.ts). First the list itself, read from
 * the code; then every route of the list, walked with each switch on and off.
 */

/**
 * Routes that can write the funds journal but ask no second factor, and why: the trading centre's own decisions
 * (staff have no funds account and no pay password; each moves money an enterprise already authorised, or gives it
 * back), and the publisher's answer to a subscription, which keeps or returns the subscriber's deposit (frozen with
 * the subscriber's own factor when it subscribed) and takes nothing from the publisher's account.
 */
const NO_FACTOR: Record<string, string> = {
  'POST /api/funds/admin/depositIn/confirm': '交易中心确认入金到账：资金进入企业账户',
  'POST /api/funds/admin/withdraw/pay': '交易中心出金付款：企业申请出金时已验证（withdrawal）',
  'POST /api/funds/admin/withdraw/reject': '交易中心驳回出金：冻结金额退回企业',
  'POST /api/contract/:id/void': '交易中心作废逾期合同并认定违约方',
  'POST /api/order/:id/terminate': '交易中心终止订单：托管货款退回买方',
  'POST /api/settlement/statements/:id/rule': '交易中心裁定结算异议',
  'POST /api/monitor/auction/cancel': '交易中心撤销竞价：报名保证金全部退回企业',
  'POST /api/listedRecord/answerOrdersDeal': '挂牌方确认或拒绝摘牌：只转换或退回摘牌方（摘牌时已验证）的保证金',
};

const PAY_CHECK = 'modules/funds/pay-auth.ts#verifyPaymentAuth';

describe('money actions: the list (read from the code)', () => {
  const tree = loadTree(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'));
  const writers = journalWriters(tree);
  const routes = routeReach(tree, [...writers, PAY_CHECK]);
  const byRoute = new Map(routes.map((r) => [r.route, r]));
  const writesJournal = (r: { reaches: Set<string> }) => writers.some((w) => r.reaches.has(w));
  const listed = Object.values(MONEY_ACTIONS).map((a) => a.route as string);

  it('finds the journal writers: the ledger move and the deposit batch', () => {
    expect(writers).toEqual(expect.arrayContaining(['modules/funds/ledger.ts#move', 'modules/funds/trade-deposits.service.ts#freeze']));
    expect(routes.length).toBeGreaterThan(100);
  });

  it('every route that can write the funds journal is a money action or a listed decision of the trading centre', () => {
    const unlisted = routes.filter((r) => writesJournal(r) && !listed.includes(r.route) && !(r.route in NO_FACTOR)).map((r) => r.route);
    expect(unlisted, 'add it to MONEY_ACTIONS (pay-auth.ts) or, with its reason, to NO_FACTOR').toEqual([]);
    const stale = Object.keys(NO_FACTOR).filter((route) => !byRoute.get(route) || !writesJournal(byRoute.get(route)!));
    expect(stale, 'NO_FACTOR names routes that no longer move money').toEqual([]);
  });

  it('every money action route exists and runs the one pay check; no other route does', () => {
    for (const route of listed) expect(byRoute.get(route)?.reaches.has(PAY_CHECK), route).toBe(true);
    expect(routes.filter((r) => r.reaches.has(PAY_CHECK)).map((r) => r.route).sort()).toEqual([...listed].sort());
  });

  it('the key signs every money action that is not itself certificate-signed (UKEY_ACTIONS)', () => {
    for (const [action, a] of Object.entries(MONEY_ACTIONS)) expect(a.certificateSigned || action in UKEY_ACTIONS, action).toBe(true);
  });
});

it('a fresh installation asks the pay password (PayPassword on), the key switch stays off', async () => {
  expect(SWITCH_DEFAULTS).toEqual({ PayPassword: '1', UkeySwitch: '0' });
  const database = await openTestDatabase('pglite', { installationSwitches: true });
  try {
    const rows = await database.db.select({ code: switches.code, content: switches.content }).from(switches).orderBy(asc(switches.code));
    expect(rows).toEqual([
      { code: 'PayPassword', content: '1' },
      { code: 'UkeySwitch', content: '0' },
    ]);
  } finally {
    await database.close();
  }
});

const PNG = gradientPng(8, 8, [10, 20, 30], [200, 210, 220]);
const DIGITS = '135790';
const payHash = (clientId: string, digits: string) => createHash('sha256').update(`${clientId}:${digits}`).digest('hex');

/** One object to act on, made fresh: the request without its factor, the fields the key signs, its own state. */
interface Scene {
  url: string;
  body: Record<string, unknown>;
  signed: Record<string, unknown>;
  state(): Promise<unknown>;
}

describe.each(testDatabaseKinds())('money actions on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let operatorToken = '';
  let adminToken = '';
  let stockCode = '';
  let device: { deviceId: number; key: TestKey };
  let longTermId = 0;

  const db = () => t.database.db;
  const call = (url: string, token: string, payload: object = {}) => t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': token }, payload });
  const setSwitches = async (payPassword: '0' | '1', ukey: '0' | '1') => {
    for (const [code, content] of [['PayPassword', payPassword], ['UkeySwitch', ukey]] as const) {
      const r = await t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': adminToken }, payload: { code, content } });
      expect(r.statusCode, r.body).toBe(200);
    }
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    // 10,000,000.00 元 each: three auctions' deposits, six orders' prepayments and more
    [seller, buyer] = [await tradingParty(t, 1_000_000_000), await tradingParty(t, 1_000_000_000)];
    operatorToken = (await signedIn(t.app, db(), { role: 'operator' })).token;
    adminToken = (await signedIn(t.app, db(), { role: 'admin' })).token;
    stockCode = await createProduct(db());
    for (const party of [seller, buyer]) {
      expect((await call('/api/funds/payPassword/set', party.adminToken, { password: payHash(party.enterprise.clientId, DIGITS) })).statusCode).toBe(200);
    }
    // the buyer's trader holds a key device (approved by its admin); every action below is the buyer trader's
    const key = await newDeviceKey();
    const applied = await call('/api/ukey/device/apply', buyer.traderToken, { deviceName: '交易员电脑', csr: key.csr });
    expect(applied.statusCode, applied.body).toBe(200);
    device = { deviceId: applied.json().result.id, key };
    expect((await call('/api/ukey/device/approve', buyer.adminToken, { deviceId: device.deviceId })).statusCode).toBe(200);
    longTermId = await executingLongTerm();
  }, 180_000);
  afterAll(async () => t?.close());

  /** A fixed-price long-term deal between the seller and the buyer, in execution: call-offs are made on it. */
  async function executingLongTerm() {
    const thisMonth = shanghaiDate(t.clock.now()).slice(0, 7);
    const published = await call('/api/longTerm/offer', seller.traderToken, {
      stockCode,
      quality: { qnet: 5500, st: 0.8, mt: 12 },
      priceType: 'delivered',
      transport: 'road',
      deliveryProvince: '江苏省',
      deliveryCity: '南京市',
      deliveryDistrict: '',
      deliveryPlace: '华能南京电厂煤场',
      periodStart: thisMonth,
      periodEnd: addMonths(thisMonth, 1),
      months: [thisMonth, addMonths(thisMonth, 1)].map((month) => ({ month, plannedKg: 100_000_000 })),
      pricing: { mode: 'fixed', basePriceFen: 65_000, coefficientE4: 0, referenceFen: 0, heatFactorE4: null },
      applyDeadline: shanghaiDate(t.clock.now()),
      remark: '',
      submit: true,
    });
    expect(published.statusCode, published.body).toBe(200);
    const id = published.json().result.id as number;
    expect((await call(`/api/longTerm/${id}/apply`, buyer.traderToken, { note: '' })).statusCode).toBe(200);
    const detail = await t.app.inject({ method: 'GET', url: `/trade-api/api/longTerm/detail?id=${id}`, headers: { 'x-access-token': seller.traderToken } });
    const applicationId = detail.json().result.applications[0].id as number;
    expect((await call(`/api/longTerm/${id}/accept`, seller.traderToken, { applicationId })).statusCode).toBe(200);
    await makeFrameworkContract(db(), t.app.storage, t.clock, id);
    const [framework] = await db().select().from(contracts).where(eq(contracts.longTermId, id));
    await transition(db(), ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, framework!.id), set: { effectiveAt: t.clock.now() } });
    await startLongTermOfContract(db(), t.clock, framework!.id);
    return id;
  }

  /** An audited listing of the seller, open now. */
  async function openListing(overrides: Parameters<typeof listingInput>[2] = {}) {
    const created = await post(t.app, '/api/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    await Promise.all([seller.refresh(), buyer.refresh()]);
    return tradeId;
  }

  /** An order of the buyer's in 待结算 (paid, trucks signed, lab report accepted) and its statement, issued by the seller. */
  async function pendingStatement() {
    const made = await effectiveOrder(t, { quantityKg: 100_000, seller, buyer });
    const paid = await call(`/api/order/${made.order.id}/pay`, buyer.traderToken, { requestId: newRequestId() });
    expect(paid.statusCode, paid.body).toBe(200);
    await moveOrder(db(), made.order.id, 'ship');
    await db().insert(dispatches).values({
      dispatchNo: `PC-M${made.order.id}`,
      orderId: made.order.id,
      enterpriseId: seller.enterprise.id,
      driverId: 1,
      driverName: '王师傅',
      driverMobile: '13912345678',
      driverIdCardNo: '140102199003071234',
      plateNo: '晋B12345',
      vehicleType: 'heavy_semi_trailer',
      ratedLoadKg: 49_000,
      plannedKg: 100_000,
      planDate: '2026-06-15',
      gateToken: `gate-m-${made.order.id}-${Math.random()}`,
      createdBy: seller.trader.id,
      status: 'signed',
      loadedNetKg: 100_050,
      arrivedNetKg: 100_000,
      signedKg: 100_000,
    });
    const { payload, headers } = multipart({ name: 'report.png', data: PNG });
    const uploaded = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': seller.traderToken } });
    await db().insert(qualityReports).values({
      orderId: made.order.id,
      side: 'seller',
      enterpriseId: seller.enterprise.id,
      lab: 'third_party',
      labName: '山西煤炭检测中心',
      reportNo: `HY-M${made.order.id}`,
      qnet: 5500,
      mt: 8,
      st: 0.8,
      ad: 11,
      vdaf: 30,
      testedAt: '2026-06-15',
      fileId: (await findStoredFile(db(), uploaded.json().result.url))!.id,
      status: 'accepted',
      createdBy: seller.trader.id,
    });
    await db().update(orders).set({ status: 'awaiting_settlement' }).where(eq(orders.id, made.order.id));
    const issued = await call('/api/settlement/statements', seller.traderToken, { orderId: made.order.id });
    expect(issued.statusCode, issued.body).toBe(200);
    return issued.json().result.id as number;
  }

  const scenes: Record<MoneyAction, () => Promise<Scene>> = {
    async listing_subscribe() {
      const tradeId = await openListing();
      const body = { tradeId, quantity: 100_000, requestId: newRequestId() };
      return { url: '/api/listedAnswerApply', body, signed: body, state: async () => db().select().from(listingSubscriptions).where(eq(listingSubscriptions.requestId, body.requestId)) };
    },
    async auction_enrol() {
      const created = await post(t.app, '/api/bidApply', seller.adminToken, auctionInput(stockCode, t.clock.now()));
      expect(created.statusCode, created.body).toBe(200);
      const tradeId = created.json().result.tradeId as string;
      expect((await post(t.app, '/api/auction/audit/approve', operatorToken, { tradeId })).statusCode).toBe(200);
      const body = { tradeId, acceptRules: true, requestId: newRequestId() };
      const [auction] = await db().select().from(auctions).where(eq(auctions.tradeNo, tradeId));
      return { url: '/api/bidEnroll/add', body, signed: body, state: async () => db().select().from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, auction!.id)) };
    },
    async withdrawal() {
      const body = { amount: 12_345, remark: '', requestId: newRequestId() };
      return { url: '/api/funds/withdraw/apply', body, signed: body, state: async () => db().select().from(withdrawals).where(eq(withdrawals.requestId, body.requestId)) };
    },
    async order_pay() {
      const { order } = await effectiveOrder(t, { quantityKg: 100_000, seller, buyer });
      const body = { requestId: newRequestId() };
      return { url: `/api/order/${order.id}/pay`, body, signed: { ...body, orderId: order.id }, state: async () => db().select().from(orders).where(eq(orders.id, order.id)) };
    },
    async statement_confirm() {
      const id = await pendingStatement();
      return { url: `/api/settlement/statements/${id}/confirm`, body: {}, signed: { statementId: id }, state: async () => db().select().from(settlementStatements).where(eq(settlementStatements.id, id)) };
    },
    async call_off_confirm() {
      const today = shanghaiDate(t.clock.now());
      const issued = await call(`/api/longTerm/${longTermId}/callOff`, seller.traderToken, { month: today.slice(0, 7), quantityKg: 1_000_000, deliveryDateStart: today, deliveryDateEnd: monthDays(today.slice(0, 7)).last });
      expect(issued.statusCode, issued.body).toBe(200);
      const callOffId = Math.max(...issued.json().result.callOffs.map((c: { id: number }) => c.id));
      return {
        url: `/api/longTerm/callOff/${callOffId}/decide`,
        body: { accept: true },
        signed: { callOffId },
        state: async () => ({
          callOff: await db().select().from(longTermCallOffs).where(eq(longTermCallOffs.id, callOffId)),
          deals: await db().select().from(deals).where(and(eq(deals.tradeKind, 'long_term'), eq(deals.sourceId, callOffId))),
        }),
      };
    },
    async contract_sign() {
      const tradeId = await openListing({ autoConfirm: true });
      const subscribed = await call('/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: 100_000, requestId: newRequestId() });
      expect(subscribed.statusCode, subscribed.body).toBe(200);
      const [deal] = await db().select().from(deals).where(eq(deals.tradeNo, tradeId));
      await makeContractForDeal(db(), t.app.storage, t.clock, deal!.id);
      const [contract] = await db().select().from(contracts).where(eq(contracts.dealId, deal!.id));
      return {
        url: `/api/contract/${contract!.id}/sign/prepare`,
        body: { deviceId: device.deviceId },
        signed: {},
        state: async () => ({
          contract: await db().select({ status: contracts.status, pdfSha256: contracts.pdfSha256 }).from(contracts).where(eq(contracts.id, contract!.id)),
          sessions: await db().select({ n: count() }).from(signSessions).where(eq(signSessions.userId, buyer.trader.id)),
        }),
      };
    },
  };

  /** Balances of every account, the journal's length and the scene's own rows: what "nothing moved" compares. */
  const snapshot = async (scene: Scene) => ({
    accounts: await db().select({ enterpriseId: fundAccounts.enterpriseId, available: fundAccounts.available, frozen: fundAccounts.frozen }).from(fundAccounts).orderBy(asc(fundAccounts.enterpriseId)),
    journal: (await db().select({ n: count() }).from(fundJournal))[0]!.n,
    state: await scene.state(),
  });

  /** The route a scene's request is (its ids back to the route's parameters). */
  const routeOf = (url: string) => `POST ${url.replace(/\/\d+(?=\/|$)/g, url.startsWith('/api/longTerm/callOff/') ? '/:callOffId' : '/:id')}`;

  /**
   * Fresh scenes for every action, made with both switches off (their setup moves money of its own), each the
   * route of its money action. The auction last: its enrolment closes a minute after it is made, and making a
   * listing moves the clock past that.
   */
  async function makeScenes() {
    await setSwitches('0', '0');
    const made = {} as Record<MoneyAction, Scene>;
    const actions = (Object.keys(MONEY_ACTIONS) as MoneyAction[]).sort((a, b) => Number(a === 'auction_enrol') - Number(b === 'auction_enrol'));
    for (const action of actions) {
      made[action] = await scenes[action]();
      expect(routeOf(made[action].url), action).toBe(MONEY_ACTIONS[action].route);
    }
    await Promise.all([seller.refresh(), buyer.refresh()]);
    return made;
  }

  it('PayPassword on: refused without the pay password and with a wrong one (nothing moves), done with the right one', async () => {
    const made = await makeScenes();
    await setSwitches('1', '0');
    try {
      const right = payHash(buyer.enterprise.clientId, DIGITS);
      const wrong = payHash(buyer.enterprise.clientId, '000000');
      for (const [action, scene] of Object.entries(made)) {
        const before = await snapshot(scene);
        const missing = await call(scene.url, buyer.traderToken, scene.body);
        expect([action, missing.statusCode, missing.json().message]).toEqual([action, 422, '请输入支付密码']);
        const bad = await call(scene.url, buyer.traderToken, { ...scene.body, payPassword: wrong });
        expect([action, bad.statusCode, bad.json().message]).toEqual([action, 422, '支付密码错误，还可尝试 4 次']);
        expect(await snapshot(scene), action).toEqual(before);
        const done = await call(scene.url, buyer.traderToken, { ...scene.body, payPassword: right });
        expect(done.statusCode, `${action}: ${done.body}`).toBe(200);
        expect(await snapshot(scene), action).not.toEqual(before);
      }
    } finally {
      await setSwitches('0', '0');
    }
  }, 300_000);

  it('UkeySwitch on: refused without a key signature, even with the pay password (nothing moves), done with one; a contract is signed by its certificate', async () => {
    const made = await makeScenes();
    await setSwitches('0', '1');
    try {
      for (const [action, scene] of Object.entries(made)) {
        const before = await snapshot(scene);
        if (MONEY_ACTIONS[action as MoneyAction].certificateSigned) {
          const prepared = await call(scene.url, buyer.traderToken, scene.body);
          expect(prepared.statusCode, `${action}: ${prepared.body}`).toBe(200);
          continue;
        }
        const missing = await call(scene.url, buyer.traderToken, scene.body);
        expect([action, missing.statusCode, missing.json().message]).toEqual([action, 422, '请使用 UKey 签章确认本次操作']);
        const password = await call(scene.url, buyer.traderToken, { ...scene.body, payPassword: payHash(buyer.enterprise.clientId, DIGITS) });
        expect([action, password.statusCode, password.json().message]).toEqual([action, 422, '请使用 UKey 签章确认本次操作']);
        // a signature of another request (another amount, another object) is refused too
        const field = UKEY_ACTIONS[action as UkeyAction].fields[0];
        const value = scene.signed[field];
        const elsewhere = { ...scene.signed, [field]: typeof value === 'number' ? value + 1 : `${String(value)}X` };
        const other = await signAction(call, buyer.traderToken, device.key, device.deviceId, action as UkeyAction, elsewhere);
        const altered = await call(scene.url, buyer.traderToken, { ...scene.body, ukeySignature: other });
        expect([action, altered.statusCode, altered.json().message]).toEqual([action, 422, '签名内容与本次操作不一致，请重新签名']);
        expect(await snapshot(scene), action).toEqual(before);
        const ukeySignature = await signAction(call, buyer.traderToken, device.key, device.deviceId, action as UkeyAction, scene.signed);
        const done = await call(scene.url, buyer.traderToken, { ...scene.body, ukeySignature });
        expect(done.statusCode, `${action}: ${done.body}`).toBe(200);
        expect(await snapshot(scene), action).not.toEqual(before);
      }
    } finally {
      await setSwitches('0', '0');
    }
  }, 300_000);

  it('both on: the key is asked (the pay password for a contract); both off: done without either', async () => {
    const made = await makeScenes();
    await setSwitches('1', '1');
    try {
      for (const [action, scene] of Object.entries(made)) {
        const before = await snapshot(scene);
        const missing = await call(scene.url, buyer.traderToken, scene.body);
        const expected = MONEY_ACTIONS[action as MoneyAction].certificateSigned ? '请输入支付密码' : '请使用 UKey 签章确认本次操作';
        expect([action, missing.statusCode, missing.json().message]).toEqual([action, 422, expected]);
        expect(await snapshot(scene), action).toEqual(before);
      }
    } finally {
      await setSwitches('0', '0');
    }
    for (const [action, scene] of Object.entries(made)) {
      const before = await snapshot(scene);
      const done = await call(scene.url, buyer.traderToken, scene.body);
      expect(done.statusCode, `${action}: ${done.body}`).toBe(200);
      expect(await snapshot(scene), action).not.toEqual(before);
    }
  }, 300_000);
});
