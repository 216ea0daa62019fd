import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { loadDemoData } from '../demo/index';
import { seedSystemData } from '../flows/seed-system-data';
import { openPglite, openPostgres } from '../lib/database';
import { ensureAreas } from '../modules/area/area.service';
import { chainAuditRows } from '../modules/audit/audit-chain';
import { verifyAuditTrail } from '../modules/audit/audit-verify';
import { DatabaseFileStorage, LocalFileStorage } from '../modules/files/storage';
import { loadPlatformCa } from '../modules/ukey/ca';
import { loginAs } from '../test/factories';
import { codeMigrations, copyFields, copyLine, DbMoveError, exportDatabase, importDatabase, inLoadOrder, readManifest, type MoveManifest } from './db-move';

/** Values COPY text must carry exactly: its own delimiters and escapes, quotes, Chinese, emoji, a literal "\N". */
const AWKWARD = `晋北煤业\t"引号" 'O''Reilly' \\N 反斜杠\\ 换行\n回车\r 退格\b换页\f纵表\v \u0001 \u2028 🚚 {a,b} NULL`;

/** Every table's row count and a checksum of its rows, by the server's own text of each row (`t::text`). */
async function tableChecksums(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>, tables: string[]) {
  await query(`SET TimeZone = 'UTC'`);
  const sums: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await query(`SELECT count(*)::text AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS sum FROM "${table}" t`);
    sums[table] = `${rows[0]!.n} ${rows[0]!.sum}`;
  }
  return sums;
}

describe('copy text', () => {
  it('writes and reads back every awkward value and NULL', () => {
    const row = [AWKWARD, null, '', '\\N', '\\x00ff', '\t'];
    const line = copyLine(row);
    expect(line).not.toMatch(/[\n\r]/);
    expect(line.split('\t')).toHaveLength(row.length);
    expect(copyFields(line)).toEqual(row);
  });

  it('writes a row as PostgreSQL\'s own COPY TO does, byte for byte', async () => {
    const pglite = new PGlite();
    try {
      const result = await pglite.query(`COPY (SELECT ${"'" + AWKWARD.replaceAll("'", "''") + "'"}::text, NULL::text, '\\x00ff'::bytea, '{"a": "\\t"}'::jsonb) TO '/dev/blob'`);
      expect(await result.blob!.text()).toBe(copyLine([AWKWARD, null, '\\x00ff', '{"a": "\\t"}']) + '\n');
    } finally {
      await pglite.close();
    }
  });

  it('orders tables so that every referenced one comes first, and names a cycle', () => {
    const order = inLoadOrder([
      { name: 'c', references: ['b', 'a'] },
      { name: 'b', references: ['a'] },
      { name: 'a', references: [] },
    ]).map((t) => t.name);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(() => inLoadOrder([{ name: 'x', references: ['y'] }, { name: 'y', references: ['x'] }])).toThrow(/x, y/);
  });
});

