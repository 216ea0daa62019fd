import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { codeMigrations } from '../db/db-move';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

/**
 * `npm run backup` / `npm run restore` (README "Deployment"): one .tar.gz holding the database and the DATA_DIR
 * folders the database does not hold (files/, ca/, secrets/).
 *
 * - PostgreSQL (DATABASE_URL): `pg_dump -Fc` of one exported snapshot, so a running platform is backed up
 *   consistently, and the manifest's row counts are of that same snapshot; restored with `pg_restore --clean`.
 * - PGlite: its own `dumpDataDir()` tarball, restored by `new PGlite({ loadDataDir })`. PGlite is one process per
 *   folder, so both take DATA_DIR's lock and refuse while a server runs on it.
 *
 * Moving between the two kinds is db:export / db:import's job (db/db-move.ts), not this one's.
 */

export const BACKUP_FORMAT = 'coalx-backup';
export const BACKUP_FORMAT_VERSION = 1;
const MANIFEST = 'coalx-backup.json';
const PG_ARCHIVE = 'database.pgdump';
const PGLITE_ARCHIVE = 'pglite.tar';

/** What DATA_DIR holds beside the database; a backup carries whichever exist. */
export const DATA_DIR_PARTS = ['files', 'ca', 'secrets'] as const;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: typeof BACKUP_FORMAT_VERSION;
  createdAt: string;
  kind: 'pglite' | 'postgres';
  /** The migration tags applied to the backed-up database, in order. */
  migrations: string[];
  /** Every table of the public schema and its row count, at the moment of the backup. */
  tables: { name: string; rows: number }[];
  /** Which of DATA_DIR_PARTS the archive holds. */
  parts: string[];
}

/** A refusal the operator can act on: printed without a stack. */
export class BackupError extends Error {}

export interface BackupTarget {
  dataDir: string;
  /** A PostgreSQL server's database; null: the embedded PGlite in DATA_DIR/pglite. */
  databaseUrl: string | null;
  log?: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers: external commands, row counts

/** Runs a command, rejecting with its stderr's last lines when it fails or cannot start. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, okCodes: number[] = [0]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', (err) => {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      reject(new BackupError(missing ? `找不到命令 ${command}: 请安装它 (PostgreSQL 客户端工具 15 或更新, 或 tar)` : `${command}: ${err.message}`));
    });
    child.on('close', (code) => {
      if (code !== null && okCodes.includes(code)) resolve();
      else reject(new BackupError(`${command} 失败 (退出码 ${code}):\n${stderr.trim()}`));
    });
  });
}

/** The URL without its password, and the password in PGPASSWORD: a password on a command line shows in `ps`. */
function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

type Query = <T>(text: string) => Promise<T[]>;

/** Every table of the public schema with its row count (a partitioned table counts its partitions' rows once). */
async function countRows(query: Query): Promise<{ name: string; rows: number }[]> {
  const tables = await query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname COLLATE "C"`);
  if (!tables.length) return [];
  const counts = await query<{ name: string; rows: string }>(
    tables.map((t) => `SELECT '${t.name.replaceAll("'", "''")}' AS name, count(*)::text AS rows FROM "${t.name.replaceAll('"', '""')}"`).join(' UNION ALL '),
  );
  const byName = new Map(counts.map((c) => [c.name, Number(c.rows)]));
  return tables.map((t) => ({ name: t.name, rows: byName.get(t.name) ?? 0 }));
}

/** The migration tags a database has applied (drizzle's record, by each migration's time), oldest first. */
async function appliedMigrationTags(query: Query): Promise<string[]> {
  const [present] = await query<{ present: boolean }>(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!present?.present) return [];
  const rows = await query<{ created_at: string }>(`SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`);
  const known = codeMigrations();
  return rows.map((r) => known.find((m) => String(m.createdAt) === r.created_at)?.tag ?? `unknown-${r.created_at}`);
}

function pgliteQuery(client: PGlite): Query {
  return async <T>(text: string) => (await client.query<T>(text)).rows;
}

function pgQuery(client: pg.Client): Query {
  return async <T>(text: string) => (await client.query(text)).rows as T[];
}

function takeLock(dataDir: string, what: string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new BackupError(`${err.message}\n${what}时服务器不能在这个 DATA_DIR 上运行: 请先停止服务器。`);
    throw err;
  }
}

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** A folder beside `near` (same file system, so its contents can be renamed into place), removed by the caller. */
function workFolder(near: string, prefix: string): string {
  fs.mkdirSync(near, { recursive: true });
  return fs.mkdtempSync(path.join(near, prefix));
}

