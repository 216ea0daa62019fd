import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../demo/index';
import { seedSystemData } from '../flows/seed-system-data';
import { ensureAreas } from '../modules/area/area.service';
import { LocalFileStorage } from '../modules/files/storage';
import { loadPlatformCa } from '../modules/ukey/ca';
import type { Database } from '../db/client';
import { openPglite, openPostgres } from './database';
import { BackupError, backup, restore } from './backup';

/** An installation as `npm start` leaves it: system data, the demo market, its files and CA in DATA_DIR. */
async function makeInstallation(database: Database, dataDir: string) {
  try {
    await database.migrate();
    await seedSystemData(database.db);
    await ensureAreas(database.db);
    const ca = await loadPlatformCa({ dataDir });
    expect(await loadDemoData(database.db, new LocalFileStorage(path.join(dataDir, 'files')), ca)).toBe(true);
  } finally {
    await database.close();
  }
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every public table's row count and a checksum of its rows (the server's own text of each row). */
async function tableSums(query: Query) {
  await query(`SET TimeZone = 'UTC'`);
  const { rows: tables } = await query(`SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY relname`);
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await query(`SELECT count(*)::text AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS sum FROM "${name}" t`);
    sums[name as string] = `${rows[0]!.n} ${rows[0]!.sum}`;
  }
  return sums;
}

async function pgliteSums(pgliteDir: string) {
  const client = new PGlite(pgliteDir);
  try {
    return await tableSums((text) => client.query(text));
  } finally {
    await client.close();
  }
}

async function postgresSums(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await tableSums((text) => client.query(text));
  } finally {
    await client.end();
  }
}

/** SHA-256 of every file under DATA_DIR's files/, ca/ and secrets/, by relative path. */
function fileHashes(dataDir: string) {
  const hashes: Record<string, string> = {};
  for (const part of ['files', 'ca', 'secrets']) {
    const root = path.join(dataDir, part);
    if (!fs.existsSync(root)) continue;
    for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(root, entry);
      if (fs.statSync(file).isFile()) hashes[`${part}/${entry}`] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    }
  }
  return hashes;
}

const rowsIn = (sums: Record<string, string>) => Object.values(sums).reduce((n, s) => n + Number(s.split(' ')[0]), 0);

