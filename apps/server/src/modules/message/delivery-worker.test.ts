import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { messageDeliveries, messages, smsOutbox, type MessageDelivery } from '../../db/schema/index';
import { ManualClock } from '../../lib/clock';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-app';
import { outboxProvider } from '../sms/sms.provider';
import { DELIVERY_BATCH_SIZE, DELIVERY_LEASE_MS, DELIVERY_MAX_ATTEMPTS, NO_MAILER_ERROR, claimDueDeliveries, deliverDueMessages, deliveryBackoffMs, type DeliveryChannels } from './delivery-worker';
import { createMailer, type Mailer } from './email';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

const FROM = 'CoalX 煤炭现货交易平台 <noreply@coalx.example>';
let serial = 0;
const uniqueMobile = () => `139${String(Date.now() % 1e4).padStart(4, '0')}${String(++serial).padStart(4, '0')}`;

describe.each(testDatabaseKinds())('SMS and e-mail deliveries on %s', (kind) => {
  let database: Database;
  let smtp: TestSmtpServer;
  let refusing: TestSmtpServer;
  let mailer: Mailer;
  let refusingMailer: Mailer;
  const clock = new ManualClock(Date.parse('2026-11-28T02:00:00Z'));
  const warnings: string[] = [];
  const log = { warn: (_details: object, message: string) => void warnings.push(message) };
  const channels = (mailerOf: Mailer | null = mailer): DeliveryChannels => ({ sms: outboxProvider, mailer: mailerOf, log });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    smtp = await startSmtpServer();
    refusing = await startSmtpServer({ refuse: true });
    mailer = createMailer({ smtpUrl: smtp.url, from: FROM });
    refusingMailer = createMailer({ smtpUrl: refusing.url, from: FROM });
  });
  afterAll(async () => {
    mailer?.close();
    refusingMailer?.close();
    await smtp?.close();
    await refusing?.close();
    await database?.close();
  });

  /** A message and its delivery on one channel, due now (as the notice dispatcher writes them). */
  async function addDelivery(channel: 'sms' | 'email', address: string, text: { subject?: string; body: string }, row: Partial<MessageDelivery> = {}) {
    const [message] = await database.db
      .insert(messages)
      .values({ userId: 1, eventKey: `test:${++serial}`, kind: 'contract.to_sign', category: 'contract', title: text.subject ?? '通知', content: text.body, createdAt: clock.now() })
      .returning({ id: messages.id });
    const [delivery] = await database.db
      .insert(messageDeliveries)
      .values({ messageId: message!.id, channel, address, subject: text.subject ?? '', body: text.body, nextAttemptAt: clock.now(), createdAt: clock.now(), ...row })
      .returning();
    return delivery!;
  }
  const rowOf = async (id: number) => (await database.db.select().from(messageDeliveries).where(eq(messageDeliveries.id, id)))[0]!;

  it('SMS goes through the provider (the back office outbox, scene notice) and the row is sent', async () => {
    const mobile = uniqueMobile();
    const body = '【CoalX】合同HT2026112800012待签署，请于11月29日17:00前签署';
    const delivery = await addDelivery('sms', mobile, { body });
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: 1, retried: 0, failed: 0 });
    const outbox = await database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile));
    expect(outbox).toMatchObject([{ mobile, scene: 'notice', content: body, provider: 'outbox' }]);
    expect(await rowOf(delivery.id)).toMatchObject({ state: 'sent', attempts: 1, sentAt: clock.now(), lastError: null });
    // sent rows are not sent again
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile))).toHaveLength(1);
  });

  it('e-mail reaches the SMTP server with its subject, body and sender, Chinese intact', async () => {
    const before = smtp.received.length;
    const subject = '待签署合同 HT2026112800012';
    const body = '您有一份合同待签署：HT2026112800012（动力煤 5500 大卡，3,000 吨）。\n请于 2026-11-29 17:00 前完成签署。\n\n办理地址：http://localhost:8080/contract/detail?id=12';
    const delivery = await addDelivery('email', 'buyer-admin@example.com', { subject, body });
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: 1, retried: 0, failed: 0 });
    const mail = smtp.received[before]!;
    expect(smtp.received).toHaveLength(before + 1);
    expect(mail.envelopeTo).toEqual(['buyer-admin@example.com']);
    expect(mail.parsed.from?.value).toEqual([{ address: 'noreply@coalx.example', name: 'CoalX 煤炭现货交易平台' }]);
    expect(mail.parsed.subject).toBe(subject);
    expect(mail.parsed.text?.trim()).toBe(body);
    expect(mail.parsed.html).toContain('<a href="http://localhost:8080/contract/detail?id=12"');
    expect(await rowOf(delivery.id)).toMatchObject({ state: 'sent', sentAt: clock.now() });
  });

  it('a refusing SMTP server: retried after 30 s, 60 s, 120 s, 240 s, then failed with the error kept', async () => {
    const refusedBefore = refusing.refused.length;
    const delivery = await addDelivery('email', 'nobody@example.com', { subject: '付款到期', body: '订单 DD001 的货款今日到期。' });
    for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
      const last = attempt === DELIVERY_MAX_ATTEMPTS;
      expect(await deliverDueMessages(database.db, clock, channels(refusingMailer)), `try ${attempt}`).toEqual({ sent: 0, retried: last ? 0 : 1, failed: last ? 1 : 0 });
      const row = await rowOf(delivery.id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toMatch(/^邮件发送失败: .*550/);
      expect(refusing.refused).toHaveLength(refusedBefore + attempt);
      if (last) {
        expect(row.state).toBe('failed');
        break;
      }
      expect(row.state).toBe('pending');
      expect(row.nextAttemptAt.getTime() - clock.now().getTime()).toBe(deliveryBackoffMs(attempt));
      expect(deliveryBackoffMs(attempt)).toBe(30_000 * 2 ** (attempt - 1));
      // not a moment early
      clock.advance(deliveryBackoffMs(attempt) - 1000);
      expect(await deliverDueMessages(database.db, clock, channels(refusingMailer))).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(refusing.refused).toHaveLength(refusedBefore + attempt);
      clock.advance(1000);
    }
    clock.advance(24 * 3600_000);
    expect(await deliverDueMessages(database.db, clock, channels(refusingMailer))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(refusing.refused).toHaveLength(refusedBefore + DELIVERY_MAX_ATTEMPTS);
    expect(warnings).toContain('message delivery failed');
  });

  it('e-mail without an SMTP server fails at once, saying so', async () => {
    const delivery = await addDelivery('email', 'seller@example.com', { subject: '测试', body: '测试' });
    expect(await deliverDueMessages(database.db, clock, channels(null))).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await rowOf(delivery.id)).toMatchObject({ state: 'failed', lastError: NO_MAILER_ERROR, attempts: 1 });
  });

  it('a row claimed by a worker that died is sent again when its lease runs out; its last try fails it', async () => {
    const mobile = uniqueMobile();
    const leased = { attempts: 2, nextAttemptAt: new Date(clock.now().getTime() + DELIVERY_LEASE_MS) };
    const resend = await addDelivery('sms', mobile, { body: '【CoalX】竞价将于30分钟后开始' }, leased);
    const lastTry = await addDelivery('sms', uniqueMobile(), { body: '【CoalX】竞价将于5分钟后开始' }, { ...leased, attempts: DELIVERY_MAX_ATTEMPTS, lastError: '短信发送失败: 超时' });
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock.advance(DELIVERY_LEASE_MS);
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: 1, retried: 0, failed: 1 });
    expect(await rowOf(resend.id)).toMatchObject({ state: 'sent', attempts: 3 });
    expect(await database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile))).toHaveLength(1);
    expect(await rowOf(lastTry.id)).toMatchObject({ state: 'failed', attempts: DELIVERY_MAX_ATTEMPTS, lastError: '短信发送失败: 超时; 最后一次发送中断 (进程退出)，未能确认是否送达' });
  });

  it('a claim takes one batch, counts the try and leases the rows', async () => {
    const rows = await Promise.all(Array.from({ length: DELIVERY_BATCH_SIZE + 5 }, () => addDelivery('sms', uniqueMobile(), { body: '【CoalX】测试' })));
    const first = await claimDueDeliveries(database.db, clock.now());
    const second = await claimDueDeliveries(database.db, clock.now());
    expect([first.length, second.length]).toEqual([DELIVERY_BATCH_SIZE, 5]);
    expect(await claimDueDeliveries(database.db, clock.now())).toEqual([]);
    expect(new Set([...first, ...second].map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
    for (const row of [...first, ...second]) expect(row).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: new Date(clock.now().getTime() + DELIVERY_LEASE_MS) });
    // the claimed rows go out once their lease is over (the worker that claimed them never marked them)
    clock.advance(DELIVERY_LEASE_MS);
    expect(await deliverDueMessages(database.db, clock, channels())).toEqual({ sent: rows.length, retried: 0, failed: 0 });
  });

  it('two workers racing over the same due rows send each row once', async () => {
    const mobiles = Array.from({ length: 24 }, uniqueMobile);
    const addresses = Array.from({ length: 8 }, (_, i) => `race-${kind}-${i}@example.com`);
    const rows = [
      ...(await Promise.all(mobiles.map((mobile) => addDelivery('sms', mobile, { body: `【CoalX】${mobile}` })))),
      ...(await Promise.all(addresses.map((address) => addDelivery('email', address, { subject: '竞价结果', body: `您已中标：${address}` })))),
    ];
    const before = smtp.received.length;
    const rounds = await Promise.all([deliverDueMessages(database.db, clock, channels()), deliverDueMessages(database.db, clock, channels())]);
    expect(rounds[0]!.sent + rounds[1]!.sent).toBe(rows.length);
    expect(rounds.map((r) => r.retried + r.failed)).toEqual([0, 0]);
    const outbox = await database.db.select({ mobile: smsOutbox.mobile }).from(smsOutbox).where(inArray(smsOutbox.mobile, mobiles));
    expect(outbox.map((r) => r.mobile).sort()).toEqual([...mobiles].sort());
    expect(smtp.received.slice(before).flatMap((m) => m.envelopeTo).sort()).toEqual([...addresses].sort());
    const states = await database.db
      .select({ state: messageDeliveries.state, attempts: messageDeliveries.attempts })
      .from(messageDeliveries)
      .where(inArray(messageDeliveries.id, rows.map((r) => r.id)));
    expect(states.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
  });
});
