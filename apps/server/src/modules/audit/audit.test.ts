import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, auctions } from '../../db/schema/index';
import { redactSecrets } from '../../lib/log-redaction';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { auctionInput } from '../auction/auction.test-helpers';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../listing/listing.test-helpers';
import { eq } from 'drizzle-orm';

/**
 * Routes that are not GET yet change nothing: searches and previews sent as POST, the first half of a two-step
 * signature (the second half is recorded), and visitors' requests (registration, SMS codes, sign-in), which have no
 * signed-in actor to record. Every other non-GET route must carry an audit label.
 */
const NOT_AUDITED = new Set([
  // a reader marking their own messages read: the message keeps its read time, the trail would only repeat it
  'POST /trade-api/api/message/read',
  'POST /trade-api/sys/login',
  'POST /trade-api/sys/sms/send',
  'POST /trade-api/sys/enterprise/checkExist',
  'POST /trade-api/sys/enterprise/add',
  'POST /trade-api/sys/enterprise/rejectedInfo',
  'POST /trade-api/sys/enterprise/resubmit',
  'POST /trade-api/api/bidApplyDetail',
  'POST /trade-api/api/tradeHome/bidTrade/list',
  'POST /trade-api/api/myBidTradeList',
  'POST /trade-api/api/bidEnroll/myList',
  'POST /trade-api/api/bidRecord/list',
  'POST /trade-api/api/bidResult',
  'POST /trade-api/api/myDealBidTradeList',
  'POST /trade-api/api/auction/audit/list',
  'POST /trade-api/api/listedApplyDetail',
  'POST /trade-api/api/tradeHome/listedTrade/list',
  'POST /trade-api/api/myListedTradeList',
  'POST /trade-api/api/listedRecord/listQuery',
  'POST /trade-api/api/listedRecord/myListedApplyList',
  'POST /trade-api/api/listedRecord/myDealListedApplyList',
  'POST /trade-api/api/mydealListedTradeList',
  'POST /trade-api/api/listedRecord/listSuccessQuery',
  'POST /trade-api/api/listedRecord/queryOppositeCompanyInfo',
  'POST /trade-api/api/listing/audit/list',
  'POST /trade-api/api/monitor/board',
  'POST /trade-api/api/monitor/auction/bidders',
  'POST /trade-api/api/monitor/auction/cancelPreview',
  'POST /trade-api/api/tradeHome/recommend/list',
  'POST /trade-api/api/tradeHome/tradeSummary/list',
  'POST /trade-api/product/stockinfo/productList',
  'POST /trade-api/api/contract/:id/sign/prepare',
  'POST /trade-api/api/contract-template/preview',
  'POST /trade-api/api/freight/preview',
  'POST /trade-api/api/sign/prepare',
  'POST /trade-api/api/sign/verify',
  'POST /trade-api/api/ukey/device/query',
  'POST /trade-api/api/ukey/certificate/query',
  'POST /trade-api/api/ukey/challenge',
]);

