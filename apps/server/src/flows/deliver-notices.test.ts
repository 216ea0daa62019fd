import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { contracts, deals, messageDeliveries, messageEvents, messages, smsOutbox, users } from '../db/schema/index';
import { runMessageDeliveries } from '../plugins/message-deliveries';
import { newRequestId } from '../modules/funds/funds.test-helpers';
import { recordReminders } from '../modules/message/message.service';
import { createProduct, listingInput, post } from '../modules/listing/listing.test-helpers';
import { runScheduledJobs } from '../plugins/scheduler';
import { signedIn } from '../test/factories';
import { tradingParty, type TradingParty } from '../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../test/test-app';

/** Waits until `probe` returns a truthy value (checked every 50 ms), or fails after `ms`. */
async function within<T>(ms: number, probe: () => Promise<T>): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const get = (t: TestApp, url: string, token: string) => t.app.inject({ method: 'GET', url: `/trade-api/api${url}`, headers: { 'x-access-token': token } });

/** A socket of the message channel, signed in, collecting what it is pushed. */
async function messageSocket(t: TestApp, token: string) {
  const address = t.app.server.address() as { port: number };
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}/trade-api/ws/message`);
  const events: { type: string; unread?: { count: number }; message?: { title: string } }[] = [];
  socket.on('message', (data) => events.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'auth', token }));
  await within(2000, async () => events.some((e) => e.type === 'unread'));
  return { socket, events };
}

describe.each(testDatabaseKinds())('notifications on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    seller = await tradingParty(t);
    buyer = await tradingParty(t);
    // each admin has a mobile of their own, so the outbox shows who was texted
    await t.database.db.update(users).set({ mobile: '13900000001' }).where(eq(users.id, seller.admin.id));
    await t.database.db.update(users).set({ mobile: '13900000002' }).where(eq(users.id, buyer.admin.id));
  }, 120_000);
  afterAll(async () => t?.close());

  it('a listing deal made through the API tells both parties 待签署合同 within 2 s, texts their admins, and a read updates the other tab', async () => {
    const db = t.database.db;
    const operator = await signedIn(t.app, db, { role: 'operator' });
    const stockCode = await createProduct(db);
    const created = await post(t.app, '/api/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now(), { autoConfirm: true, price: 84_550, maxSubscribe: 500_000, quantity: 10_000_000 }));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const buyerTab = await messageSocket(t, buyer.adminToken);
    const buyerOtherTab = await messageSocket(t, buyer.adminToken);

    const subscribed = await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: 500_000, requestId: newRequestId() });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const started = Date.now();
    const toSign = async (token: string) => {
      const list = (await get(t, '/message/list?unread=true', token)).json().result as { records: { id: number; kind: string; title: string; link: string; dueAt: string; urgent: boolean }[] };
      return list.records.find((m) => m.kind === 'contract.to_sign');
    };
    const [sellerMessage, buyerMessage] = await Promise.all([within(2000, () => toSign(seller.adminToken)), within(2000, () => toSign(buyer.adminToken))]);
    expect(Date.now() - started).toBeLessThan(2000);
    const [deal] = await db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    const [contract] = await db.select().from(contracts).where(eq(contracts.dealId, deal!.id));
    for (const message of [sellerMessage, buyerMessage]) {
      expect(message.title).toBe('待签署合同');
      expect(message.link).toBe(`/contract/info?id=${contract!.id}`);
      expect(message.dueAt).toBe(contract!.signDeadline.toISOString());
      expect(message.urgent).toBe(true);
    }
    // the traders of both enterprises may sign too: they are told as well
    expect(await within(2000, () => toSign(seller.traderToken))).toBeTruthy();
    const unread = (await get(t, '/message/unreadCount', buyer.adminToken)).json().result;
    expect(unread.count).toBeGreaterThanOrEqual(1);
    expect(unread.urgent).toBeGreaterThanOrEqual(1);

    // an SMS to each party's admin, within one message, with the platform's sign
    const texts = await db
      .select()
      .from(messageDeliveries)
      .innerJoin(messages, eq(messages.id, messageDeliveries.messageId))
      .where(inArray(messages.userId, [seller.admin.id, buyer.admin.id]));
    const sms = texts.filter((r) => r.msg_delivery.channel === 'sms' && r.msg_message.kind === 'contract.to_sign');
    expect(sms.map((r) => r.msg_delivery.address).sort()).toEqual(['13900000001', '13900000002']);
    for (const { msg_delivery: text } of sms) {
      expect(text.body.startsWith('【CoalX】')).toBe(true);
      expect(Array.from(text.body).length).toBeLessThanOrEqual(70);
      expect(text.body).toContain(contract!.contractNo);
    }

    // sent through the platform's SMS provider: the outbox the trading centre reads (短信发件箱)
    await runMessageDeliveries(t.app);
    const outbox = await db.select().from(smsOutbox).where(inArray(smsOutbox.mobile, ['13900000001', '13900000002']));
    expect(outbox.filter((o) => o.content.includes(contract!.contractNo)).map((o) => o.mobile).sort()).toEqual(['13900000001', '13900000002']);

    // both tabs heard the new message; reading it in one updates the other
    await within(2000, async () => buyerTab.events.some((e) => e.message?.title === '待签署合同'));
    await within(2000, async () => buyerOtherTab.events.some((e) => e.message?.title === '待签署合同'));
    const before = buyerOtherTab.events.length;
    const read = await post(t.app, '/api/message/read', buyer.adminToken, { ids: [buyerMessage.id] });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().result.marked).toBe(1);
    const pushed = await within(2000, async () => buyerOtherTab.events.slice(before).find((e) => e.type === 'unread'));
    expect(pushed.unread!.count).toBe(unread.count - 1);
    buyerTab.socket.close();
    buyerOtherTab.socket.close();
  }, 60_000);

  it('a message is made once per event and user, whatever the number of dispatches', async () => {
    const db = t.database.db;
    await t.app.notifications.settled();
    const pair = (m: { eventKey: string; userId: number }) => `${m.eventKey}:${m.userId}`;
    const before = await db.select().from(messages);
    // the processed events handled again (as a second process or a crash before the mark would); a rule may find
    // people who joined since (a trader added after a 入金), but nobody told already is told twice
    await db.update(messageEvents).set({ processedAt: null });
    const again = await t.app.notifications.dispatch();
    expect(again.processed).toBeGreaterThan(0);
    const after = await db.select().from(messages);
    expect(new Set(after.map(pair)).size).toBe(after.length);
    expect(after.length - before.length).toBe(again.messages);
    const told = new Set(before.map(pair));
    expect(after.filter((m) => told.has(pair(m))).map((m) => m.id).sort()).toEqual(before.map((m) => m.id).sort());
  });

  it('only the reader\'s own messages are listed and marked', async () => {
    const sellerList = (await get(t, '/message/list', seller.adminToken)).json().result.records as { id: number }[];
    const marked = await post(t.app, '/api/message/read', buyer.adminToken, { ids: sellerList.map((m) => m.id) });
    expect(marked.json().result.marked).toBe(0);
    const buyerList = (await get(t, '/message/list', buyer.adminToken)).json().result.records as { id: number }[];
    expect(buyerList.map((m) => m.id).filter((id) => sellerList.some((m) => m.id === id))).toEqual([]);
    const bad = await post(t.app, '/api/message/read', buyer.adminToken, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('请选择要标记为已读的消息');
  });

  it('settings: SMS off for a category sends none; e-mail on queues an e-mail with the link', async () => {
    const saved = await post(t.app, '/api/message/settings', buyer.adminToken, { email: 'buyer@example.com', preferences: [{ category: 'contract', sms: false, email: true }] });
    expect(saved.statusCode, saved.body).toBe(200);
    const settings = saved.json().result as { email: string; mobile: string; preferences: { category: string; sms: boolean; email: boolean }[] };
    expect(settings.email).toBe('buyer@example.com');
    expect(settings.mobile).toBe('139****0002');
    expect(settings.preferences.find((p) => p.category === 'contract')).toEqual({ category: 'contract', sms: false, email: true });
    expect(settings.preferences.find((p) => p.category === 'trade')).toEqual({ category: 'trade', sms: true, email: false });
    // the next contract notice to the buyer's admin: an e-mail with the link, and no SMS
    const [contract] = await t.database.db.select().from(contracts).orderBy(contracts.id).limit(1);
    await recordReminders(t.database.db, 'contract.deadline_soon', [{ key: `test:${contract!.id}`, payload: { id: contract!.id } }], t.clock.now());
    await t.app.notifications.dispatch();
    const [reminder] = await t.database.db.select().from(messages).where(and(eq(messages.eventKey, `test:${contract!.id}`), eq(messages.userId, buyer.admin.id)));
    const outbox = await t.database.db.select().from(messageDeliveries).where(eq(messageDeliveries.messageId, reminder!.id));
    expect(outbox.map((d) => d.channel)).toEqual(['email']);
    expect(outbox[0]!.address).toBe('buyer@example.com');
    expect(outbox[0]!.subject).toBe('【CoalX】合同即将逾期');
    expect(outbox[0]!.body).toContain(`前往处理：${t.config.publicUrl}/contract/info?id=${contract!.id}`);
    const badEmail = await post(t.app, '/api/message/settings', buyer.adminToken, { email: 'not-an-address', preferences: [] });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain('邮箱地址格式不正确');
  });
});
