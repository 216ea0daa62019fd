import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { demoPayPasswordHash } from './demo/pay-password';
import { newWebhookSecret } from './modules/webhook/signing';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from './test/server-process';

interface Received {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

/**
 * Issue 28's webhook chain end to end, with real processes: a deal made through the API reaches a member's receiver
 * signed with its endpoint's secret; the receiver's 500 is retried on the schedule, and a server SIGKILLed between the
 * failed attempt and the retry still delivers after its restart.
 */
describe('webhooks across a killed server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-webhook-crash-'));
  const env = { DATA_DIR: dataDir, DEMO_DATA: '1', DATABASE_URL: '', WEB_DIST: path.join(dataDir, 'no-web'), WEBHOOK_ALLOW_PRIVATE: '1', DELIVERY_INTERVAL_MS: '500' };
  let server: ServerProcess | null = null;
  const received: Received[] = [];
  let answer = 500;
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body, answered: answer });
      response.writeHead(answer).end();
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await new Promise((resolve) => receiver.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (port: number, url: string, token: string | null, body?: object) => {
    const response = await fetch(`http://127.0.0.1:${port}/trade-api${url}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as { result: any; message: string } };
  };
  const login = async (port: number, username: string) => {
    const result = (await call(port, '/sys/login', null, { username, password: 'Trader#2026' })).body.result;
    return { token: result.token as string, payPassword: demoPayPasswordHash(result.enterPriseInfo.clientId) };
  };
  const until = async <T,>(ms: number, probe: () => T | undefined): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`not within ${ms} ms; received ${received.length}: ${server?.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('delivers the deal\'s contract.created, signed, after a 500 and a SIGKILL', async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/coalx`;
    server = startServerProcess(env, await freePort());
    await waitForHealth(server.port, 90_000);
    let port = server.port;

    // the seller's admin registers its ERP's endpoint; the secret is shown this once
    const seller = await login(port, 'seller01');
    const added = await call(port, '/webhook/endpoint/add', seller.token, { url: receiverUrl, description: 'ERP', eventTypes: ['contract.created'], enabled: true });
    expect(added.status, added.body.message).toBe(200);
    const secret = added.body.result.secret as string;
    expect(secret).toMatch(/^whsec_/);

    // the buyer takes the seller's open listing that confirms by itself: a deal, then its contract
    const mine = await call(port, '/api/myListedTradeList', seller.token, { pageNo: 1, pageSize: 50, status: 'approved', hangState: 1 });
    const listing = (mine.body.result.records as { tradeId: string; autoConfirm: boolean; minSubscribe: number; tradeType: number }[]).find((l) => l.autoConfirm && l.tradeType === 0);
    expect(listing, 'an open self-confirming demo listing of seller01').toBeTruthy();
    const buyer = await login(port, 'buyer01');
    const subscribed = await call(port, '/api/listedAnswerApply', buyer.token, { tradeId: listing!.tradeId, quantity: listing!.minSubscribe, requestId: randomUUID(), payPassword: buyer.payPassword });
    expect(subscribed.status, subscribed.body.message).toBe(200);

    // the first attempt is refused with a 500; the server dies before the retry is due (10 s later)
    const first = await until(30_000, () => received.find((r) => r.answered === 500));
    server.child.kill('SIGKILL');
    await server.exited;
    answer = 200;
    server = startServerProcess(env, await freePort());
    await waitForHealth(server.port, 90_000);
    port = server.port;

    const delivered = await until(60_000, () => received.find((r) => r.answered === 200));
    expect(delivered.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(delivered.body).toBe(first.body);
    expect(Number(delivered.headers['webhook-timestamp']) - Number(first.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(10);
    const event = new Webhook(secret).verify(delivered.body, delivered.headers) as { type: string; data: { contractNo: string; dealNo: string } };
    expect(event.type).toBe('contract.created');
    expect(event.data.contractNo).toMatch(/\S/);
    expect(event.data.dealNo).toMatch(/\S/);
    expect(() => new Webhook(newWebhookSecret()).verify(delivered.body, delivered.headers)).toThrow(WebhookVerificationError);

    // the delivery log says the same: two attempts, the first 500, then delivered
    const deliveries = await call(port, `/webhook/delivery/list?endpointId=${added.body.result.id}&pageNo=1&pageSize=10`, seller.token);
    expect(deliveries.status, deliveries.body.message).toBe(200);
    const [logged] = deliveries.body.result.records as { state: string; attempts: unknown }[];
    expect(logged).toMatchObject({ state: 'succeeded' });
  }, 240_000);
});