describe('moving an installation from PGlite to PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-move-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  const exportDir = path.join(dataDir, 'export');
  let manifest: MoveManifest;
  let tables: string[];
  let sourceSums: Record<string, string>;

  beforeAll(async () => {
    // an installation as `npm start` leaves it: system data, the demo market, its files and CA in DATA_DIR
    const database = await openPglite(pgliteDir);
    try {
      await database.migrate();
      await seedSystemData(database.db);
      await ensureAreas(database.db);
      const ca = await loadPlatformCa({ dataDir });
      expect(await loadDemoData(database.db, new LocalFileStorage(path.join(dataDir, 'files')), ca)).toBe(true);
      // a few more rows in an append-only table, awkward text included, chained like the scheduler chains them
      for (let i = 0; i < 3; i++) {
        await database.db.execute(sql`INSERT INTO sys_audit_log (action, method, route, result, status_code, object_id, changes)
          VALUES (${'迁移测试 ' + AWKWARD}, 'POST', '/move-test', 'success', 200, ${String(i)}, ${JSON.stringify({ note: AWKWARD, i })}::jsonb)`);
      }
      expect(await chainAuditRows(database.db)).toBeGreaterThanOrEqual(3);
      // file bytes as PostgreSQL keeps them (stored_file): every byte value, through COPY's hex bytea and back
      const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
      await new DatabaseFileStorage(database.db).put('move-test/every-byte.bin', bytes);
    } finally {
      await database.close();
    }
    const source = new PGlite(pgliteDir);
    try {
      const { rows } = await source.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY relname`);
      tables = rows.map((r) => r.name);
      sourceSums = await tableChecksums((text) => source.query(text), tables);
    } finally {
      await source.close();
    }
  }, 300_000);

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('exports every table as COPY text with its row count, checksum and the migration version', async () => {
    // a few rows a batch, so every table of more than four rows (composite and text keys too) is read in several
    manifest = await exportDatabase({ pgliteDir }, exportDir, { batchRows: 1 });
    expect(readManifest(exportDir)).toEqual(manifest);
    expect(manifest.source.kind).toBe('pglite');
    expect(manifest.migrations).toEqual(codeMigrations());
    expect(manifest.tables.map((t) => t.name).sort()).toEqual(tables);
    for (const table of manifest.tables) {
      const text = fs.readFileSync(path.join(exportDir, table.file), 'utf8');
      expect(text === '' ? 0 : text.split('\n').length - 1, table.name).toBe(table.rows);
      expect(`${table.rows}`, table.name).toBe(sourceSums[table.name]!.split(' ')[0]);
    }
    // the awkward rows are there, each on one line
    const auditFile = fs.readFileSync(path.join(exportDir, manifest.tables.find((t) => t.name === 'sys_audit_log')!.file), 'utf8');
    expect(auditFile.split('\n').filter((line) => line.includes('迁移测试'))).toHaveLength(3);
    // a referenced table is loaded before the tables pointing at it
    const position = (name: string) => manifest.tables.findIndex((t) => t.name === name);
    expect(position('enterprise')).toBeLessThan(position('fund_account'));
    expect(position('fund_account')).toBeLessThan(position('fund_journal'));
    const journal = manifest.sequences.find((s) => s.name === 'fund_journal_id_seq');
    expect(journal!.nextValue).toBeGreaterThan(1);
  }, 120_000);

  it('refuses to write into a folder that holds something', async () => {
    await expect(exportDatabase({ pgliteDir }, exportDir)).rejects.toThrow(/不是空的/);
    await expect(exportDatabase({ pgliteDir: path.join(dataDir, 'nothing-here') }, path.join(dataDir, 'never'))).rejects.toThrow(/找不到内置数据库/);
  });

  it('refuses an export of another migration version before touching the target', async () => {
    const older = path.join(dataDir, 'export-older');
    fs.cpSync(exportDir, older, { recursive: true });
    const changed = { ...manifest, migrations: manifest.migrations.slice(0, -1) };
    fs.writeFileSync(path.join(older, 'manifest.json'), JSON.stringify(changed));
    // a port nothing listens on: the refusal comes before any connection
    const nowhere = 'postgres://postgres@127.0.0.1:1/none';
    const refusal = importDatabase(nowhere, older);
    await expect(refusal).rejects.toThrow(DbMoveError);
    await expect(refusal).rejects.toThrow(/迁移版本/);
    fs.rmSync(path.join(older, 'manifest.json'));
    await expect(importDatabase(nowhere, older)).rejects.toThrow(/不是一份完整的导出/);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)('into a PostgreSQL database', () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `coalx_move_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const url = (() => {
      const u = new URL(adminUrl || 'postgres://localhost/x');
      u.pathname = `/${name}`;
      return u.toString();
    })();
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    let target: pg.Client;

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${name}`);
      target = new pg.Client({ connectionString: url });
      await target.connect();
    });
    afterAll(async () => {
      await target?.end();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it('loads every row: the same count and checksum in every table', async () => {
      const summary = await importDatabase(url, exportDir, { batchRows: 5 });
      expect(summary.tables).toBe(tables.length);
      expect(summary.rows).toBe(manifest.tables.reduce((sum, t) => sum + t.rows, 0));
      expect(await tableChecksums((text) => target.query(text), tables)).toEqual(sourceSums);
    }, 120_000);

    it('continues every sequence past its rows: an insert gets a new id', async () => {
      for (const sequence of manifest.sequences) {
        const { rows } = await target.query(`SELECT last_value::text AS last, is_called FROM "${sequence.name}"`);
        expect(Number(rows[0].last) + (rows[0].is_called ? 1 : 0), sequence.name).toBeGreaterThanOrEqual(sequence.nextValue);
      }
      const { rows: before } = await target.query(`SELECT max(id)::text AS max FROM sys_audit_log`);
      const { rows } = await target.query(`INSERT INTO sys_audit_log (action, method, route, result, status_code) VALUES ('导入后', 'POST', '/after', 'success', 200) RETURNING id::text`);
      expect(Number(rows[0].id)).toBeGreaterThan(Number(before[0].max));
    });

    it('keeps the append-only tables append-only, and the audit chain verifies', async () => {
      await expect(target.query(`UPDATE fund_journal SET remark = 'changed' WHERE id = (SELECT min(id) FROM fund_journal)`)).rejects.toThrow(/append-only/);
      await expect(target.query(`DELETE FROM fund_journal WHERE id = (SELECT min(id) FROM fund_journal)`)).rejects.toThrow(/append-only/);
      await expect(target.query(`UPDATE sys_audit_log SET action = 'changed' WHERE object_id = '1' AND route = '/move-test'`)).rejects.toThrow(/append-only/);
      await expect(target.query(`TRUNCATE sys_audit_log`)).rejects.toThrow(/append-only/);
      const database = await openPostgres(url, 2);
      try {
        const verification = await verifyAuditTrail(database.db);
        expect(verification.firstProblem).toBeNull();
        expect(verification.ok).toBe(true);
      } finally {
        await database.close();
      }
    });

    it('serves the moved installation: buyer01 signs in and lists its contracts; the CA of DATA_DIR/ca moves into the database', async () => {
      const database = await openPostgres(url, 4);
      const config = {
        ...loadConfig({}),
        dataDir,
        databaseUrl: url,
        caKeyPassphrase: 'db-move-test-passphrase',
        demoData: false,
        schedulerIntervalMs: 0,
        deliveryIntervalMs: 0,
        publicCacheMs: 0,
        webDist: path.join(dataDir, 'no-web'),
      };
      const app = await buildApp({ config, database });
      try {
        await app.ready();
        const token = await loginAs(app, 'buyer01', 'Trader#2026');
        const response = await app.inject({ method: 'GET', url: '/trade-api/api/contract/list?pageNo=1&pageSize=50', headers: { 'x-access-token': token } });
        expect(response.statusCode, response.body).toBe(200);
        const page = response.json().result as { total: number; records: { contractNo: string }[] };
        expect(page.total).toBeGreaterThan(0);
        expect(page.records[0]!.contractNo).toMatch(/^HT/);
        // the certificates issued before the move still chain: the database now holds the CA DATA_DIR/ca had
        const ca = await app.inject({ method: 'GET', url: '/trade-api/ukey/ca.crt' });
        expect(ca.body).toBe(fs.readFileSync(path.join(dataDir, 'ca', 'ca-cert.pem'), 'utf8'));
        const { rows } = await database.db.execute(sql`SELECT name FROM platform_secret ORDER BY name`) as unknown as { rows: { name: string }[] };
        // (the gate-pass key signs the weighbridge's QR passes: made with the first dispatch note or the first server start)
        expect(rows.map((r) => r.name)).toEqual(['file-link-key', 'gate-pass-key', 'platform-ca']);
        // a contract PDF still in DATA_DIR/files is served (main.ts copies the folder into the database at start)
        const pdf = await app.inject({ method: 'GET', url: `/trade-api/api/contract/${(page.records[0] as unknown as { id: number }).id}/pdf`, headers: { 'x-access-token': token } });
        expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
        expect(pdf.body.startsWith('%PDF')).toBe(true);
      } finally {
        await app.close();
        await database.close();
      }
    }, 60_000);

    it('exports a PostgreSQL database too: moved on to a second one, every table is the same', async () => {
      const secondName = `${name}_b`;
      const secondUrl = url.replace(`/${name}`, `/${secondName}`);
      const again = path.join(dataDir, 'export-from-postgres');
      await admin(`CREATE DATABASE ${secondName}`);
      const second = new pg.Client({ connectionString: secondUrl });
      try {
        const exported = await exportDatabase({ url }, again, { batchRows: 3 });
        expect(exported.source.kind).toBe('postgres');
        await importDatabase(secondUrl, again);
        await second.connect();
        expect(await tableChecksums((text) => second.query(text), tables)).toEqual(await tableChecksums((text) => target.query(text), tables));
      } finally {
        await second.end().catch(() => undefined);
        await admin(`DROP DATABASE IF EXISTS ${secondName} WITH (FORCE)`);
      }
    }, 120_000);

    it('refuses a database that already holds rows, and leaves it as it was', async () => {
      const { rows: before } = await target.query(`SELECT count(*)::int AS n FROM enterprise`);
      const refusal = importDatabase(url, exportDir);
      await expect(refusal).rejects.toThrow(DbMoveError);
      await expect(refusal).rejects.toThrow(/目标数据库不是空的/);
      const { rows: after } = await target.query(`SELECT count(*)::int AS n FROM enterprise`);
      expect(after[0].n).toBe(before[0].n);
    });
  });
});
