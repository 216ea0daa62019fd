import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresWith } from './client';

/**
 * A failover or a killed postmaster drops every connection, also those a request holds between two queries (an
 * open transaction, the start-up lock). node-postgres emits that as an 'error' event on the client, which, with no
 * listener, is thrown from the socket's callback and ends the process. Needs TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a PostgreSQL connection dropped while checked out of the pool', () => {
  it('does not crash the process, and the pool goes on with a new connection', async () => {
    const database = await openPostgresWith((db) => db, url!, 2);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await database.pool!.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((r) => setTimeout(r, 500));
      expect(uncaught).toEqual([]);
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(true);
      expect((await database.pool!.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      await database.close();
    }
  });
});
