import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, compareWithDatabase, prepareStormAuction, runBidStorm, tallyAnswers, type BidStormResult } from './test/bid-storm';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from './test/server-process';

/**
 * Issue 31: a PostgreSQL of the test's own (initdb in a temporary folder, its own port) is restarted and then its
 * postmaster killed with SIGKILL while 50 clients bid through two server processes. Both recover without a restart:
 * no 500, every acknowledged bid stored and none stored that was refused, both ready again, the watcher on the
 * other process catches up and sees the end. Then SIGTERM to one process during bidding, its database killed a
 * second later: it exits within 10 s and no acknowledged bid is lost. Needs PostgreSQL's server binaries.
 */
const binDir = ['17', '16', '15', '14'].map((v) => `/usr/lib/postgresql/${v}/bin`).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: the server runs as the `postgres` user then, in a folder it owns. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

class OwnPostgres {
  private postmaster: ChildProcess | null = null;
  log = '';
  constructor(readonly folder: string, readonly port: number) {}

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/coalx`;
  }

  init() {
    fs.mkdirSync(this.folder, { recursive: true });
    if (asRoot) spawnSync('chown', ['-R', 'postgres', this.folder]);
    const [command, args] = asPostgres(path.join(binDir!, 'initdb'), ['-D', path.join(this.folder, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`initdb: ${result.stderr}`);
  }

  /** Starts the postmaster; after a SIGKILL its orphaned backends may still hold the shared memory for a moment. */
  async start() {
    for (let attempt = 0; attempt < 50; attempt++) {
      const [command, args] = asPostgres(path.join(binDir!, 'postgres'), [
        '-D', path.join(this.folder, 'data'), '-p', String(this.port), '-k', this.folder, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off',
      ]);
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk) => (this.log += chunk));
      child.stderr!.on('data', (chunk) => (this.log += chunk));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      for (let i = 0; i < 100; i++) {
        if (child.exitCode !== null) break;
        const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${this.port}/postgres`, connectionTimeoutMillis: 1000 });
        const up = await client.connect().then(() => true, () => false);
        await client.end().catch(() => undefined);
        if (up) {
          this.postmaster = child;
          return;
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 100))]);
      }
      child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`PostgreSQL did not start:\n${this.log.slice(-2000)}`);
  }

  /** The real postmaster's pid (under runuser it is the child of the spawned process). */
  private postmasterPid(): number {
    return Number(fs.readFileSync(path.join(this.folder, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** SIGINT: PostgreSQL's fast shutdown (what a restart does), or SIGKILL: the postmaster dies on the spot. */
  async stop(signal: 'SIGINT' | 'SIGKILL') {
    const child = this.postmaster;
    if (!child) return;
    this.postmaster = null;
    const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.on('exit', () => resolve()));
    process.kill(this.postmasterPid(), signal);
    await exited;
  }
}

const sleepUntil = (time: number) => new Promise((r) => setTimeout(r, Math.max(0, time - Date.now())));

async function readyWithin(port: number, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const status = await fetch(`http://127.0.0.1:${port}/trade-api/ready`, { signal: AbortSignal.timeout(3000) }).then((r) => r.status, () => 0);
    if (status === 200) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`port ${port} not ready within ${ms} ms`);
}

/** A socket on the auction room, keeping the last snapshot pushed and whether the end was pushed. */
function watch(port: number, tradeId: string) {
  const seen = { bidCount: 0, ended: false, messages: 0 };
  const socket = new WebSocket(`ws://127.0.0.1:${port}/trade-api/ws/auction?tradeId=${tradeId}`);
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as { type: string; snapshot?: { bidCount: number } };
    seen.messages++;
    if (event.snapshot) seen.bidCount = Math.max(seen.bidCount, event.snapshot.bidCount);
    if (event.type === 'ended') seen.ended = true;
  });
  socket.on('error', () => undefined);
  return { seen, socket };
}

function serverErrors(storm: BidStormResult) {
  return storm.failed.filter((attempt) => attempt.status !== 503);
}