describe('backup and restore of an embedded (PGlite) installation', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-backup-'));
  const dataDir = path.join(root, 'data');
  const archive = path.join(root, 'backups', 'coalx.tar.gz');
  const restoredDir = path.join(root, 'restored');
  let sums: Record<string, string>;
  let files: Record<string, string>;

  beforeAll(async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    await makeInstallation(await openPglite(path.join(dataDir, 'pglite')), dataDir);
    sums = await pgliteSums(path.join(dataDir, 'pglite'));
    files = fileHashes(dataDir);
  }, 300_000);

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses while a server holds DATA_DIR', async () => {
    const server = spawn('sleep', ['60']); // a live process owning the lock, as a running server does
    try {
      fs.writeFileSync(path.join(dataDir, 'coalx.lock'), String(server.pid));
      const refusal = backup({ dataDir, databaseUrl: null }, archive);
      await expect(refusal).rejects.toThrow(BackupError);
      await expect(refusal).rejects.toThrow(/请先停止服务器/);
      expect(fs.existsSync(archive)).toBe(false);
    } finally {
      server.kill();
      fs.rmSync(path.join(dataDir, 'coalx.lock'), { force: true });
    }
  });

  it('writes one archive with the database, the files, the CA and the secrets', async () => {
    const manifest = await backup({ dataDir, databaseUrl: null }, archive);
    expect(manifest.kind).toBe('pglite');
    expect(manifest.parts).toEqual(expect.arrayContaining(['files', 'ca']));
    expect(Object.keys(files).some((f) => f.startsWith('files/'))).toBe(true);
    expect(Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]))).toEqual(Object.fromEntries(Object.entries(sums).map(([name, s]) => [name, Number(s.split(' ')[0])])));
    expect(rowsIn(sums)).toBeGreaterThan(1000);
    // the lock is given back: the server can start again
    expect(fs.existsSync(path.join(dataDir, 'coalx.lock'))).toBe(false);
    await expect(backup({ dataDir, databaseUrl: null }, archive)).rejects.toThrow(/已存在/);
  }, 120_000);

  it('restores into a fresh DATA_DIR: every row and every file as they were', async () => {
    await restore({ dataDir: restoredDir, databaseUrl: null }, archive);
    expect(await pgliteSums(path.join(restoredDir, 'pglite'))).toEqual(sums);
    expect(fileHashes(restoredDir)).toEqual(files);
    // the restored database opens as the server opens it, already migrated
    const database = await openPglite(path.join(restoredDir, 'pglite'));
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses to restore over data without --force, and keeps what --force replaces', async () => {
    await expect(restore({ dataDir: restoredDir, databaseUrl: null }, archive)).rejects.toThrow(/--force/);
    fs.writeFileSync(path.join(restoredDir, 'files', 'written-after.txt'), '恢复前写入');
    const { movedAside } = await restore({ dataDir: restoredDir, databaseUrl: null }, archive, { force: true });
    expect(movedAside).not.toBeNull();
    expect(fs.readFileSync(path.join(movedAside!, 'files', 'written-after.txt'), 'utf8')).toBe('恢复前写入');
    expect(fs.existsSync(path.join(movedAside!, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(fileHashes(restoredDir)).toEqual(files);
    expect(await pgliteSums(path.join(restoredDir, 'pglite'))).toEqual(sums);
  }, 120_000);

  it('refuses a backup of the other kind before connecting anywhere', async () => {
    // a port nothing listens on: the refusal comes first
    await expect(restore({ dataDir: path.join(root, 'other'), databaseUrl: 'postgres://postgres@127.0.0.1:1/none' }, archive)).rejects.toThrow(/PGlite/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('backup and restore on a PostgreSQL server', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-backup-pg-'));
  const suffix = `${Date.now()}_${randomBytes(3).toString('hex')}`;
  const names = { source: `coalx_backup_src_${suffix}`, target: `coalx_backup_dst_${suffix}` };
  const urlOf = (name: string) => {
    const u = new URL(adminUrl || 'postgres://localhost/x');
    u.pathname = `/${name}`;
    return u.toString();
  };
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  const dataDir = path.join(root, 'data');
  const restoredDir = path.join(root, 'restored');
  const archive = path.join(root, 'pg.tar.gz');
  let sums: Record<string, string>;
  let files: Record<string, string>;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${names.source}`);
    await admin(`CREATE DATABASE ${names.target}`);
    await makeInstallation(await openPostgres(urlOf(names.source)), dataDir);
    sums = await postgresSums(urlOf(names.source));
    files = fileHashes(dataDir);
  }, 300_000);

  afterAll(async () => {
    for (const name of Object.values(names)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('backs up with pg_dump while a server is connected, and restores into an empty database', async () => {
    const running = new pg.Client({ connectionString: urlOf(names.source) }); // a server still connected
    await running.connect();
    try {
      const manifest = await backup({ dataDir, databaseUrl: urlOf(names.source) }, archive);
      expect(manifest.kind).toBe('postgres');
      expect(manifest.migrations.length).toBeGreaterThan(0);
    } finally {
      await running.end();
    }
    await restore({ dataDir: restoredDir, databaseUrl: urlOf(names.target) }, archive);
    expect(await postgresSums(urlOf(names.target))).toEqual(sums);
    expect(rowsIn(sums)).toBeGreaterThan(1000);
    expect(fileHashes(restoredDir)).toEqual(files);
    // the restored database is the migrations' own: migrating again changes nothing
    const database = await openPostgres(urlOf(names.target));
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  }, 300_000);

  it('refuses a database with rows or with servers connected; --force replaces it', async () => {
    await expect(restore({ dataDir: restoredDir, databaseUrl: urlOf(names.target) }, archive)).rejects.toThrow(/--force/);
    const running = new pg.Client({ connectionString: urlOf(names.target) });
    await running.connect();
    try {
      await expect(restore({ dataDir: restoredDir, databaseUrl: urlOf(names.target) }, archive, { force: true })).rejects.toThrow(/请先停止/);
    } finally {
      await running.end();
    }
    // a change made after the restore, which --force must undo
    const client = new pg.Client({ connectionString: urlOf(names.target) });
    await client.connect();
    await client.query('DELETE FROM banner');
    await client.end();
    expect(await postgresSums(urlOf(names.target))).not.toEqual(sums);
    const { movedAside } = await restore({ dataDir: restoredDir, databaseUrl: urlOf(names.target) }, archive, { force: true });
    expect(movedAside).not.toBeNull();
    expect(await postgresSums(urlOf(names.target))).toEqual(sums);
  }, 300_000);
});