function nonEmpty(folder: string): boolean {
  return fs.existsSync(folder) && fs.readdirSync(folder).length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Backup

/** Writes one .tar.gz to `archive` (refused if it exists); returns its manifest. */
export async function backup(target: BackupTarget, archive: string): Promise<BackupManifest> {
  const log = target.log ?? (() => {});
  const dataDir = path.resolve(target.dataDir);
  const out = path.resolve(archive);
  if (fs.existsSync(out)) throw new BackupError(`${out} 已存在: 请换一个文件名`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // the server writes to DATA_DIR/pglite only; on PostgreSQL a running platform is backed up from a snapshot
  const unlock = target.databaseUrl ? () => {} : takeLock(dataDir, '备份内置数据库');
  const work = workFolder(path.dirname(out), '.coalx-backup-');
  const partial = `${out}.partial`;
  try {
    const database = target.databaseUrl ? await dumpPostgres(target.databaseUrl, work, log) : await dumpPglite(dataDir, work, log);
    const parts = DATA_DIR_PARTS.filter((part) => nonEmpty(path.join(dataDir, part)));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      kind: target.databaseUrl ? 'postgres' : 'pglite',
      ...database,
      parts,
    };
    fs.writeFileSync(path.join(work, MANIFEST), JSON.stringify(manifest, null, 2));
    const args = ['-czf', partial, '-C', work, MANIFEST, target.databaseUrl ? PG_ARCHIVE : PGLITE_ARCHIVE];
    if (parts.length) args.push('-C', dataDir, ...parts);
    log(`打包 ${parts.length ? `数据库与 ${parts.join('/, ')}/` : '数据库'} → ${out}`);
    // GNU tar's 1: a file changed while it was read (a running node wrote it); the archive is whole
    await run('tar', args, process.env, [0, 1]);
    fs.renameSync(partial, out); // a failed backup leaves no file that looks complete
    return manifest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
    unlock();
  }
}

async function dumpPostgres(url: string, work: string, log: (line: string) => void) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // pg_dump reads the snapshot this transaction exported, so the counts below are of exactly what it dumps
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [{ snapshot }] = (await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot')).rows as [{ snapshot: string }];
    const tables = await countRows(pgQuery(client));
    const migrations = await appliedMigrationTags(pgQuery(client));
    const { dbname, env } = pgConnection(url);
    log('pg_dump -Fc …');
    await run('pg_dump', ['-Fc', `--snapshot=${snapshot}`, '--no-owner', '-f', path.join(work, PG_ARCHIVE), `--dbname=${dbname}`], env);
    await client.query('COMMIT');
    return { tables, migrations };
  } finally {
    await client.end();
  }
}