describe.skipIf(!binDir)('a database that restarts and dies under a bid storm', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-outage-'));
  fs.chmodSync(folder, 0o755);
  let postgres: OwnPostgres;
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await postgres?.stop('SIGINT').catch(() => undefined);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function startApp(name: string) {
    const dataDir = path.join(folder, name);
    fs.mkdirSync(dataDir);
    const env = { DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web'), DATABASE_URL: postgres.url, DEMO_DATA: '1', BID_RATE_LIMIT: '100000', LOG_LEVEL: 'warn', CA_KEY_PASSPHRASE: 'outage-test-passphrase' };
    const server = startServerProcess(env, await freePort());
    servers.push(server);
    return server;
  }

  it('both processes recover from a fast restart and a SIGKILL of the postmaster without losing or inventing a bid', async () => {
    postgres = new OwnPostgres(path.join(folder, 'pg'), await freePort());
    postgres.init();
    await postgres.start();
    const admin = new pg.Client({ connectionString: postgres.url.replace(/\/coalx$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE coalx');
    await admin.end();

    const a = await startApp('a');
    await waitForHealth(a.port, 120_000).catch((err) => {
      throw new Error(`${err}\n${a.output()}`);
    });
    const b = await startApp('b');
    await waitForHealth(b.port, 120_000).catch((err) => {
      throw new Error(`${err}\n${b.output()}`);
    });
    const urls = [a, b].map((server) => `http://127.0.0.1:${server.port}`);

    // bidding starts once every client has signed in on both processes (sign-in is deliberately slow: password hashing)
    const auction = await prepareStormAuction({ baseUrl: urls[0]!, bidWindowMs: 45_000, startInMs: 25_000 });
    const watcher = watch(b.port, auction.tradeId);
    const faults: string[] = [];
    const timeline = (async () => {
      // a fast restart with the database away for 3 s, well past the old one-second reconnect
      await sleepUntil(auction.bidStart + 8_000);
      await postgres.stop('SIGINT');
      faults.push(`restart at ${Date.now() - auction.bidStart} ms`);
      await new Promise((r) => setTimeout(r, 3_000));
      await postgres.start();
      await Promise.all([readyWithin(a.port, 30_000), readyWithin(b.port, 30_000)]);
      // the postmaster killed on the spot; crash recovery at the next start
      await sleepUntil(auction.bidStart + 22_000);
      await postgres.stop('SIGKILL');
      faults.push(`kill -9 at ${Date.now() - auction.bidStart} ms`);
      await new Promise((r) => setTimeout(r, 2_000));
      await postgres.start();
      const readyAfterMs = Math.max(await readyWithin(a.port, 30_000), await readyWithin(b.port, 30_000));
      faults.push(`both ready ${readyAfterMs} ms after the restart`);
      return Date.now();
    })().catch((err: Error) => {
      throw new Error(`${err.message}\n--- A (exit ${a.child.exitCode}) ---\n${a.output().slice(-3000)}\n--- B (exit ${b.child.exitCode}) ---\n${b.output().slice(-3000)}`);
    });
    const storm = await runBidStorm({ baseUrls: urls, tradeId: auction.tradeId, bidders: auction.bidders, clients: 50, until: auction.bidStart + 40_000 });
    const recoveredAt = await timeline;
    const summary = `${faults.join('; ')}\nacknowledged ${storm.acknowledged.length}, refused ${storm.refused.length}, 5xx ${storm.failed.length}, no answer ${storm.unanswered.length}\n${tallyAnswers([...storm.refused, ...storm.failed, ...storm.unanswered]).slice(0, 8).join('\n')}`;
    console.log(summary);

    expect(serverErrors(storm), summary).toEqual([]);
    const comparison = await compareWithDatabase(postgres.url, storm);
    expect(comparison.acknowledgedMissing, summary).toEqual([]);
    expect(comparison.refusedStored, summary).toEqual([]);
    expect(comparison.failedStored, summary).toEqual([]);
    expect(comparison.orderly).toBe(true);
    // bids went on through both processes after the last fault: neither stayed deaf or stale
    for (const url of urls) expect(storm.acknowledged.filter((bid) => bid.baseUrl === url && bid.sentAt > recoveredAt).length, url).toBeGreaterThan(0);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();

    // the auction ends once bidding stops; the watcher on the other process hears every bid and the end
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      let state = { hang_state: 0, bid_count: 0 };
      for (let i = 0; i < 120 && !(state.hang_state === 3 && watcher.seen.ended); i++) {
        await new Promise((r) => setTimeout(r, 500));
        state = (await db.query('SELECT hang_state, bid_count FROM auction WHERE trade_no = $1', [auction.tradeId])).rows[0];
      }
      expect(state.hang_state).toBe(3);
      expect(watcher.seen.ended).toBe(true);
      expect(watcher.seen.bidCount).toBe(state.bid_count);
      // every acknowledged bid has its audit row (written after the answer, retried through the outages)
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM sys_audit_log WHERE action = '出价' AND result = 'success' AND object_id = $1`, [auction.tradeId]);
      expect(rows[0].n).toBeGreaterThanOrEqual(storm.acknowledged.length);
      const awarded = await api(urls[1]!, `/api/bidRecord/snapshot?tradeId=${auction.tradeId}`, null);
      expect(awarded.body?.result?.result ?? null, '竞价结果').not.toBeNull();
    } finally {
      await db.end();
      watcher.socket.close();
    }
  }, 420_000);

  it('SIGTERM during bidding, the database killed a second later: the process exits within 10 s and no acknowledged bid is lost', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const urls = [a, b].map((server) => `http://127.0.0.1:${server.port}`);
    const auction = await prepareStormAuction({ baseUrl: urls[1]!, bidWindowMs: 60_000, startInMs: 25_000 });
    let exitMs = -1;
    const timeline = (async () => {
      await sleepUntil(auction.bidStart + 3_000);
      const signalled = Date.now();
      const exited = a.exited.then(() => (exitMs = Date.now() - signalled));
      a.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1_000));
      await postgres.stop('SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      await postgres.start();
    })();
    const storm = await runBidStorm({ baseUrls: urls, tradeId: auction.tradeId, bidders: auction.bidders, clients: 50, until: auction.bidStart + 20_000 });
    await timeline;
    const summary = `exit after ${exitMs} ms; acknowledged ${storm.acknowledged.length}, refused ${storm.refused.length}, 5xx ${storm.failed.length}, no answer ${storm.unanswered.length}\n${tallyAnswers([...storm.refused, ...storm.failed, ...storm.unanswered]).slice(0, 8).join('\n')}`;
    console.log(summary);
    expect(exitMs, summary).toBeGreaterThanOrEqual(0);
    expect(exitMs, summary).toBeLessThanOrEqual(10_000);
    expect(serverErrors(storm), summary).toEqual([]);
    const comparison = await compareWithDatabase(postgres.url, storm);
    expect(comparison.acknowledgedMissing, summary).toEqual([]);
    expect(comparison.refusedStored, summary).toEqual([]);
    expect(comparison.failedStored, summary).toEqual([]);
  }, 240_000);
});
