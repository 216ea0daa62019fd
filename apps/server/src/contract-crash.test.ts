import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, waitForHealth, scratchDatabase, type ServerProcess } from './test/server-process';

/**
 * A server SIGKILLed between a deal's commit and its contract: the contract table is locked from outside so the
 * contract's insert waits, the deal is committed, the process is killed right there; the next start finds the
 * deal without its contract and makes it. Needs TEST_DATABASE_URL (skipped without it).
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('a server killed between a deal and its contract', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-contract-crash-'));
  let server: ServerProcess | null = null;
  let databaseUrl = '';
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  });

  const start = async () => {
    const env = { DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web'), DATABASE_URL: databaseUrl, DEMO_DATA: '1', CA_KEY_PASSPHRASE: 'contract-crash-passphrase' };
    const started = startServerProcess(env, await freePort());
    await waitForHealth(started.port, 120_000).catch((err) => {
      throw new Error(`${err}\n${started.output()}`);
    });
    return started;
  };

  it('finds the deal without its contract at the next start and makes exactly one', async () => {
    scratch = await scratchDatabase(adminUrl!, 'coalx_contract_crash');
    databaseUrl = scratch.url;

    server = await start();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // a subscription of buyer02 waiting for seller01 (demo data)
      const { rows } = await db.query(
        `SELECT s.id FROM listing_subscription s JOIN listing l ON l.id = s.listing_id JOIN sys_user u ON u.enterprise_id = l.enterprise_id
         WHERE u.username = 'seller01' AND s.status = 'pending' ORDER BY s.id LIMIT 1`,
      );
      const subscriptionId = rows[0]!.id as string;
      const login = await fetch(`http://127.0.0.1:${server.port}/trade-api/sys/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'seller01', password: 'Trader#2026' }),
      });
      const token = ((await login.json()) as { result: { token: string } }).result.token;

      // the contract's insert will wait on this lock: reads of the table still pass
      const locker = new pg.Client({ connectionString: databaseUrl });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE contract IN SHARE ROW EXCLUSIVE MODE');
      const confirming = fetch(`http://127.0.0.1:${server.port}/trade-api/api/listedRecord/answerOrdersDeal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': token },
        body: JSON.stringify({ id: Number(subscriptionId), action: 'confirm' }),
      }).catch(() => null);
      let dealId: string | null = null;
      for (let i = 0; i < 100 && !dealId; i++) {
        const found = await db.query(`SELECT id FROM deal WHERE trade_kind = 'listing' AND source_id = $1`, [subscriptionId]);
        dealId = (found.rows[0]?.id as string | undefined) ?? null;
        if (!dealId) await new Promise((r) => setTimeout(r, 100));
      }
      expect(dealId).not.toBeNull();
      // the maker renders the PDF, then its insert queues behind the lock: kill the process there
      const waiting = async () =>
        (await db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'contract'::regclass AND NOT granted`)).rows[0].n as number;
      for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await waiting()).toBeGreaterThan(0);
      server.child.kill('SIGKILL');
      await server.exited;
      await confirming;
      await locker.query('ROLLBACK');
      await locker.end();
      const before = await db.query(`SELECT count(*)::int AS n FROM contract WHERE deal_id = $1`, [dealId]);
      expect(before.rows[0].n).toBe(0);

      server = await start();
      let made = 0;
      for (let i = 0; i < 300 && made === 0; i++) {
        made = (await db.query(`SELECT count(*)::int AS n FROM contract WHERE deal_id = $1`, [dealId])).rows[0].n as number;
        if (made === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(made).toBe(1);
      const [{ contract_no, deal_no }] = (await db.query(`SELECT c.contract_no, d.deal_no FROM contract c JOIN deal d ON d.id = c.deal_id WHERE d.id = $1`, [dealId])).rows;
      expect(contract_no).toBe(`HT${String(deal_no).slice(2)}`);
    } finally {
      await db.end();
    }
  }, 300_000);
});
