import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ContractStates, ROLE_GRANTS, fenToCapitals } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractEvents, contracts, deals, fundJournal, tradeDeposits, users } from '../../db/schema/index';
import { makeMissingContracts } from '../../flows/make-contract';
import { eventBusOf } from '../../lib/events';
import { transition } from '../../lib/transition';
import { runScheduledJobs } from '../../plugins/scheduler';
import { createUser, loginAs, signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { pdfsig } from '../../test/pdf';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { reconcile } from '../funds/ledger';
import { isWorkingDay } from '../system/calendar';
import { PRC_HOLIDAYS } from '../system/prc-holidays';
import { createProduct, listingInput, post } from '../listing/listing.test-helpers';
import { newDeviceKey, signRaw, type TestKey } from '../ukey/ukey.test-helpers';

const API = '/trade-api/api/contract';
const HOUR = 3600_000;

function pdfText(pdf: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-contract-'));
  fs.writeFileSync(path.join(dir, 'c.pdf'), pdf);
  const run = spawnSync('pdftotext', ['-layout', path.join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return run.stdout;
}

describe.each(testDatabaseKinds())('contracts on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  const events: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    const bus = eventBusOf(t.database.db);
    for (const name of ['contract.created', 'contract.seller_signed', 'contract.buyer_signed', 'contract.effective', 'contract.voided'] as const) {
      bus.on(name, () => void events.push(name));
    }
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `${API}${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });

  /** An audited, funded enterprise whose trader holds a key device approved by its admin. */
  async function party() {
    const admin = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, admin.actor, await operatorActor(t.database.db), 100_000_000);
    const traderUser = await createUser(t.database.db, { role: 'trader', enterpriseId: admin.enterprise.id });
    const token = await loginAs(t.app, traderUser.username);
    const key = await newDeviceKey();
    const applied = await post(t.app, '/api/ukey/device/apply', token, { deviceName: '交易员电脑', csr: key.csr });
    expect(applied.statusCode, applied.body).toBe(200);
    const deviceId = applied.json().result.id as number;
    expect((await post(t.app, '/api/ukey/device/approve', admin.token, { deviceId })).statusCode).toBe(200);
    const who = { ...admin, token, adminToken: admin.token, deviceId, key };
    // sessions end after 12 hours: the tests that move the clock by days sign in again
    const refresh = async () => {
      who.token = await loginAs(t.app, traderUser.username);
      who.adminToken = await loginAs(t.app, admin.user.username);
    };
    return Object.assign(who, { refresh });
  }
  type Party = Awaited<ReturnType<typeof party>>;

  /** A listing of the seller subscribed by the buyer and confirmed: the deal and its contract. */
  async function deal(seller: Party, buyer: Party, quantity = 1_000_000) {
    const operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const created = await post(t.app, '/api/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now(), { autoConfirm: true, price: 84_550, depositMode: 'per_ton', depositValue: 2_000 }));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const subscribed = await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: Math.min(quantity, 500_000), requestId: newRequestId() });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const [row] = await t.database.db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    const list = await call('GET', `/by-deal/${row!.dealNo}`, seller.token);
    expect(list.statusCode, list.body).toBe(200);
    return { deal: row!, contract: list.json().result, operatorToken };
  }

  async function sign(who: Party, contractId: number, key: TestKey = who.key) {
    const prepared = await call('POST', `/${contractId}/sign/prepare`, who.token, { deviceId: who.deviceId });
    if (prepared.statusCode !== 200) return prepared;
    const { sessionId, signedAttributes } = prepared.json().result;
    const signature = Buffer.from(await signRaw(key, new Uint8Array(Buffer.from(signedAttributes, 'base64'))), 'base64url').toString('base64');
    return call('POST', `/${contractId}/sign/complete`, who.token, { sessionId, signature });
  }

  async function currentPdf(token: string, id: number) {
    const response = await call('GET', `/${id}/pdf`, token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    return new Uint8Array(response.rawPayload);
  }

  it('every deal gets exactly one contract, with the deal numbers in its text and a deadline of one working day', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { deal: d, contract } = await deal(seller, buyer);
    expect(contract).toMatchObject({ contractNo: `HT${d.dealNo.slice(2)}`, status: 'pending', mySide: 'seller', quantity: 500_000, price: 84_550, amount: 42_275_000 });
    expect(events).toContain('contract.created');
    const text = pdfText(await currentPdf(seller.token, contract.id));
    for (const expected of [contract.contractNo, '845.50', '500', '422,750.00', fenToCapitals(42_275_000), seller.enterprise.organName, buyer.enterprise.organName]) {
      expect(text.replace(/\s+/g, ''), expected).toContain(expected.replace(/\s+/g, ''));
    }
    // the deadline is the end of the next working day after the deal, Asia/Shanghai (the seeded holidays count)
    const dealDay = new Date(d.createdAt.getTime() + 8 * HOUR);
    let next = new Date(Date.UTC(dealDay.getUTCFullYear(), dealDay.getUTCMonth(), dealDay.getUTCDate() + 1));
    const listed = new Map(PRC_HOLIDAYS.map((h) => [h.day, h.workday]));
    while (!isWorkingDay(next.toISOString().slice(0, 10), listed)) next = new Date(next.getTime() + 24 * HOUR);
    expect(contract.signDeadline).toBe(`${next.toISOString().slice(0, 10)} 23:59:59`);
    // a second generation of the same deal changes nothing
    expect(await makeMissingContracts(t.database.db, t.app.storage, t.clock, (e) => { throw e; })).toBe(0);
    expect((await t.database.db.select().from(contracts).where(eq(contracts.dealId, d.id))).length).toBe(1);
  });

  it('both sides sign with their certificates: two valid signatures, effective, refusals change nothing', async () => {
    const [seller, buyer, stranger] = [await party(), await party(), await party()];
    const { contract } = await deal(seller, buyer);
    // another enterprise neither sees nor signs it
    expect((await call('GET', `/${contract.id}`, stranger.token)).statusCode).toBe(404);
    expect((await sign(stranger, contract.id)).statusCode).toBe(404);
    // a session prepared by the buyer before the seller signs is stale afterwards
    const early = await call('POST', `/${contract.id}/sign/prepare`, buyer.token, { deviceId: buyer.deviceId });
    expect(early.statusCode, early.body).toBe(200);

    const first = await sign(seller, contract.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().result).toMatchObject({ status: 'seller_signed', mySide: 'seller' });
    const again = await sign(seller, contract.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('contract_already_signed');

    const staleSignature = Buffer.from(await signRaw(buyer.key, new Uint8Array(Buffer.from(early.json().result.signedAttributes, 'base64'))), 'base64url').toString('base64');
    const stale = await call('POST', `/${contract.id}/sign/complete`, buyer.token, { sessionId: early.json().result.sessionId, signature: staleSignature });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe('contract_changed');

    const second = await sign(buyer, contract.id);
    expect(second.statusCode, second.body).toBe(200);
    const detail = second.json().result;
    expect(detail.status).toBe('effective');
    expect(detail.signatures.map((s: { side: string; method: string }) => `${s.side}:${s.method}`)).toEqual(['seller:certificate', 'buyer:certificate']);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['生成合同', '卖方签署', '买方签署', '合同生效']);
    expect(events).toEqual(expect.arrayContaining(['contract.seller_signed', 'contract.effective']));

    const signed = await currentPdf(buyer.token, contract.id);
    const report = pdfsig(signed);
    expect(report.match(/Signature Validation: Signature is Valid/g)?.length, report).toBe(2);
    // the public verification knows the contract number and the signed copy
    const { payload, headers } = multipart({ name: `${contract.contractNo}.pdf`, data: signed }, { number: contract.contractNo });
    const verified = await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/verify', payload, headers });
    expect(verified.json().result).toMatchObject({ allValid: true, reference: { found: true, matches: true } });

    // the state table refuses what it does not list, e.g. signing or editing an effective contract
    expect((await sign(seller, contract.id)).statusCode).toBe(409);
    const edit = await call('PUT', `/${contract.id}/terms`, seller.token, { terms: detail.terms });
    expect(edit.statusCode).toBe(409);
    await expect(t.database.db.transaction((tx) => transition(tx, ContractStates, 'sellerSign', { table: contracts, where: eq(contracts.id, contract.id) }))).rejects.toThrow(/不能改为「卖方已签」/); // 已生效, or 履行中 once its order is made
  });

  it('a revoked certificate cannot sign; an edit of the terms clears the signature made', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { contract } = await deal(seller, buyer);
    expect((await sign(buyer, contract.id)).json().result.status).toBe('buyer_signed');
    const detail = (await call('GET', `/${contract.id}`, seller.token)).json().result;
    const edited = await call('PUT', `/${contract.id}/terms`, seller.token, { terms: { ...detail.terms, quantityTolerancePct: 3, remark: '随车附化验单' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().result).toMatchObject({ status: 'pending', buyerSignedAt: null, signatures: [] });
    expect(edited.json().result.events.at(-1).note).toContain('已清除买方的签署');
    expect(pdfText(await currentPdf(seller.token, contract.id))).toContain('随车附化验单');

    const revoked = await post(t.app, '/api/ukey/device/delete', seller.token, { deviceId: seller.deviceId, reason: 'keyCompromise' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const refused = await sign(seller, contract.id);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect((await call('GET', `/${contract.id}`, seller.token)).json().result.status).toBe('pending');
  });

  it('a certificate revoked between 签署 prepare and complete signs nothing: the contract stays unsigned', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { contract } = await deal(seller, buyer);
    const prepared = await call('POST', `/${contract.id}/sign/prepare`, seller.token, { deviceId: seller.deviceId });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { sessionId, signedAttributes } = prepared.json().result;
    const signature = Buffer.from(await signRaw(seller.key, new Uint8Array(Buffer.from(signedAttributes, 'base64'))), 'base64url').toString('base64');
    expect((await post(t.app, '/api/ukey/device/delete', seller.token, { deviceId: seller.deviceId, reason: 'keyCompromise' })).statusCode).toBe(200);

    const refused = await call('POST', `/${contract.id}/sign/complete`, seller.token, { sessionId, signature });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('数字证书已注销，签署未完成，请使用有效的数字证书重新签署');
    expect((await call('GET', `/${contract.id}`, seller.token)).json().result).toMatchObject({ status: 'pending', sellerSignedAt: null, signatures: [] });
    // the contract's file is still the unsigned one
    const { payload, headers } = multipart({ name: `${contract.contractNo}.pdf`, data: await currentPdf(seller.token, contract.id) });
    const verified = await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/verify', payload, headers });
    expect(verified.json().result.signatures).toEqual([]);
  });

  it('overdue → the operator rules the buyer breached: exactly its deposit moves to the seller, ledger consistent', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { contract } = await deal(seller, buyer);
    expect((await sign(seller, contract.id)).statusCode).toBe(200);
    const [deposit] = await t.database.db.select().from(tradeDeposits).where(eq(tradeDeposits.enterpriseId, buyer.enterprise.id));
    expect(deposit).toMatchObject({ status: 'performance', amount: 1_000_000 });

    t.clock.advance(5 * 24 * HOUR);
    await runScheduledJobs(t.app);
    await Promise.all([seller.refresh(), buyer.refresh()]);
    const operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const overdue = (await call('GET', `/${contract.id}`, operatorToken)).json().result;
    expect(overdue.status).toBe('overdue');
    expect((await sign(buyer, contract.id)).statusCode).toBe(409);
    // only the operator rules
    expect((await call('POST', `/${contract.id}/void`, seller.token, { reason: '买方未签', breachBy: 'buyer' })).statusCode).toBe(403);
    expect((await call('POST', `/${contract.id}/void`, operatorToken, { reason: '', breachBy: 'buyer' })).statusCode).toBe(400);

    const fundsOf = async (token: string) => (await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': token } })).json().result;
    const [sellerBefore, buyerBefore] = [await fundsOf(seller.adminToken), await fundsOf(buyer.adminToken)];
    const voided = await call('POST', `/${contract.id}/void`, operatorToken, { reason: '买方逾期未签署合同', breachBy: 'buyer' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().result).toMatchObject({ status: 'voided', breachBy: 'buyer', voidReason: '买方逾期未签署合同' });
    const [sellerAfter, buyerAfter] = [await fundsOf(seller.adminToken), await fundsOf(buyer.adminToken)];
    expect(sellerAfter.available - sellerBefore.available).toBe(1_000_000);
    expect(buyerAfter.frozen - buyerBefore.frozen).toBe(-1_000_000);
    expect(buyerAfter.available).toBe(buyerBefore.available);
    const journal = await t.database.db.select().from(fundJournal).where(eq(fundJournal.refId, String(deposit!.id)));
    expect(journal.filter((j) => j.refType === 'breach_compensation').map((j) => [j.enterpriseId, j.amount])).toEqual([[seller.enterprise.id, 1_000_000]]);
    for (const account of await reconcile(t.database.db)) expect(account.balanced, JSON.stringify(account)).toBe(true);
    // a second ruling moves nothing
    expect((await call('POST', `/${contract.id}/void`, operatorToken, { reason: '再次作废', breachBy: 'buyer' })).statusCode).toBe(409);
    expect((await fundsOf(seller.adminToken)).available).toBe(sellerAfter.available);
  });

  it('the operator extends an overdue contract once; a paper copy accepted makes it effective', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { contract } = await deal(seller, buyer);
    t.clock.advance(5 * 24 * HOUR);
    await runScheduledJobs(t.app);
    await Promise.all([seller.refresh(), buyer.refresh()]);
    const operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const until = new Date(t.clock.now().getTime() + 3 * 24 * HOUR + 8 * HOUR).toISOString().slice(0, 10);
    const extended = await call('POST', `/${contract.id}/extend`, operatorToken, { reason: '买方节假日无法用印', until });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json().result).toMatchObject({ status: 'pending', extended: true, signDeadline: `${until} 23:59:59` });
    expect((await call('POST', `/${contract.id}/extend`, operatorToken, { reason: '再延', until })).json().error).toBe('contract_already_extended');

    const scan = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    const { payload, headers } = multipart({ name: '纸质合同.png', data: scan });
    const uploaded = await t.app.inject({ method: 'POST', url: `${API}/${contract.id}/upload`, payload, headers: { ...headers, 'x-access-token': buyer.token } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const upload = uploaded.json().result.uploads[0];
    expect(upload).toMatchObject({ side: 'buyer', status: 'submitted' });
    const second = multipart({ name: '纸质合同2.png', data: scan });
    const twice = await t.app.inject({ method: 'POST', url: `${API}/${contract.id}/upload`, payload: second.payload, headers: { ...second.headers, 'x-access-token': seller.token } });
    expect(twice.json().error).toBe('contract_upload_pending');
    // the seller may open the buyer's copy; a party cannot review
    expect((await call('GET', `/${contract.id}/uploads/${upload.id}/file`, seller.token)).statusCode).toBe(200);
    expect((await call('POST', `/${contract.id}/uploads/${upload.id}/review`, seller.token, { accept: true })).statusCode).toBe(403);
    const accepted = await call('POST', `/${contract.id}/uploads/${upload.id}/review`, operatorToken, { accept: true, note: '与平台文本一致' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().result.status).toBe('effective');
    expect(accepted.json().result.signatures.map((s: { method: string }) => s.method)).toEqual(['paper', 'paper']);
    // the buyer's list of its paper copies; the seller sent none
    const mine = (await call('GET', '/uploads/mine', buyer.token)).json().result;
    expect(mine.records[0]).toMatchObject({ contractNo: contract.contractNo, status: 'accepted', counterparty: seller.enterprise.organName });
    expect((await call('GET', '/uploads/mine', seller.token)).json().result.total).toBe(0);
  });

  it('fifty subscriptions confirmed at once: fifty deals, fifty contracts, no more', async () => {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), { depositMode: 'fixed', depositValue: 100_000 }));
    const tradeId = created.json().result.tradeId as string;
    await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId });
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const buyers = await Promise.all(Array.from({ length: 5 }, () => fundedEnterprise(t.app, t.database.db)));
    for (const b of buyers) await creditThroughDepositIn(t.database.db, t.clock, b.actor, await operatorActor(t.database.db), 10_000_000);
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await post(t.app, '/api/listedAnswerApply', buyers[i % 5]!.token, { tradeId, quantity: 100_000, requestId: newRequestId() });
      expect(r.statusCode, r.body).toBe(200);
      ids.push(r.json().result.id);
    }
    const answers = await Promise.all(ids.map((id) => post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id, action: 'confirm' })));
    expect(answers.map((a) => a.statusCode)).toEqual(ids.map(() => 200));
    const made = await t.database.db.select({ id: deals.id, contractId: contracts.id }).from(deals).leftJoin(contracts, eq(contracts.dealId, deals.id)).where(eq(deals.tradeNo, tradeId));
    expect(made.length).toBe(50);
    expect(made.every((m) => m.contractId !== null)).toBe(true);
    expect(new Set(made.map((m) => m.contractId)).size).toBe(50);
  }, 120_000);

  it('the sweep (run at start-up and every minute) makes the contract of a deal left without one', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { deal: d, contract } = await deal(seller, buyer);
    // what a crash right after the deal's commit leaves: the deal, no contract
    await t.database.db.delete(contractEvents).where(eq(contractEvents.contractId, contract.id));
    await t.database.db.delete(contracts).where(eq(contracts.id, contract.id));
    expect((await t.database.db.select().from(contracts).where(eq(contracts.dealId, d.id))).length).toBe(0);
    // the start-up sweep (the same function, run when the app is ready and every minute)
    expect(await makeMissingContracts(t.database.db, t.app.storage, t.clock, (e) => { throw e; })).toBe(1);
    const again = await t.database.db.select().from(contracts).where(eq(contracts.dealId, d.id));
    expect(again.map((c) => c.contractNo)).toEqual([contract.contractNo]);
  });

  it('the detail carries what the viewer may do: a role holding only 查询/查看 on 合同签署 sees no 签署, 上传纸质合同 or 编辑条款, and the routes refuse it', async () => {
    const [seller, buyer] = [await party(), await party()];
    const { contract, operatorToken } = await deal(seller, buyer);
    const detail = async (token: string) => (await call('GET', `/${contract.id}`, token)).json().result as { can: Record<string, boolean>; terms: object };
    expect((await detail(seller.token)).can).toEqual({ sign: true, uploadPaper: true, editTerms: true, reviewPaper: false, void: false, extend: false });
    expect((await detail(operatorToken)).can).toEqual({ sign: false, uploadPaper: false, editTerms: false, reviewPaper: false, void: true, extend: false });

    // a custom role: the trader's grants, but 合同签署 read-only
    const admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
    const grants = ROLE_GRANTS.trader.map((g) => ({ permissionId: g.permissionId, actions: g.permissionId === 'contract-sign' ? ['query', 'get'] : g.actions }));
    const role = await t.app.inject({ method: 'POST', url: '/trade-api/sys/role/add', headers: { 'x-access-token': admin }, payload: { name: '合同只读', baseRole: 'trader', description: '只看合同', grants } });
    expect(role.statusCode, role.body).toBe(200);
    const reader = await createUser(t.database.db, { role: 'trader', enterpriseId: seller.enterprise.id });
    await t.database.db.update(users).set({ roleId: role.json().result.id }).where(eq(users.id, reader.id));
    const readerToken = await loginAs(t.app, reader.username);
    expect((await detail(readerToken)).can).toEqual({ sign: false, uploadPaper: false, editTerms: false, reviewPaper: false, void: false, extend: false });
    const terms = await call('PUT', `/${contract.id}/terms`, readerToken, { terms: (await detail(seller.token)).terms });
    expect(terms.statusCode).toBe(403);
    expect(terms.json().message).toContain('编辑');
    expect((await call('POST', `/${contract.id}/sign/prepare`, readerToken, { deviceId: seller.deviceId })).statusCode).toBe(403);
  });
});
