import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, webhookDeliveries, webhookEndpoints } from '../../db/schema/index';
import { newRequestId } from '../../modules/funds/funds.test-helpers';
import { post } from '../../modules/listing/listing.test-helpers';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 5)]);

describe.each(testDatabaseKinds())('funds notices on %s', (kind) => {
  let t: TestApp;
  let operator: { token: string; user: { id: number } };
  let party: TradingParty;
  let endpointId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    party = await tradingParty(t);
    const [endpoint] = await t.database.db
      .insert(webhookEndpoints)
      .values({ enterpriseId: party.enterprise.id, url: 'http://127.0.0.1:9/hook', eventTypes: ['funds.changed'], secret: `whsec_${randomBytes(24).toString('base64')}` })
      .returning();
    endpointId = endpoint!.id;
  }, 120_000);
  afterAll(async () => t?.close());

  const messagesOf = (userId: number, kind: string) =>
    t.database.db.select().from(messages).where(and(eq(messages.userId, userId), eq(messages.kind, kind))).orderBy(asc(messages.id));
  const hooksOf = async () => t.database.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.endpointId, [endpointId])).orderBy(asc(webhookDeliveries.id));
  const settled = () => t.app.notifications.settled();

  async function applyDepositIn(amount: number) {
    const { payload, headers } = multipart({ name: '回单.png', data: PNG });
    const uploaded = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': party.adminToken } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const applied = await post(t.app, '/api/funds/depositIn/apply', party.adminToken, {
      amount,
      bankName: '中国建设银行',
      payerAccountNo: '6217000011112222',
      transferDate: '2026-11-20',
      voucherUrl: uploaded.json().result.url,
      remark: '',
      requestId: newRequestId(),
    });
    expect(applied.statusCode, applied.body).toBe(200);
    return applied.json().result.id as number;
  }

  it('a 入金 applied is the operator\'s to-do; confirmed, the applicant is told the amount and its system hears funds.changed', async () => {
    const id = await applyDepositIn(12_345_678);
    await settled();
    const todo = (await messagesOf(operator.user.id, 'todo.deposit_in')).find((m) => m.content.includes('123,456.78 元'));
    expect(todo).toMatchObject({ title: '待确认入金', category: 'todo', link: '/operation/fundsAudit' });
    expect(todo!.content).toContain(party.enterprise.organName);
    expect(todo!.content).toContain('尾号 2222');
    // the enterprise itself is not asked to review
    expect((await messagesOf(party.admin.id, 'todo.deposit_in')).length).toBe(0);

    expect((await post(t.app, '/api/funds/admin/depositIn/confirm', operator.token, { id })).statusCode).toBe(200);
    await settled();
    const confirmed = (await messagesOf(party.trader.id, 'funds.deposit_in_confirmed')).find((m) => m.content.includes('123,456.78 元'));
    expect(confirmed).toMatchObject({ title: '入金已到账', category: 'funds', link: '/financial/application', urgent: false });
    expect((await messagesOf(party.admin.id, 'funds.deposit_in_confirmed')).some((m) => m.content.includes('123,456.78 元'))).toBe(true);
    const hook = (await hooksOf()).map((h) => JSON.parse(h.body)).find((b) => b.data.applicationId === id);
    expect(hook).toMatchObject({ type: 'funds.changed', data: { kind: 'deposit_in', status: 'confirmed', amountFen: 12_345_678 } });
  });

  it('a 入金 rejected tells the reason', async () => {
    const id = await applyDepositIn(500_000);
    expect((await post(t.app, '/api/funds/admin/depositIn/reject', operator.token, { id, reason: '未查到该笔到账' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(party.admin.id, 'funds.deposit_in_rejected');
    expect(rejected!.content).toContain('5,000.00 元');
    expect(rejected!.content).toContain('原因：未查到该笔到账');
  });

  it('a 出金 applied is the operator\'s to-do; paid or rejected, the applicant is told', async () => {
    const withdraw = async (amount: number) => {
      const r = await post(t.app, '/api/funds/withdraw/apply', party.adminToken, { amount, remark: '', requestId: newRequestId() });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().result.id as number;
    };
    const first = await withdraw(2_000_000);
    await settled();
    const todo = (await messagesOf(operator.user.id, 'todo.withdrawal')).find((m) => m.content.includes('20,000.00 元'));
    expect(todo).toMatchObject({ title: '待处理出金', link: '/operation/fundsAudit?tab=withdraw' });
    expect(todo!.content).toContain(party.enterprise.organName);

    expect((await post(t.app, '/api/funds/admin/withdraw/pay', operator.token, { id: first })).statusCode).toBe(200);
    await settled();
    const [paid] = await messagesOf(party.admin.id, 'funds.withdrawal_paid');
    expect(paid!.content).toContain('20,000.00 元');
    expect(paid!.content).toContain('中国工商银行');

    const second = await withdraw(300_000);
    expect((await post(t.app, '/api/funds/admin/withdraw/reject', operator.token, { id: second, reason: '收款账户信息有误' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(party.trader.id, 'funds.withdrawal_rejected');
    expect(rejected!.content).toContain('3,000.00 元');
    expect(rejected!.content).toContain('原因：收款账户信息有误');
    const hooks = (await hooksOf()).map((h) => JSON.parse(h.body).data as { kind: string; applicationId: number; status: string });
    expect(hooks.filter((d) => d.kind === 'withdrawal').map((d) => [d.applicationId, d.status])).toEqual([
      [first, 'paid'],
      [second, 'rejected'],
    ]);
  });
});
