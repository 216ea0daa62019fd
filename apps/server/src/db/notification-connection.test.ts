import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvisoryLease, NotificationConnection } from './notification-connection';

/**
 * The LISTEN connection and the advisory lease after the server drops their connections (what a restart or a
 * failover does to them): pg_terminate_backend ends them, as PostgreSQL's shutdown would. Needs TEST_DATABASE_URL.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const until = async (condition: () => boolean | Promise<boolean>, ms = 15_000) => {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe.skipIf(!adminUrl)('connections that outlive their backend', () => {
  let admin: pg.Client;
  const name = `coalx_app_${randomBytes(4).toString('hex')}`;
  const url = () => {
    const u = new URL(adminUrl!);
    u.searchParams.set('application_name', name);
    return u.toString();
  };
  const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);
  const backends = async (query: string) =>
    (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE $2`, [name, query])).rows.map((r) => r.pid);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
  });
  afterAll(async () => admin?.end());

  it('listens again after its backend is terminated, says how long it was deaf, and hears what is sent next', async () => {
    const warnings: string[] = [];
    const connection = new NotificationConnection({ connectionString: url() }, (message) => warnings.push(message));
    const heard: string[] = [];
    const gaps: number[] = [];
    connection.onRestored((gap) => gaps.push(gap));
    await connection.listen('coalx_reconnect_test', (payload) => heard.push(payload));
    try {
      await admin.query(`SELECT pg_notify('coalx_reconnect_test', 'before')`);
      await until(() => heard.includes('before'));
      const [pid] = await backends('LISTEN%');
      expect(pid).toBeDefined();
      await terminate(pid!);
      await until(() => !connection.health().listening);
      expect(connection.health().downSince).not.toBeNull();
      // retried until it is back, then every channel is listened to again
      await until(() => gaps.length === 1);
      expect(connection.health()).toEqual({ listening: true, downSince: null });
      await admin.query(`SELECT pg_notify('coalx_reconnect_test', 'after')`);
      await until(() => heard.includes('after'));
      // twice more: it does not give up after one reconnection
      for (let round = 0; round < 2; round++) {
        const [again] = await backends('%');
        await terminate(again!);
        await until(() => gaps.length === round + 2);
      }
      await admin.query(`SELECT pg_notify('coalx_reconnect_test', 'third')`);
      await until(() => heard.includes('third'));
      expect(warnings.some((w) => w.includes('断开'))).toBe(true);
      expect(warnings.some((w) => w.includes('已恢复'))).toBe(true);
    } finally {
      await connection.stop();
    }
  });

  it('an advisory lease lost with its connection is taken again (by whoever asks first)', async () => {
    const lockId = 7_300_000 + Math.floor(Math.random() * 1000);
    const first = new AdvisoryLease({ connectionString: url() }, lockId, () => undefined);
    const second = new AdvisoryLease({ connectionString: url() }, lockId, () => undefined);
    try {
      expect(await first.start(200)).toBe(true);
      expect(await second.start(200)).toBe(false);
      const holder = (await admin.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`, [lockId])).rows[0]!.pid;
      await terminate(holder);
      // the holder notices it lost the lock, then exactly one of the two holds it again
      await until(() => !first.held());
      await until(() => first.held() || second.held());
      expect(first.held() && second.held()).toBe(false);
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`, [lockId]);
      expect(rows[0].n).toBe(1);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