async function dumpPglite(dataDir: string, work: string, log: (line: string) => void) {
  const pgliteDir = path.join(dataDir, 'pglite');
  // PGlite would make a new, empty database in a folder that holds none
  if (!fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new BackupError(`找不到内置数据库 ${pgliteDir} (DATA_DIR 是否正确?)`);
  const client = new PGlite(pgliteDir);
  try {
    await client.waitReady;
    const tables = await countRows(pgliteQuery(client));
    const migrations = await appliedMigrationTags(pgliteQuery(client));
    log('PGlite dumpDataDir …');
    const dump = await client.dumpDataDir('none');
    fs.writeFileSync(path.join(work, PGLITE_ARCHIVE), Buffer.from(await dump.arrayBuffer()));
    return { tables, migrations };
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Restore

export interface RestoreOptions {
  /** Replace a database that has rows, and DATA_DIR folders that have files (moved aside, not deleted). */
  force?: boolean;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the replaced DATA_DIR folders were moved (--force), or null. */
  movedAside: string | null;
}

/** Restores `archive` into the target: checks first, then loads, then compares every table's row count. */
export async function restore(target: BackupTarget, archive: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const log = target.log ?? (() => {});
  const dataDir = path.resolve(target.dataDir);
  const source = path.resolve(archive);
  if (!fs.existsSync(source)) throw new BackupError(`找不到备份文件 ${source}`);
  // every restore writes DATA_DIR's folders: never under a running server
  const unlock = takeLock(dataDir, '恢复');
  const work = workFolder(dataDir, '.restore-');
  try {
    await run('tar', ['-xzf', source, '-C', work, '--no-same-owner']);
    const manifest = readManifest(work);
    const kind = target.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.kind !== kind) {
      throw new BackupError(
        manifest.kind === 'pglite'
          ? '这是内置数据库 (PGlite) 的备份, 不能恢复到 PostgreSQL 服务器: 请去掉 DATABASE_URL 恢复, 再用 npm run db:export / db:import 迁移'
          : '这是 PostgreSQL 服务器的备份: 请用 DATABASE_URL 指定要恢复到的数据库',
      );
    }
    const known = new Set(codeMigrations().map((m) => m.tag));
    const newer = manifest.migrations.filter((tag) => !known.has(tag));
    if (newer.length) throw new BackupError(`备份来自更新的 CoalX 版本 (迁移 ${newer.join(', ')} 本版本没有): 请用同一版本或更新的版本恢复`);

    const occupied = DATA_DIR_PARTS.filter((part) => nonEmpty(path.join(dataDir, part)));
    const dbHasData = target.databaseUrl ? await postgresHasRows(target.databaseUrl) : fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));
    if ((dbHasData || occupied.length) && !options.force) {
      const what = [dbHasData ? (target.databaseUrl ? '目标数据库中已有数据' : `${dataDir}/pglite 中已有数据库`) : null, occupied.length ? `${dataDir} 中已有 ${occupied.join('/, ')}/` : null];
      throw new BackupError(`${what.filter(Boolean).join('; ')}: 恢复会覆盖它们。确认要覆盖请加 --force (原有的目录会移到 DATA_DIR 下的 before-restore-… 中)`);
    }

    // what is replaced is kept: the DATA_DIR folders are moved aside, never deleted
    const aside = path.join(dataDir, `before-restore-${stamp()}`);
    const moveAside = (part: string) => {
      const from = path.join(dataDir, part);
      if (!fs.existsSync(from)) return;
      fs.mkdirSync(aside, { recursive: true });
      fs.renameSync(from, path.join(aside, part));
    };
    const putBack = (part: string) => {
      fs.rmSync(path.join(dataDir, part), { recursive: true, force: true });
      if (fs.existsSync(path.join(aside, part))) fs.renameSync(path.join(aside, part), path.join(dataDir, part));
    };

    // the database first: a load that fails leaves the DATA_DIR folders where they were
    const restored = target.databaseUrl ? await loadPostgres(target.databaseUrl, work, log) : await loadPglite(dataDir, work, moveAside, putBack, log);
    for (const part of DATA_DIR_PARTS) moveAside(part);
    for (const part of manifest.parts) fs.renameSync(path.join(work, part), path.join(dataDir, part));

    const expected = new Map(manifest.tables.map((t) => [t.name, t.rows]));
    const differ = restored.filter((t) => expected.get(t.name) !== t.rows).map((t) => `${t.name} ${t.rows} ≠ ${expected.get(t.name) ?? '无'}`);
    const missing = manifest.tables.filter((t) => !restored.some((r) => r.name === t.name)).map((t) => t.name);
    if (differ.length || missing.length) throw new BackupError(`恢复后的行数与备份不符: ${[...differ, ...missing.map((m) => `缺少 ${m}`)].join('; ')}`);
    log(`已恢复 ${restored.length} 张表 ${restored.reduce((sum, t) => sum + t.rows, 0).toLocaleString('en-US')} 行, 与备份一致`);
    return { manifest, movedAside: fs.existsSync(aside) ? aside : null };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    unlock();
  }
}

function readManifest(work: string): BackupManifest {
  const file = path.join(work, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError('这不是 CoalX 备份文件 (缺少 coalx-backup.json)');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION) throw new BackupError(`不认识的备份格式 ${manifest.format} ${manifest.formatVersion}`);
  return manifest;
}

async function postgresHasRows(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // pg_restore --clean drops every table: it would wait on, then break, the servers still connected
    const others = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    if (Number(others.rows[0]!.n) > 0) throw new BackupError(`目标数据库还有 ${others.rows[0]!.n} 个连接: 请先停止连接它的所有服务器`);
    return (await countRows(pgQuery(client))).some((t) => t.rows > 0);
  } finally {
    await client.end();
  }
}

async function loadPostgres(url: string, work: string, log: (line: string) => void) {
  const { dbname, env } = pgConnection(url);
  log('pg_restore --clean --if-exists …');
  // one transaction: a failed restore leaves the database as it was
  await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, path.join(work, PG_ARCHIVE)], env);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE');
    return await countRows(pgQuery(client));
  } finally {
    await client.end();
  }
}

async function loadPglite(dataDir: string, work: string, moveAside: (part: string) => void, putBack: (part: string) => void, log: (line: string) => void) {
  const pgliteDir = path.join(dataDir, 'pglite');
  moveAside('pglite'); // PGlite loads only into a folder without a database
  log('PGlite loadDataDir …');
  let client: PGlite | undefined;
  try {
    client = new PGlite(pgliteDir, { loadDataDir: new Blob([fs.readFileSync(path.join(work, PGLITE_ARCHIVE))]) });
    await client.waitReady;
    return await countRows(pgliteQuery(client));
  } catch (err) {
    await client?.close().catch(() => {});
    client = undefined;
    putBack('pglite'); // the half-loaded folder goes, the database that was there comes back
    throw err;
  } finally {
    await client?.close();
  }
}