describe.each(testDatabaseKinds())('audit trail on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
  });
  afterAll(async () => t?.close());

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': token } });
  /** The rows of the requests answered so far, newest first. */
  async function rows(action: string) {
    await t.app.auditTrail.flush();
    return t.database.db.select().from(auditLogs).where(eq(auditLogs.action, action)).orderBy(sql`${auditLogs.id} desc`);
  }

  it('every state-changing route is labelled, or listed here as one that changes nothing', () => {
    const unlabelled = t.app.auditTrail.writeRoutes
      .filter((r) => r.url.startsWith('/trade-api') && !r.label)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !NOT_AUDITED.has(r));
    expect(unlabelled).toEqual([]);
    expect(t.app.auditTrail.labels).toContain('出价');
  });

  it('records a withdrawal, done and refused, with the enterprise admin who asked and no secrets', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 100_000);
    const done = await post(t.app, '/api/funds/withdraw/apply', e.token, { amount: 30_000, remark: '提现', requestId: newRequestId() });
    expect(done.statusCode, done.body).toBe(200);
    const refused = await post(t.app, '/api/funds/withdraw/apply', e.token, { amount: 90_000, requestId: newRequestId(), payPassword: 'a'.repeat(64) });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);

    const [second, first] = await rows('出金申请');
    expect(first).toMatchObject({
      userId: e.user.id,
      username: e.user.username,
      enterpriseId: e.enterprise.id,
      enterpriseName: e.enterprise.organName,
      role: '企业管理员',
      method: 'POST',
      route: '/trade-api/api/funds/withdraw/apply',
      objectType: '出金',
      objectId: String(done.json().result.id),
      result: 'success',
      errorCode: '',
      statusCode: 200,
      requestId: done.headers['x-request-id'],
    });
    expect(first!.body).toMatchObject({ amount: 30_000, remark: '提现' });
    expect(second).toMatchObject({ userId: e.user.id, result: 'refused', errorCode: refused.json().error, statusCode: refused.statusCode });
    expect((second!.body as Record<string, unknown>).payPassword).toBe('***');
  });

  it('records a listing approval by the operator who approved it', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now()));
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', seller.token, { tradeId })).statusCode).toBe(403);
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);

    // the approval's row went in with the approval, the refusal's after its answer: find each by who acted
    const approvals = await rows('挂牌审核通过');
    const approved = approvals.find((r) => r.userId === operator.user.id);
    const refused = approvals.find((r) => r.userId === seller.user.id);
    expect(approved).toMatchObject({ userId: operator.user.id, role: '交易中心运营', enterpriseId: null, enterpriseName: '', objectType: '挂牌', objectId: tradeId, result: 'success' });
    // refused before its body was read (issue 27: the grant is checked first), so the row names no object
    expect(refused).toMatchObject({ userId: seller.user.id, role: '企业管理员', objectId: '', body: null, result: 'refused', errorCode: 'forbidden', statusCode: 403 });
    const [published] = await rows('发布挂牌');
    expect(published).toMatchObject({ userId: seller.user.id, objectType: '挂牌', objectId: tradeId, result: 'success' });
  });

  it('records a bid with the bidder and its enterprise', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const tradeId = (await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()))).json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    const bidder = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, bidder.actor, await operatorActor(t.database.db), 50_000_000);
    expect((await post(t.app, '/api/bidEnroll/add', bidder.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
    const [auction] = await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeId));
    t.clock.advance(auction!.bidStart.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    const bid = await post(t.app, '/api/bidRecord/bidAnswerApply', bidder.token, { tradeId, price: 80_000 });
    expect(bid.statusCode, bid.body).toBe(200);

    const [row] = await rows('出价');
    expect(row).toMatchObject({
      userId: bidder.user.id,
      enterpriseId: bidder.enterprise.id,
      enterpriseName: bidder.enterprise.organName,
      objectType: '竞价',
      objectId: tradeId,
      body: { tradeId, price: 80_000 },
      result: 'success',
    });
    expect(row!.at.getTime()).toBe(t.clock.now().getTime());
    // a malformed bid is refused at validation and recorded too, even with a NUL and a huge remark in it
    const malformed = await post(t.app, '/api/bidRecord/bidAnswerApply', bidder.token, { tradeId: 'JJ\u0000', price: 1, note: 'x'.repeat(50_000) });
    expect(malformed.statusCode).toBe(400);
    const [refused] = await rows('出价');
    expect(refused).toMatchObject({ userId: bidder.user.id, objectId: 'JJ\ufffd', result: 'refused', errorCode: 'validation_failed', statusCode: 400 });
    expect(Object.keys(refused!.body as object)).toEqual(['内容过长已截断']);
    expect(await rows('竞价报名')).toEqual([expect.objectContaining({ userId: bidder.user.id, objectId: tradeId })]);
    expect(await rows('竞价审核通过')).toEqual([expect.objectContaining({ userId: operator.user.id, objectId: tradeId })]);
  });

  it("records a switch change with the admin and the switch's before and after", async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const put = (content: '0' | '1') =>
      t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': admin.token }, payload: { code: 'UkeySwitch', content } });
    expect((await put('1')).statusCode).toBe(200);
    expect((await put('0')).statusCode).toBe(200);
    const [off, on] = await rows('修改系统开关');
    expect(on).toMatchObject({ userId: admin.user.id, role: '系统管理员', objectType: '系统开关', objectId: 'UkeySwitch', changes: { UkeySwitch: ['0', '1'] } });
    expect(off!.changes).toEqual({ UkeySwitch: ['1', '0'] });
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the table', async () => {
    const [row] = await rows('修改系统开关');
    expect(row).toBeDefined();
    const db = t.database.db;
    await expect(db.execute(sql`UPDATE sys_audit_log SET username = 'someone' WHERE id = ${row!.id}`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM sys_audit_log WHERE id = ${row!.id}`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE sys_audit_log`)).rejects.toThrow();
    const [still] = await db.select().from(auditLogs).where(eq(auditLogs.id, row!.id));
    expect(still).toEqual(row);
  });

  it('is read and exported by the operator and the admin, never by a trader', async () => {
    const trader = await signedIn(t.app, t.database.db, { role: 'trader' });
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    for (const url of ['/sys/auditLog/list', '/sys/auditLog/export', '/sys/auditLog/choices']) {
      const refused = await get(url, trader.token);
      expect(refused.statusCode).toBe(403);
      // the role's grants refuse first (no 操作日志 menu), the policy behind them says the same in its words
      expect(refused.json().message).toMatch(/操作日志/);
    }

    const bids = (await get(`/sys/auditLog/list?action=${encodeURIComponent('出价')}&result=success`, operator.token)).json().result;
    expect(bids.total).toBe(1);
    expect(bids.records[0]).toMatchObject({ action: '出价', objectType: '竞价', result: 'success' });
    expect(bids.records[0].at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const refusals = (await get('/sys/auditLog/list?result=refused&pageSize=100', admin.token)).json().result;
    expect(refusals.total).toBeGreaterThanOrEqual(2);
    expect(refusals.records.every((r: { result: string }) => r.result === 'refused')).toBe(true);
    const none = (await get('/sys/auditLog/list?username=%25', admin.token)).json().result;
    expect(none.total).toBe(0);
    expect((await get('/sys/auditLog/list?dateFrom=2026-13-01', admin.token)).json().message).toContain('开始日期不是有效的日期');

    const choices = (await get('/sys/auditLog/choices', operator.token)).json().result;
    expect(choices.actions).toEqual(expect.arrayContaining(['出价', '出金申请', '挂牌审核通过', '修改系统开关']));
    expect(choices.objectTypes).toContain('竞价');

    const exported = await get(`/sys/auditLog/export?action=${encodeURIComponent('修改系统开关')}`, admin.token);
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('操作日志')!;
    expect(sheet.getRow(1).getCell(6).value).toBe('操作');
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(2).getCell(6).value).toBe('修改系统开关');
    expect(sheet.getRow(2).getCell(4).value).toBe('系统管理员');
    expect(String(sheet.getRow(2).getCell(12).value)).toBe('UkeySwitch: "1" → "0"');
  });

  it('when its row cannot be written the action does not happen; a refusal is still answered and its failed row logged', async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const trader = await signedIn(t.app, t.database.db, { role: 'trader' });
    const switchOf = async (code: string) => ((await t.app.inject({ method: 'GET', url: '/trade-api/sys/switch/list' })).json().result as { code: string; content: string }[]).find((s) => s.code === code)!.content;
    const before = await switchOf('UkeySwitch');
    await t.database.db.execute(sql`ALTER TABLE sys_audit_log RENAME TO sys_audit_log_away`);
    try {
      const response = await t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': admin.token }, payload: { code: 'UkeySwitch', content: before === '1' ? '0' : '1' } });
      expect(response.statusCode).toBe(500);
      const refused = await t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': trader.token }, payload: { code: 'UkeySwitch', content: '1' } });
      expect(refused.statusCode).toBe(403);
      await t.app.auditTrail.flush();
    } finally {
      await t.database.db.execute(sql`ALTER TABLE sys_audit_log_away RENAME TO sys_audit_log`);
    }
    expect(await switchOf('UkeySwitch')).toBe(before);
    expect((await rows('修改系统开关')).filter((r) => r.userId === admin.user.id || r.userId === trader.user.id)).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('masks every credential field at any depth and drops what is not JSON data', () => {
    expect(
      redactSecrets({ username: 'zhang', password: 'x', nested: { payPassword: 'y', ukeySignature: 'z', list: [{ accessToken: 't', amount: 1 }] }, when: new Date(0) }),
    ).toEqual({ username: 'zhang', password: '***', nested: { payPassword: '***', ukeySignature: '***', list: [{ accessToken: '***', amount: 1 }] } });
  });
});
