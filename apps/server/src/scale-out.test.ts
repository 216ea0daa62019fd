import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_PASSWORDS } from './demo/index';
import { freePort, startServerProcess, waitForHealth, scratchDatabase, type ServerProcess } from './test/server-process';

/**
 * README scale-out: several server processes on one PostgreSQL. Two started at the same moment with demo data on
 * an empty database both come up, exactly one drives the demo bidders, and a bid taken by one reaches a watcher
 * of the other. Needs TEST_DATABASE_URL (skipped without it).
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('two server processes on one PostgreSQL', () => {
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  let databaseUrl = '';
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    await scratch?.drop();
  });

  it('both start together on an empty database with demo data; one drives the demo bidders; bids reach the other', async () => {
    scratch = await scratchDatabase(adminUrl!, 'coalx_scale');
    databaseUrl = scratch.url;

    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-scale-'));
      folders.push(dataDir);
      const env = { DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web'), DATABASE_URL: databaseUrl, DEMO_DATA: '1', LOG_LEVEL: 'info', CA_KEY_PASSPHRASE: 'scale-out-test-passphrase' };
      servers.push(startServerProcess(env, await freePort()));
    }
    const [a, b] = servers as [ServerProcess, ServerProcess];
    await Promise.all([waitForHealth(a.port, 90_000), waitForHealth(b.port, 90_000)]).catch((err) => {
      throw new Error(`${err}\n--- A ---\n${a.output()}\n--- B ---\n${b.output()}`);
    });
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    const drivers = servers.filter((server) => server.output().includes('本进程驱动演示竞价'));
    expect(drivers).toHaveLength(1);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows: enterprises } = await db.query('SELECT count(*)::int AS n FROM enterprise');
      const { rows: live } = await db.query(
        `SELECT trade_no FROM auction WHERE status = 'approved' AND bid_start <= now() AND current_end > now() ORDER BY id DESC LIMIT 1`,
      );
      expect(enterprises[0].n).toBeGreaterThan(0);
      const tradeId = live[0]!.trade_no as string;

      const signIn = async (port: number, username: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/trade-api/sys/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: DEMO_PASSWORDS.trader }),
        });
        return ((await response.json()) as { result: { token: string } }).result.token;
      };
      const watcherToken = await signIn(b.port, 'buyer02');
      // the live auction's two demo bidders, signed in on process A: whichever is not the best bidder at the moment may bid
      const bidderTokens = [await signIn(a.port, 'bidder02'), await signIn(a.port, 'bidder01')];

      const socket = new WebSocket(`ws://127.0.0.1:${b.port}/trade-api/ws/auction?tradeId=${tradeId}`);
      // signed in by the first message (never a token in the address)
      socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token: watcherToken })));
      const prices: number[] = [];
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; snapshot: { bestPrice: number | null } };
        if (message.snapshot?.bestPrice != null) prices.push(message.snapshot.bestPrice);
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });

      // the demo bidders may outbid us between read and bid: try again above the new best price
      let accepted: number | null = null;
      const refusals: string[] = [];
      for (let attempt = 0; attempt < 10 && accepted === null; attempt++) {
        const { rows } = await db.query('SELECT best_price_fen, start_price_fen, min_step_fen FROM auction WHERE trade_no = $1', [tradeId]);
        const row = rows[0] as { best_price_fen: string | null; start_price_fen: string; min_step_fen: string };
        const price = Number(row.best_price_fen ?? Number(row.start_price_fen) - Number(row.min_step_fen)) + Number(row.min_step_fen);
        const response = await fetch(`http://127.0.0.1:${a.port}/trade-api/api/bidRecord/bidAnswerApply`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-access-token': bidderTokens[attempt % 2]! },
          body: JSON.stringify({ tradeId, price }),
        });
        if (response.status === 200) accepted = price;
        else refusals.push(`${response.status} ${((await response.json()) as { message: string }).message}`);
      }
      expect(accepted, refusals.join('; ')).not.toBeNull();
      for (const refusal of refusals) expect(refusal).toMatch(/^422 /);
      const started = Date.now();
      // watchers get the newest snapshot: a robot bid right after ours may come in its place, never a lower one
      const reached = () => prices.some((price) => price >= accepted!);
      while (!reached() && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
      socket.close();
      expect(reached(), `watcher saw ${prices.join(', ')}`).toBe(true);

      // sessions live in each process's memory: a logout answered by A is refused by B on the very next request
      for (let round = 0; round < 3; round++) {
        const token = await signIn(a.port, 'buyer02');
        const info = (port: number) => fetch(`http://127.0.0.1:${port}/trade-api/sys/user/info`, { headers: { 'x-access-token': token } });
        expect((await info(b.port)).status).toBe(200);
        const logout = await fetch(`http://127.0.0.1:${a.port}/trade-api/sys/logout`, { headers: { 'x-access-token': token } });
        expect(logout.status).toBe(200);
        expect((await info(b.port)).status).toBe(401);
      }
    } finally {
      await db.end();
    }
  }, 150_000);
});
