import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '../test/test-app';
import { queryPrepared, type Database } from './client';

const ECHO = { name: 'coalx_test_echo_v1', text: `SELECT $1::bigint + 1 AS next, $2::text AS text, $3::json ->> 'k' AS k, $4::timestamptz AS at, $5::text IS NULL AS empty` };

describe.each(testDatabaseKinds())('queryPrepared on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  it('runs one statement many times with its values, quotes, backslashes and Chinese kept exactly', async () => {
    const awkward = `O'Reilly \\ 晋北煤业 '' ; DROP TABLE enterprise; --`;
    for (let i = 0; i < 3; i++) {
      const [row] = await queryPrepared<{ next: string | number; text: string; k: string; at: Date | string; empty: boolean }>(database.db, ECHO, [
        41 + i,
        awkward,
        JSON.stringify({ k: `it's ${i}` }),
        '2026-11-24T08:00:00.000Z',
        null,
      ]);
      expect(Number(row!.next)).toBe(42 + i);
      expect(row!.text).toBe(awkward);
      expect(row!.k).toBe(`it's ${i}`);
      expect(new Date(row!.at).toISOString()).toBe('2026-11-24T08:00:00.000Z');
      expect(row!.empty).toBe(true);
    }
    // the enterprise table is still there
    await database.db.execute(sql`SELECT count(*) FROM enterprise`);
  });

  it('runs inside a transaction on its connection, and is rolled back with it', async () => {
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS prepared_probe (n int)`);
    const insert = { name: 'coalx_test_probe_v1', text: 'INSERT INTO prepared_probe (n) VALUES ($1) RETURNING n' };
    await expect(
      database.db.transaction(async (tx) => {
        await queryPrepared(tx, insert, [7]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await queryPrepared(database.db, insert, [8]);
    const rows = await database.db.execute(sql`SELECT n FROM prepared_probe ORDER BY n`);
    expect((rows as unknown as { rows: { n: number }[] }).rows.map((r) => r.n)).toEqual([8]);
  });

  it('refuses a value it cannot write rather than guess', async () => {
    await expect(queryPrepared(database.db, ECHO, [Number.NaN, 'x', '{}', '2026-11-24T08:00:00Z', null])).rejects.toThrow();
  });
});
