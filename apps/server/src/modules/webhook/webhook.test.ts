import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_AUTO_DISABLED_REASON, type WebhookEventType } from '@coalx/shared';
import { webhookDeliveries, webhookEndpoints, type WebhookEndpoint } from '../../db/schema/index';
import { runWebhookDeliveries } from '../../plugins/webhooks';
import { loginAs, signedIn } from '../../test/factories';
import { testDatabaseKinds } from '../../test/test-app';
import { PRIVATE_ADDRESS_REFUSAL, isPrivateAddress } from './address';
import { claimDueWebhooks, deliverDueWebhooks } from './delivery';
import { newWebhookSecret } from './signing';
import { enqueueWebhookDeliveries } from './webhook.service';
import { createWebhookTestApp, startReceiver, type WebhookTestApp } from '../../test/webhooks';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

describe.each(testDatabaseKinds())('webhooks on %s', (kind) => {
  let t: WebhookTestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let eventNo = 0;
  beforeAll(async () => {
    t = await createWebhookTestApp(kind);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: { 'x-access-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const admin = async () => {
    const signed = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    return { ...signed, enterpriseId: signed.user.enterpriseId! };
  };
  const register = async (token: string, url: string, eventTypes: WebhookEventType[] = ['contract.created']) => {
    const answer = await call('POST', '/webhook/endpoint/add', token, { url, description: '本企业 ERP', eventTypes, enabled: true });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().result as { id: number; secret: string; url: string };
  };
  const enqueue = (enterpriseIds: number[], type: WebhookEventType = 'contract.created', data: Record<string, unknown> = { contractNo: `HT2026${++eventNo}` }, eventKey = `event-${kind}-${++eventNo}`) =>
    t.database.db.transaction((tx) => enqueueWebhookDeliveries(tx, { eventKey, type, enterpriseIds, data, at: t.clock.now() }));
  const deliveryOf = async (endpointId: number) => {
    const rows = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.id);
    return rows;
  };
  const endpointRow = async (id: number) => (await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
  const headersOf = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

  // first: the standardwebhooks library checks the timestamp against the real time, which later tests move away from
  it('delivers a registered event, signed so that the standardwebhooks library verifies it with the secret and with no other', async () => {
    const a = await admin();
    const endpoint = await register(a.token, receiver.url);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const listed = await call('GET', '/webhook/endpoint/list', a.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().result).toHaveLength(1);
    expect(listed.body).not.toContain(endpoint.secret);
    expect(listed.json().result[0]).not.toHaveProperty('secret');

    // the dispatcher's call: one delivery per subscribed endpoint, once per event; other types and enterprises hear nothing
    const data = { contractNo: 'HT20260001', amountFen: 123_456_00, buyer: '测试电厂' };
    expect(await enqueue([a.enterpriseId, a.enterpriseId + 100_000], 'contract.created', data, `contract-made-${kind}`)).toBe(1);
    expect(await enqueue([a.enterpriseId], 'contract.created', data, `contract-made-${kind}`)).toBe(0);
    expect(await enqueue([a.enterpriseId], 'order.paid')).toBe(0);

    const report = await runWebhookDeliveries(t.app);
    expect(report).toMatchObject({ attempted: 1, succeeded: 1, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/coalx');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const payload = new Webhook(endpoint.secret).verify(request.body, headersOf(request.headers));
    expect(payload).toEqual({ type: 'contract.created', timestamp: t.clock.now().toISOString(), data });
    expect(() => new Webhook(newWebhookSecret()).verify(request.body, headersOf(request.headers))).toThrow(WebhookVerificationError);
    expect(() => new Webhook(endpoint.secret).verify(request.body.replace('HT20260001', 'HT20260002'), headersOf(request.headers))).toThrow(WebhookVerificationError);

    const log = await call('GET', `/webhook/delivery/list?endpointId=${endpoint.id}`, a.token);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().result).toMatchObject({ total: 1, records: [{ state: 'succeeded', stateText: '成功', attempts: 1, lastStatusCode: 200, eventName: '合同已生成', attemptLog: [{ statusCode: 200, error: null }] }] });
  });

  it('a new secret (重新生成密钥) signs from then on; the old one no longer verifies', async () => {
    const a = await admin();
    const endpoint = await register(a.token, receiver.url);
    const rotated = await call('POST', '/webhook/endpoint/rotateSecret', a.token, { id: endpoint.id });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secret = rotated.json().result.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    const before = receiver.received.length;
    await enqueue([a.enterpriseId]);
    await runWebhookDeliveries(t.app);
    const request = receiver.received[before]!;
    expect(new Webhook(secret).verify(request.body, headersOf(request.headers))).toMatchObject({ type: 'contract.created' });
    expect(() => new Webhook(endpoint.secret).verify(request.body, headersOf(request.headers))).toThrow(WebhookVerificationError);
  });

  it('retries a receiver answering 500 after 10, 20, 40 and 80 s, gives up after the fifth attempt, and 重新发送 sends it again', async () => {
    const failing = await startReceiver(() => 500);
    try {
      const a = await admin();
      const endpoint = await register(a.token, failing.url, ['order.paid']);
      expect(await enqueue([a.enterpriseId], 'order.paid', { orderNo: 'DD20260001', amountFen: 500_000 })).toBe(1);

      expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 1, failed: 1 });
      for (const wait of [10, 20, 40, 80]) {
        const [pending] = await deliveryOf(endpoint.id);
        expect(pending).toMatchObject({ state: 'pending', lastStatusCode: 500 });
        expect(pending!.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(wait * SECOND);
        t.clock.advance(wait * SECOND - 1);
        expect((await runWebhookDeliveries(t.app)).attempted, `not before ${wait} s`).toBe(0);
        t.clock.advance(1);
        expect((await runWebhookDeliveries(t.app)).attempted, `after ${wait} s`).toBe(1);
      }
      const [given] = await deliveryOf(endpoint.id);
      expect(given).toMatchObject({ state: 'failed', attempts: 5, lastStatusCode: 500 });
      expect(failing.received).toHaveLength(5);
      // every attempt is the same message: one webhook-id, one body
      expect(new Set(failing.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(failing.received.map((r) => r.body)).size).toBe(1);
      t.clock.advance(HOUR);
      expect((await runWebhookDeliveries(t.app)).attempted).toBe(0);

      const listed = (await call('GET', '/webhook/endpoint/list', a.token)).json().result[0];
      expect(listed.lastFailure).toMatchObject({ statusCode: 500, eventType: 'order.paid' });
      expect(listed.failingSince).not.toBeNull();
      const log = (await call('GET', `/webhook/delivery/list?endpointId=${endpoint.id}&state=failed`, a.token)).json().result;
      expect(log.total).toBe(1);
      expect(log.records[0].attemptLog.map((x: { statusCode: number }) => x.statusCode)).toEqual([500, 500, 500, 500, 500]);

      failing.answerWith(() => 204);
      const resent = await call('POST', '/webhook/delivery/resend', a.token, { id: given!.id });
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json().result).toMatchObject({ state: 'pending', attempts: 0 });
      expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 1, succeeded: 1 });
      expect(failing.received).toHaveLength(6);
      expect(failing.received[5]!.headers['webhook-id']).toBe(failing.received[0]!.headers['webhook-id']);
      const [done] = await deliveryOf(endpoint.id);
      expect(done).toMatchObject({ state: 'succeeded', attempts: 1, lastStatusCode: 204 });
      // a success ends the endpoint's run of failures
      expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
      expect((await call('GET', `/webhook/delivery/list?endpointId=${endpoint.id}`, a.token)).json().result.records[0].attemptLog).toHaveLength(6);
    } finally {
      await failing.close();
    }
  });

  it('switches off an endpoint that has failed for more than a day, tells its admins once, and sends it nothing more', async () => {
    const failing = await startReceiver(() => 503);
    // the worker as the app runs it, with the callback the app wires to the admins' message
    const told: WebhookEndpoint[] = [];
    const run = () => deliverDueWebhooks(t.database.db, t.clock, { allowPrivate: true, onEndpointDisabled: (endpoint) => void told.push(endpoint) });
    try {
      const a = await admin();
      const endpoint = await register(a.token, failing.url, ['dispatch.arrived']);
      await enqueue([a.enterpriseId], 'dispatch.arrived');
      await run();
      const since = (await endpointRow(endpoint.id)).failingSince;
      expect(since).not.toBeNull();

      t.clock.advance(23 * HOUR);
      await enqueue([a.enterpriseId], 'dispatch.arrived');
      await run();
      expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true, failingSince: since });
      expect(told.map((e) => e.id)).toEqual([]);

      t.clock.advance(HOUR + SECOND);
      await enqueue([a.enterpriseId], 'dispatch.arrived');
      expect(await run()).toMatchObject({ disabled: 1 });
      expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: false, disabledReason: WEBHOOK_AUTO_DISABLED_REASON });
      expect(told.map((e) => e.id)).toEqual([endpoint.id]);
      // a day has passed: a new session
      a.token = await loginAs(t.app, a.user.username);
      const listed = (await call('GET', '/webhook/endpoint/list', a.token)).json().result[0];
      expect(listed).toMatchObject({ enabled: false, disabledReason: '连续失败超过一天，已自动停用' });

      // a switched-off endpoint hears no new events, and its pending retries are not sent but left for 重新发送
      expect(await enqueue([a.enterpriseId], 'dispatch.arrived')).toBe(0);
      const heard = failing.received.length;
      t.clock.advance(HOUR);
      expect((await run()).attempted).toBe(0);
      expect(failing.received).toHaveLength(heard);
      const rows = await deliveryOf(endpoint.id);
      expect(rows.map((r) => r.state)).toEqual(['failed', 'failed', 'failed']);
      expect(rows.map((r) => r.lastError)).toContain('推送接口已停用，未发送');
      const refused = await call('POST', '/webhook/delivery/resend', a.token, { id: rows[2]!.id });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe('该推送接口已停用，请先启用后再重新发送');
      expect(told.map((e) => e.id)).toEqual([endpoint.id]);

      // switched on again by its admin: a fresh start
      failing.answerWith(() => 200);
      const on = await call('POST', '/webhook/endpoint/edit', a.token, { id: endpoint.id, url: failing.url, description: '', eventTypes: ['dispatch.arrived'], enabled: true });
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json().result).toMatchObject({ enabled: true, disabledReason: '', failingSince: null });
      expect((await call('POST', '/webhook/delivery/resend', a.token, { id: rows[2]!.id })).statusCode).toBe(200);
      expect(await run()).toMatchObject({ succeeded: 1 });
    } finally {
      await failing.close();
    }
  });

  it('refuses private and loopback addresses unless WEBHOOK_ALLOW_PRIVATE, when registering and again when sending', async () => {
    const a = await admin();
    const local = await register(a.token, receiver.url, ['invoice.registered']);
    const byName = await register(a.token, receiver.url.replace('127.0.0.1', 'localhost'), ['invoice.registered']);
    t.config.webhookAllowPrivate = false;
    try {
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://localhost/hook',
        'http://10.1.2.3/hook',
        'http://172.20.0.1/hook',
        'https://192.168.1.10/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://0.0.0.0/',
        'http://[::1]:8080/',
        'http://[fd12:3456::1]/',
        'http://[fe80::1]/',
        'http://[::ffff:127.0.0.1]/',
      ]) {
        const refused = await call('POST', '/webhook/endpoint/add', a.token, { url, eventTypes: ['deal.created'], enabled: true });
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json().message, url).toBe(PRIVATE_ADDRESS_REFUSAL);
      }
      const ftp = await call('POST', '/webhook/endpoint/add', a.token, { url: 'ftp://example.com/hook', eventTypes: ['deal.created'] });
      expect(ftp.json().message).toContain('推送地址只能使用 http 或 https 协议');
      const edited = await call('POST', '/webhook/endpoint/edit', a.token, { id: local.id, url: 'http://192.168.0.9/', eventTypes: ['deal.created'], enabled: true });
      expect(edited.json().message).toBe(PRIVATE_ADDRESS_REFUSAL);
      // a public address is taken (an address literal: no resolver needed)
      const publicOne = await call('POST', '/webhook/endpoint/add', a.token, { url: 'https://203.0.113.10/coalx', eventTypes: ['deal.created'] });
      expect(publicOne.statusCode, publicOne.body).toBe(200);
      expect((await call('POST', '/webhook/endpoint/delete', a.token, { id: publicOne.json().result.id })).statusCode).toBe(200);

      // registered while allowed, refused when sent: the address literal, and a name resolved to loopback
      const before = receiver.received.length;
      expect(await enqueue([a.enterpriseId], 'invoice.registered')).toBe(2);
      expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 2, failed: 2 });
      expect(receiver.received).toHaveLength(before);
      for (const id of [local.id, byName.id]) {
        const [row] = await deliveryOf(id);
        expect(row).toMatchObject({ state: 'pending', attempts: 1, lastStatusCode: null, lastError: PRIVATE_ADDRESS_REFUSAL });
      }
    } finally {
      t.config.webhookAllowPrivate = true;
    }
    t.clock.advance(10 * SECOND);
    expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 2, succeeded: 2 });
  });

  it('classifies addresses: private ranges only', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '0.0.0.0', '::1', '::', 'fc00::1', 'fdff::1', 'fe80::1', 'febf::1', '::ffff:10.0.0.1', '::ffff:7f00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '11.0.0.1', '2001:4860:4860::8888', 'fec0::1', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('checks what is registered: events from the catalogue, at least one', async () => {
    const a = await admin();
    const none = await call('POST', '/webhook/endpoint/add', a.token, { url: receiver.url, eventTypes: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('请至少选择一个推送的事件');
    const unknown = await call('POST', '/webhook/endpoint/add', a.token, { url: receiver.url, eventTypes: ['user.created'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('事件类型不正确');
    const types = await call('GET', '/webhook/eventTypes', a.token);
    expect(types.json().result).toContainEqual({ type: 'contract.created', name: '合同已生成' });
  });

  it("keeps each enterprise's endpoints its own: another's are 404, a trader is refused", async () => {
    const a = await admin();
    const b = await admin();
    const endpoint = await register(a.token, receiver.url, ['statement.issued']);
    await enqueue([a.enterpriseId], 'statement.issued');
    const [delivery] = await deliveryOf(endpoint.id);
    const untouched = await endpointRow(endpoint.id);
    expect((await call('GET', '/webhook/endpoint/list', b.token)).json().result).toEqual([]);
    for (const [url, payload] of [
      ['/webhook/endpoint/edit', { id: endpoint.id, url: receiver.url, eventTypes: ['deal.created'], enabled: false }],
      ['/webhook/endpoint/rotateSecret', { id: endpoint.id }],
      ['/webhook/endpoint/delete', { id: endpoint.id }],
      ['/webhook/delivery/resend', { id: delivery!.id }],
    ] as const) {
      const answer = await call('POST', url, b.token, payload);
      expect(answer.statusCode, url).toBe(404);
    }
    expect((await call('GET', `/webhook/delivery/list?endpointId=${endpoint.id}`, b.token)).statusCode).toBe(404);
    const trader = await signedIn(t.app, t.database.db, { role: 'trader', enterpriseId: a.enterpriseId });
    expect((await call('GET', '/webhook/endpoint/list', trader.token)).statusCode).toBe(403);
    expect((await call('POST', '/webhook/endpoint/add', trader.token, { url: receiver.url, eventTypes: ['deal.created'] })).statusCode).toBe(403);
    // still there, unchanged
    expect(await endpointRow(endpoint.id)).toEqual(untouched);
    await runWebhookDeliveries(t.app);
  });

  it('delivers what was written before the server went down, and what a worker that died had claimed', async () => {
    const a = await admin();
    const endpoint = await register(a.token, receiver.url, ['calloff.created']);
    const before = receiver.received.length;
    expect(await enqueue([a.enterpriseId], 'calloff.created', { callOffNo: 'DY20260001' })).toBe(1);
    // the process stops between the event's commit and the delivery; a new one starts on the same database
    await t.restart();
    expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(receiver.received).toHaveLength(before + 1);
    expect(JSON.parse(receiver.received[before]!.body)).toMatchObject({ type: 'calloff.created', data: { callOffNo: 'DY20260001' } });

    // a worker claims a delivery and dies before sending: the delivery falls due again once its lease is over
    await enqueue([a.enterpriseId], 'calloff.created', { callOffNo: 'DY20260002' });
    expect(await claimDueWebhooks(t.database.db, t.clock.now())).toHaveLength(1);
    expect((await runWebhookDeliveries(t.app)).attempted).toBe(0);
    t.clock.advance(2 * 60 * SECOND);
    expect(await runWebhookDeliveries(t.app)).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(receiver.received).toHaveLength(before + 2);
    expect((await deliveryOf(endpoint.id)).map((d) => d.state)).toEqual(['succeeded', 'succeeded']);
  });

  it('sends each delivery once when several workers run at the same time', async () => {
    const a = await admin();
    await register(a.token, receiver.url, ['auction.ended']);
    const before = receiver.received.length;
    for (let i = 0; i < 6; i++) await enqueue([a.enterpriseId], 'auction.ended', { auctionNo: `JJ2026${i}` });
    const options = { allowPrivate: true, batchSize: 2 };
    const reports = await Promise.all([deliverDueWebhooks(t.database.db, t.clock, options), deliverDueWebhooks(t.database.db, t.clock, options), runWebhookDeliveries(t.app)]);
    expect(reports.reduce((n, r) => n + r.succeeded, 0)).toBe(6);
    const bodies = receiver.received.slice(before).map((r) => JSON.parse(r.body).data.auctionNo as string);
    expect(bodies.sort()).toEqual(['JJ20260', 'JJ20261', 'JJ20262', 'JJ20263', 'JJ20264', 'JJ20265']);
  });
});
