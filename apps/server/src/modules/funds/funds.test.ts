import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { reconcile } from './ledger';
import { freezeTradeDeposit } from './funds.service';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from './funds.test-helpers';

const payHash = (clientId: string, digits: string) => createHash('sha256').update(`${clientId}:${digits}`).digest('hex');

describe.each(testDatabaseKinds())('funds over HTTP on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });

  it('50 concurrent withdrawals: exactly the ones that fit succeed, the journal matches', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 100_000); // ¥1,000.00
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/api/funds/withdraw/apply', e.token, { amount: 3_000, requestId: newRequestId() })),
    );
    const accepted = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(accepted).toHaveLength(33);
    for (const r of refused) {
      expect(r.statusCode).toBe(422);
      expect(r.json().message).toContain('可用资金不足');
    }
    const info = (await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result;
    expect(info).toMatchObject({ available: 1_000, frozen: 99_000, total: 100_000, withdrawalFrozen: 99_000 });
    const mine = (await reconcile(t.database.db)).find((a) => a.enterpriseId === e.enterprise.id)!;
    expect(mine.balanced).toBe(true);
  });

  it('50 concurrent deposit freezes: exactly the ones that fit succeed', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 1_000_000);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        t.database.db.transaction((tx) =>
          freezeTradeDeposit(tx, { enterpriseId: e.enterprise.id, tradeKind: 'auction', tradeId: 'JJ1', refId: `race-${e.enterprise.id}-${i}`, amount: 70_000 }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(14);
    const info = (await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result;
    expect(info).toMatchObject({ available: 20_000, frozen: 980_000, depositFrozen: 980_000 });
    const deposits = (await call('GET', '/api/deposit/getDepositBalance?pageSize=100', e.token)).json().result;
    expect(deposits.total).toBe(14);
  });

  it('a replayed request id moves money once', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 50_000);
    const requestId = newRequestId();
    const twice = await Promise.all([1, 2, 3].map(() => call('POST', '/api/funds/withdraw/apply', e.token, { amount: 10_000, requestId })));
    const ids = new Set(twice.filter((r) => r.statusCode === 200).map((r) => r.json().result.id));
    expect(ids.size).toBe(1);
    expect(twice.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const info = (await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result;
    expect(info).toMatchObject({ available: 40_000, frozen: 10_000 });
  });

  it('refuses negative, zero, fractional-fen, huge and non-numeric amounts, changing nothing', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 50_000);
    for (const amount of [-100, 0, 10.5, 1e20, '100', null]) {
      const response = await call('POST', '/api/funds/withdraw/apply', e.token, { amount, requestId: newRequestId() });
      expect(response.statusCode, String(amount)).toBe(400);
      expect(response.json().message).toMatch(/金额|amount/);
    }
    expect((await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result).toMatchObject({ available: 50_000, frozen: 0 });
  });

  it('deposit-in: declared with an own voucher, confirmed by the operator, never by a trader', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const stranger = await fundedEnterprise(t.app, t.database.db);
    // another enterprise's file as voucher is refused
    const { fileObjects } = await import('../../db/schema/index');
    await t.database.db.insert(fileObjects).values({ storageKey: `2026/11/22/${'a'.repeat(8)}-0000-0000-0000-000000000001.png`, originalName: 'v.png', contentType: 'image/png', size: 1, sha256: 'x', visibility: 'private', ownerEnterpriseId: stranger.enterprise.id, uploadedBy: stranger.user.id });
    const body = { amount: 8_800_000, bankName: '中国银行', payerAccountNo: '6217000011112222', transferDate: '2026-11-20', voucherUrl: `2026/11/22/${'a'.repeat(8)}-0000-0000-0000-000000000001.png`, requestId: newRequestId() };
    const foreign = await call('POST', '/api/funds/depositIn/apply', e.token, body);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toContain('凭证');

    await t.database.db.insert(fileObjects).values({ storageKey: `2026/11/22/${'b'.repeat(8)}-0000-0000-0000-000000000002.png`, originalName: 'v.png', contentType: 'image/png', size: 1, sha256: 'x', visibility: 'private', ownerEnterpriseId: e.enterprise.id, uploadedBy: e.user.id });
    const applied = await call('POST', '/api/funds/depositIn/apply', e.token, { ...body, voucherUrl: `2026/11/22/${'b'.repeat(8)}-0000-0000-0000-000000000002.png` });
    expect(applied.statusCode).toBe(200);
    const id = applied.json().result.id;

    expect((await call('POST', '/api/funds/admin/depositIn/confirm', e.token, { id })).statusCode).toBe(403);
    expect((await call('GET', '/api/funds/admin/depositIn/list', e.token)).statusCode).toBe(403);
    const queue = (await call('GET', '/api/funds/admin/depositIn/list?status=pending&pageSize=100', operator.token)).json().result;
    expect(queue.records.some((r: { id: number }) => r.id === id)).toBe(true);

    const [first, second] = await Promise.all([
      call('POST', '/api/funds/admin/depositIn/confirm', operator.token, { id }),
      call('POST', '/api/funds/admin/depositIn/confirm', operator.token, { id }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect((await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result.available).toBe(8_800_000);
    // the other enterprise sees none of it
    expect((await call('GET', '/api/funds/depositIn/list', stranger.token)).json().result.total).toBe(0);
    expect((await call('GET', '/api/funds/journal/list', stranger.token)).json().result.total).toBe(0);
    expect((await call('GET', '/api/fundinfo/getFundInfo', stranger.token)).json().result.available).toBe(0);
  });

  it('withdrawal paid or rejected by the operator; a handled one cannot be handled again', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 100_000);
    const a = (await call('POST', '/api/funds/withdraw/apply', e.token, { amount: 30_000, requestId: newRequestId() })).json().result.id;
    const b = (await call('POST', '/api/funds/withdraw/apply', e.token, { amount: 20_000, requestId: newRequestId() })).json().result.id;
    expect((await call('POST', '/api/funds/admin/withdraw/pay', operator.token, { id: a })).statusCode).toBe(200);
    expect((await call('POST', '/api/funds/admin/withdraw/reject', operator.token, { id: b, reason: '账户信息有误' })).statusCode).toBe(200);
    expect((await call('POST', '/api/funds/admin/withdraw/reject', operator.token, { id: a, reason: '重复' })).statusCode).toBe(409);
    expect((await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result).toMatchObject({ available: 70_000, frozen: 0, total: 70_000 });
    const journal = (await call('GET', '/api/funds/journal/list?pageSize=50', e.token)).json().result;
    expect(journal.records.map((r: { kind: string }) => r.kind)).toEqual(['release', 'debit_frozen', 'freeze', 'freeze', 'credit']);
    const filtered = (await call('GET', '/api/funds/journal/list?kind=freeze', e.token)).json().result;
    expect(filtered.total).toBe(2);

    const exported = await call('GET', '/api/funds/journal/export', e.token);
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as never);
    const sheet = workbook.getWorksheet('支付记录')!;
    expect(sheet.rowCount).toBe(6);
    expect(sheet.getRow(2).getCell(3).value).toBe('解冻');
    expect(sheet.getRow(2).getCell(6).value).toBe('200.00');
  });

  it('pay password: required when the switch is on, locked for 30 minutes after five wrong entries', async () => {
    const e = await fundedEnterprise(t.app, t.database.db);
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    await creditThroughDepositIn(t.database.db, t.clock, e.actor, await operatorActor(t.database.db), 100_000);
    const trader = await signedIn(t.app, t.database.db, { role: 'trader', enterpriseId: e.enterprise.id });
    const right = payHash(e.enterprise.clientId, '135790');
    const wrong = payHash(e.enterprise.clientId, '000000');

    expect((await call('POST', '/api/funds/payPassword/set', trader.token, { password: right })).statusCode).toBe(403);
    expect((await call('POST', '/api/funds/payPassword/set', e.token, { password: '123456' })).statusCode).toBe(400);
    expect((await call('POST', '/api/funds/payPassword/set', e.token, { password: right })).statusCode).toBe(200);
    expect((await call('GET', '/api/funds/payPassword/status', e.token)).json().result.isSet).toBe(true);
    expect((await call('POST', '/api/funds/payPassword/set', e.token, { password: wrong })).json().message).toContain('原支付密码');

    expect((await call('PUT', '/sys/switch/update', e.token, { code: 'PayPassword', content: '1' })).statusCode).toBe(403);
    expect((await call('PUT', '/sys/switch/update', admin.token, { code: 'PayPassword', content: '1' })).statusCode).toBe(200);
    try {
      const missing = await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId() });
      expect(missing.json().message).toBe('请输入支付密码');
      for (let i = 0; i < 4; i++) {
        const r = await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId(), payPassword: wrong });
        expect(r.json().message).toContain('支付密码错误');
      }
      const locked = await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId(), payPassword: wrong });
      expect(locked.statusCode).toBe(423);
      expect(locked.json().message).toMatch(/锁定至 \d{4}-\d{2}-\d{2}/);
      expect((await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId(), payPassword: right })).statusCode).toBe(423);
      t.clock.advance(30 * 60 * 1000 + 1000);
      const passed = await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId(), payPassword: right });
      expect(passed.statusCode).toBe(200);
      expect((await call('GET', '/api/fundinfo/getFundInfo', e.token)).json().result.frozen).toBe(100);

      // with the key switch on, something that is not a key signature does not pass
      await call('PUT', '/sys/switch/update', admin.token, { code: 'UkeySwitch', content: '1' });
      const ukey = await call('POST', '/api/funds/withdraw/apply', trader.token, { amount: 100, requestId: newRequestId(), ukeySignature: 'sig' });
      expect(ukey.statusCode).toBe(422);
      expect(ukey.json().message).toContain('UKey');
    } finally {
      await call('PUT', '/sys/switch/update', admin.token, { code: 'PayPassword', content: '0' });
      await call('PUT', '/sys/switch/update', admin.token, { code: 'UkeySwitch', content: '0' });
    }
  });

  it('operators and admins have no funds account; visitors are asked to sign in', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    expect((await call('GET', '/api/fundinfo/getFundInfo', operator.token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo' });
    expect(anonymous.statusCode).toBe(401);
  });
});
