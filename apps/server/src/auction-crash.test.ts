import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoPayPasswordHash } from './demo/pay-password';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from './test/server-process';

/** SIGKILL in the middle of a live auction: nothing acknowledged is lost and the auction still ends right. */
describe('a server killed during a live auction', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-crash-'));
  // a generous bid rate limit: the second test sends 50 bids from four bidders at once
  const env = { DATA_DIR: dataDir, DEMO_DATA: '1', DATABASE_URL: '', WEB_DIST: path.join(dataDir, 'no-web'), BID_RATE_LIMIT: '1000' };
  let server: ServerProcess | null = null;
  afterAll(() => {
    server?.child.kill('SIGKILL');
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
  // a fresh installation asks the pay password for money: each session's enterprise's demo pay password, by token
  const payPasswords = new Map<string, string>();
  const login = async (port: number, username: string, password = 'Trader#2026') => {
    const result = (await call(port, '/sys/login', null, { username, password })).body.result;
    if (result.enterPriseInfo?.clientId) payPasswords.set(result.token, demoPayPasswordHash(result.enterPriseInfo.clientId));
    return result.token as string;
  };
  const sleepUntil = (time: number) => new Promise((r) => setTimeout(r, Math.max(0, time - Date.now())));

  it('keeps every acknowledged bid and the deadline across a SIGKILL, then ends the auction', async () => {
    server = startServerProcess(env, await freePort());
    await waitForHealth(server.port, 90_000);
    let port = server.port;
    const publisher = await login(port, 'buyer02');
    const a = await login(port, 'buyer01');
    const b = await login(port, 'seller01');
    const operator = await login(port, 'operator', 'Operator#2026');
    const now = Date.now();
    const day = (t: number) => new Date(t + 8 * 3600_000).toISOString().slice(0, 10);
    const created = await call(port, '/api/bidApply', publisher, {
      tradeType: 2, stockCode: 'DLM5500', quantity: 1_000_000, startPrice: 80_000, minStep: 100, maxStep: 1_000, limitPrice: null, deposit: 1_000_000,
      enrolDeadline: new Date(now + 4_000).toISOString(), bidStart: new Date(now + 5_000).toISOString(), bidEnd: new Date(now + 12_000).toISOString(),
      extensionSeconds: 30, priceType: 'factory_tax', transport: 'rail', deliveryProvince: '天津市', deliveryCity: '市辖区', deliveryDistrict: '滨海新区', deliveryPlace: '南疆港',
      deliveryDateStart: day(now + 3 * 86400_000), deliveryDateEnd: day(now + 9 * 86400_000),
    });
    expect(created.status, created.body.message).toBe(200);
    const tradeId = created.body.result.tradeId;
    expect((await call(port, '/api/auction/audit/approve', operator, { tradeId })).status).toBe(200);
    for (const token of [a, b]) {
      const enrolled = await call(port, '/api/bidEnroll/add', token, { tradeId, acceptRules: true, requestId: `crash-${token.slice(0, 12)}`, payPassword: payPasswords.get(token) });
      expect(enrolled.status, enrolled.body.message).toBe(200);
    }
    await sleepUntil(now + 5_300);
    const acks = [];
    for (const [token, price] of [[a, 80_000], [b, 80_100], [a, 80_300]] as const) {
      const response = await call(port, '/api/bidRecord/bidAnswerApply', token, { tradeId, price });
      expect(response.status, response.body.message).toBe(200);
      acks.push(response.body.result as { seq: number; price: number; currentEnd: number });
    }

    server.child.kill('SIGKILL');
    await server.exited;
    server = startServerProcess(env, await freePort());
    await waitForHealth(server.port, 90_000);
    port = server.port;

    const snapshot = (await call(port, `/api/bidRecord/snapshot?tradeId=${tradeId}`, null)).body.result;
    expect(snapshot).toMatchObject({ bidCount: 3, bestPrice: 80_300, currentEnd: acks[2]!.currentEnd });
    expect(snapshot.bids.map((x: { seq: number }) => x.seq)).toEqual([3, 2, 1]);

    await sleepUntil(acks[2]!.currentEnd + 3_000);
    const result = (await call(port, '/api/bidResult', null, { tradeId })).body.result;
    expect(result).toMatchObject({ dealPrice: 80_300, bidCount: 3, bidderCount: 2 });
    expect(result.auction).toMatchObject({ hangState: 3, result: 'deal' });
    // the loser's deposit is back
    const loserDeposits = (await call(port, '/api/deposit/getDepositBalance?pageSize=50', await login(port, 'seller01'))).body.result.records;
    expect(loserDeposits.find((d: { tradeId: string }) => d.tradeId === tradeId).status).toBe('released');
  }, 180_000);

  it('SIGKILL while a group of 50 queued bids commits: every acknowledged bid is there, no refused or unanswered one was reported accepted', async () => {
    if (!server) {
      server = startServerProcess(env, await freePort());
      await waitForHealth(server.port, 90_000);
    }
    let port = server.port;
    const publisher = await login(port, 'buyer02');
    const operator = await login(port, 'operator', 'Operator#2026');
    const bidders = [await login(port, 'buyer01'), await login(port, 'seller01'), await login(port, 'bidder01'), await login(port, 'bidder02')];
    const now = Date.now();
    const day = (t: number) => new Date(t + 8 * 3600_000).toISOString().slice(0, 10);
    const created = await call(port, '/api/bidApply', publisher, {
      tradeType: 2, stockCode: 'DLM5500', quantity: 1_000_000, startPrice: 80_000, minStep: 100, maxStep: null, limitPrice: null, deposit: 1_000_000,
      enrolDeadline: new Date(now + 4_000).toISOString(), bidStart: new Date(now + 5_000).toISOString(), bidEnd: new Date(now + 600_000).toISOString(),
      extensionSeconds: 30, priceType: 'factory_tax', transport: 'rail', deliveryProvince: '天津市', deliveryCity: '市辖区', deliveryDistrict: '滨海新区', deliveryPlace: '南疆港',
      deliveryDateStart: day(now + 3 * 86400_000), deliveryDateEnd: day(now + 9 * 86400_000),
    });
    expect(created.status, created.body.message).toBe(200);
    const tradeId = created.body.result.tradeId;
    expect((await call(port, '/api/auction/audit/approve', operator, { tradeId })).status).toBe(200);
    for (const token of bidders) {
      const enrolled = await call(port, '/api/bidEnroll/add', token, { tradeId, acceptRules: true, requestId: `group-${token.slice(0, 12)}`, payPassword: payPasswords.get(token) });
      expect(enrolled.status, enrolled.body.message).toBe(200);
    }
    await sleepUntil(now + 5_300);

    // 50 bids at once, each at its own price, the four bidders in turn: they queue behind the first group and are
    // judged together; the server is killed as soon as a second answer comes back, while the group that answer
    // belongs to is still being answered (or, if the first group was alone, while the rest is committing)
    type Outcome = { price: number; status: number | 'no answer'; seq?: number };
    let answers = 0;
    const killOnce = () => {
      if (++answers !== 2) return;
      server!.child.kill('SIGKILL');
    };
    const outcomes: Outcome[] = await Promise.all(
      Array.from({ length: 50 }, async (_, i): Promise<Outcome> => {
        const price = 80_000 + 100 * i;
        try {
          const response = await call(port, '/api/bidRecord/bidAnswerApply', bidders[i % 4]!, { tradeId, price });
          killOnce();
          return { price, status: response.status, seq: response.status === 200 ? response.body.result.seq : undefined };
        } catch {
          killOnce();
          return { price, status: 'no answer' };
        }
      }),
    );
    await server.exited;

    server = startServerProcess(env, await freePort());
    await waitForHealth(server.port, 90_000);
    port = server.port;
    const stored = (await call(port, '/api/bidRecord/list', null, { tradeId, pageNo: 1, pageSize: 100 })).body.result.records as { seq: number; price: number }[];
    const storedPrice = new Map(stored.map((b) => [b.price, b.seq]));
    const acknowledged = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => typeof o.status === 'number' && o.status !== 200);
    expect(acknowledged.length).toBeGreaterThan(0);
    // acknowledged ⇒ stored, under the seq it was acknowledged with
    for (const bid of acknowledged) expect(storedPrice.get(bid.price), `acknowledged bid ${bid.price}`).toBe(bid.seq);
    // refused ⇒ not stored
    for (const bid of refused) expect(storedPrice.has(bid.price), `refused bid ${bid.price} (${bid.status})`).toBe(false);
    // what is stored is one unbroken, strictly improving sequence (committed groups are whole, never half)
    const ascending = [...stored].sort((x, y) => x.seq - y.seq);
    expect(ascending.map((b) => b.seq)).toEqual(ascending.map((_, i) => i + 1));
    for (let i = 1; i < ascending.length; i++) expect(ascending[i]!.price).toBeGreaterThan(ascending[i - 1]!.price);
    const snapshot = (await call(port, `/api/bidRecord/snapshot?tradeId=${tradeId}`, null)).body.result;
    expect(snapshot.bidCount).toBe(stored.length);
    // bids can still be placed after the restart, chaining on from the stored head
    let next: Awaited<ReturnType<typeof call>> | undefined;
    for (const token of bidders) {
      next = await call(port, '/api/bidRecord/bidAnswerApply', token, { tradeId, price: 90_000 });
      if (next.status === 200) break; // the leader is refused (already leading); the next bidder is not
    }
    expect(next!.status, next!.body.message).toBe(200);
    expect(next!.body.result.seq).toBe(stored.length + 1);
    console.info(`group crash: ${acknowledged.length} acknowledged, ${refused.length} refused, ${outcomes.length - acknowledged.length - refused.length} unanswered, ${stored.length} stored`);
  }, 240_000);
});
