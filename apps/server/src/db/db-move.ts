import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../config';
import { openPostgresWith } from './client';

/**
 * Moving an installation's database (README "Moving to a PostgreSQL server"): `npm run db:export` writes every table
 * of the public schema as PostgreSQL COPY text (one file a table) and a manifest; `npm run db:import` loads them into
 * an empty PostgreSQL database after running the migrations there, so the schema is always the one the migrations
 * make, never a copy of PGlite's (PostgreSQL 18) catalog that an older server could not read.
 *
 * Why not PGlite's own tools: dumpDataDir makes a tarball only PGlite opens; pglite-tools' pgDump writes one INSERT a
 * row into an in-memory file with PostgreSQL 18's pg_dump. Here rows are read through a cursor and loaded in batches,
 * so a table of millions of rows never sits in memory, and the load is checked row for row (a checksum per table).
 */

export const EXPORT_FORMAT = 'coalx-database-export';
export const EXPORT_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const TABLES_DIR = 'tables';

export interface MovedTable {
  name: string;
  /** Relative to the export folder. */
  file: string;
  columns: string[];
  rows: number;
  /** SHA-256 of the table's file: its rows as COPY text, ordered by primary key. */
  sha256: string;
}

export interface MovedSequence {
  name: string;
  /** The value the next nextval() gave on the source. */
  nextValue: number;
}

export interface MoveManifest {
  format: typeof EXPORT_FORMAT;
  formatVersion: typeof EXPORT_FORMAT_VERSION;
  exportedAt: string;
  source: { kind: 'pglite' | 'postgres'; serverVersion: string };
  /** The migrations applied to the source, in order: the importing code must have exactly these. */
  migrations: { tag: string; createdAt: number }[];
  /** In an order that satisfies the foreign keys. */
  tables: MovedTable[];
  sequences: MovedSequence[];
}

/** A refusal the operator can act on (wrong target, wrong version, a broken export): printed without a stack. */
export class DbMoveError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// Sessions: one connection, on PGlite or a PostgreSQL server

type TextRow = (string | null)[];

interface SqlSession {
  kind: 'pglite' | 'postgres';
  /** Rows with the driver's usual values (catalog reads). */
  rows<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Rows as the server's own text of each value (its output functions, as COPY writes them); `typeIds` of the columns. */
  textRows(text: string, typeIds: number[]): Promise<TextRow[]>;
  run(text: string, values?: unknown[]): Promise<void>;
  /** PGlite only: the COPY text a `COPY (…) TO STDOUT`-like statement writes (PGlite hands it over as a blob). */
  copyOut?(query: string): Promise<string>;
  close(): Promise<void>;
}

const asText = (value: string) => value;

function pgliteSession(client: PGlite): SqlSession {
  return {
    kind: 'pglite',
    rows: async <T>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows,
    async textRows(text, typeIds) {
      // PGlite parses by type id: one that keeps the text, for each type in the result (its arrays too, by their own id)
      const parsers = Object.fromEntries(typeIds.map((id) => [id, asText]));
      return (await client.query<TextRow>(text, [], { rowMode: 'array', parsers })).rows;
    },
    run: async (text, values = []) => void (await client.query(text, values)),
    async copyOut(query) {
      const result = await client.query(`COPY (${query}) TO '/dev/blob'`);
      return (await result.blob?.text()) ?? '';
    },
    close: () => client.close(),
  };
}

function postgresSession(client: pg.Client): SqlSession {
  const rawText = { getTypeParser: () => asText } as unknown as pg.CustomTypesConfig;
  return {
    kind: 'postgres',
    rows: async <T>(text: string, values: unknown[] = []) => (await client.query({ text, values })).rows as T[],
    textRows: async (text) => (await client.query({ text, rowMode: 'array', types: rawText })).rows as TextRow[],
    run: async (text, values = []) => void (await client.query(text, values)),
    close: () => client.end(),
  };
}

/** The source of an export: the embedded database's folder (DATA_DIR/pglite), or a server's URL. */
export type MoveSource = { pgliteDir: string } | { url: string };

async function openSource(source: MoveSource): Promise<SqlSession> {
  if ('url' in source) {
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    return postgresSession(client);
  }
  // PGlite would make a new, empty database in a folder that holds none
  if (!fs.existsSync(path.join(source.pgliteDir, 'PG_VERSION'))) throw new DbMoveError(`找不到内置数据库 ${source.pgliteDir} (DATA_DIR 是否正确?)`);
  const client = new PGlite(source.pgliteDir);
  await client.waitReady;
  return pgliteSession(client);
}

/**
 * The settings every value's text depends on, the same on both sides, so the target's text of a row is the source's:
 * timestamptz in UTC, bytea in hex, ISO dates, floats exactly.
 */
async function fixTextSettings(session: SqlSession) {
  await session.run(`SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true),
    set_config('IntervalStyle', 'postgres', true), set_config('bytea_output', 'hex', true), set_config('extra_float_digits', '1', true)`);
}

// ---------------------------------------------------------------------------------------------------------------
// The catalog: tables, columns, keys, sequences

interface ColumnInfo {
  name: string;
  /** format_type(): what a text value is cast to on load. */
  type: string;
  typeId: number;
  /** Text-like: ordered with COLLATE "C" so both servers sort it alike whatever their locale. */
  collatable: boolean;
}

interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  /** Tables its foreign keys point at (itself excluded). */
  references: string[];
}

interface SequenceInfo {
  name: string;
  /** The column it numbers (serial / identity), if any. */
  owner: { table: string; column: string } | null;
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

async function readTables(session: SqlSession): Promise<TableInfo[]> {
  const columns = await session.rows<{ table_name: string; column_name: string; type: string; type_id: number; collatable: boolean }>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
       a.atttypid::int AS type_id, a.attcollation <> 0 AS collatable
     FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY c.relname, a.attnum`,
  );
  const keys = await session.rows<{ table_name: string; column_name: string }>(
    `SELECT c.relname AS table_name, a.attname AS column_name
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
     WHERE c.relnamespace = 'public'::regnamespace AND i.indisprimary
     ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const foreignKeys = await session.rows<{ table_name: string; referenced: string }>(
    `SELECT DISTINCT c.relname AS table_name, r.relname AS referenced
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relnamespace = 'public'::regnamespace`,
  );
  const tables = new Map<string, TableInfo>();
  for (const c of columns) {
    const table = tables.get(c.table_name) ?? { name: c.table_name, columns: [], primaryKey: [], references: [] };
    table.columns.push({ name: c.column_name, type: c.type, typeId: Number(c.type_id), collatable: c.collatable });
    tables.set(c.table_name, table);
  }
  for (const k of keys) tables.get(k.table_name)?.primaryKey.push(k.column_name);
  for (const f of foreignKeys) if (f.table_name !== f.referenced) tables.get(f.table_name)?.references.push(f.referenced);
  return inLoadOrder([...tables.values()]);
}

/** Referenced tables before the tables referring to them (alphabetical among equals, so every export reads alike). */
export function inLoadOrder<T extends { name: string; references: string[] }>(tables: T[]): T[] {
  const pending = new Map(tables.map((t) => [t.name, t]));
  const ordered: T[] = [];
  while (pending.size) {
    const ready = [...pending.values()].filter((t) => t.references.every((r) => !pending.has(r))).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (!ready.length) throw new DbMoveError(`外键成环, 无法排定装入顺序: ${[...pending.keys()].join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t.name);
    }
  }
  return ordered;
}

async function readSequences(session: SqlSession): Promise<SequenceInfo[]> {
  const rows = await session.rows<{ name: string; table_name: string | null; column_name: string | null }>(
    `SELECT s.relname AS name, t.relname AS table_name, a.attname AS column_name
     FROM pg_class s
       LEFT JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
       LEFT JOIN pg_class t ON t.oid = d.refobjid
       LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
     WHERE s.relkind = 'S' AND s.relnamespace = 'public'::regnamespace
     ORDER BY s.relname`,
  );
  return rows.map((r) => ({ name: r.name, owner: r.table_name && r.column_name ? { table: r.table_name, column: r.column_name } : null }));
}

// ---------------------------------------------------------------------------------------------------------------
// Migrations: the export and the importing code must agree on them

interface Migration {
  tag: string;
  createdAt: number;
}

/** The migrations of this code (apps/server/migrations), in order. */
export function codeMigrations(folder = MIGRATIONS_DIR): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  // the same reading drizzle's migrator does (it fails here on a missing file, as it would at start)
  const files = readMigrationFiles({ migrationsFolder: folder });
  return files.map((file) => ({ tag: journal.entries.find((e) => e.when === file.folderMillis)?.tag ?? String(file.folderMillis), createdAt: file.folderMillis }));
}

/** The migrations applied to a database (drizzle's own record, by the time each was written); null: none ever ran. */
async function appliedMigrations(session: SqlSession, known: Migration[]): Promise<Migration[] | null> {
  const [table] = await session.rows<{ present: boolean }>(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!table?.present) return null;
  const rows = await session.rows<{ created_at: string }>(`SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`);
  return rows.map((r) => {
    const createdAt = Number(r.created_at);
    return { tag: known.find((m) => m.createdAt === createdAt)?.tag ?? `(未知迁移 ${createdAt})`, createdAt };
  });
}

const lastTag = (migrations: Migration[]) => migrations.at(-1)?.tag ?? '(无)';
const sameMigrations = (a: Migration[], b: Migration[]) => a.length === b.length && a.every((m, i) => m.createdAt === b[i]!.createdAt);

// ---------------------------------------------------------------------------------------------------------------
// COPY text format: one line a row, tab between values, \N for NULL, backslash escapes

// what PostgreSQL's COPY TO writes escaped (the other control characters it writes as they are)
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v' };
const UNESCAPES: Record<string, string> = { '\\': '\\', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', N: '\\N' };

/** A row as COPY TO writes it: the same bytes, so a checksum over either agrees. */
export function copyLine(row: TextRow): string {
  return row.map((value) => (value === null ? '\\N' : value.replace(/[\\\n\r\t\b\f\v]/g, (c) => ESCAPES[c]!))).join('\t');
}

export function copyFields(line: string): TextRow {
  return line.split('\t').map((field) => {
    if (field === '\\N') return null;
    if (!field.includes('\\')) return field;
    return field.replace(/\\(.)/gs, (escape, c: string) => {
      const plain = UNESCAPES[c];
      // octal and hex escapes are bytes, not characters: COPY TO never writes them
      if (plain === undefined || plain === '\\N') throw new DbMoveError(`无法解读的转义 ${escape}`);
      return plain;
    });
  });
}

interface TextBatch {
  text: string;
  rows: number;
}

/**
 * A table's rows in primary-key order, as COPY text, a batch of lines at a time (the caller holds the transaction,
 * so every batch comes from one snapshot). The same rows give the same bytes on either server.
 */
function tableText(session: SqlSession, table: TableInfo, batchRows: number): AsyncGenerator<TextBatch> {
  // PGlite's protocol parser spends more on each value than the database does on the row: its own COPY is 3× faster
  return session.copyOut && table.primaryKey.length ? tableTextByCopy(session, table, batchRows * 2) : tableTextByCursor(session, table, batchRows);
}

const orderByKey = (table: TableInfo) =>
  (table.primaryKey.length ? table.primaryKey : table.columns.map((c) => c.name))
    .map((name) => `${quote(name)}${table.columns.find((c) => c.name === name)!.collatable ? ' COLLATE "C"' : ''}`)
    .join(', ');

async function* tableTextByCursor(session: SqlSession, table: TableInfo, batchRows: number): AsyncGenerator<TextBatch> {
  const cursor = 'coalx_move_rows';
  await session.run(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${table.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table.name)} ORDER BY ${orderByKey(table)}`);
  try {
    const typeIds = table.columns.map((c) => c.typeId);
    for (;;) {
      const rows = await session.textRows(`FETCH FORWARD ${batchRows} FROM ${cursor}`, typeIds);
      if (!rows.length) break;
      yield { text: rows.map((row) => copyLine(row) + '\n').join(''), rows: rows.length };
      if (rows.length < batchRows) break;
    }
  } finally {
    await session.run(`CLOSE ${cursor}`);
  }
}

/** Batches by primary key (keyset): each COPY starts after the last key of the one before. */
async function* tableTextByCopy(session: SqlSession, table: TableInfo, batchRows: number): AsyncGenerator<TextBatch> {
  const select = `SELECT ${table.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table.name)}`;
  const keyColumns = table.primaryKey.map((name) => table.columns.findIndex((c) => c.name === name));
  const keyTuple = `(${table.primaryKey.map((name, i) => `${quote(name)}${table.columns[keyColumns[i]!]!.collatable ? ' COLLATE "C"' : ''}`).join(', ')})`;
  let after = '';
  for (;;) {
    // COPY takes no parameters: the last key goes in as literals, each cast to its column's type
    const text = await session.copyOut!(`${select}${after} ORDER BY ${orderByKey(table)} LIMIT ${batchRows}`);
    if (!text) break;
    let rows = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++;
    yield { text, rows };
    if (rows < batchRows) break;
    const lastLine = copyFields(text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1));
    const literals = keyColumns.map((column) => `${sqlText(lastLine[column]!)}::${table.columns[column]!.type}`);
    after = ` WHERE ${keyTuple} > (${literals.join(', ')})`;
  }
}

/** A string as an SQL literal (standard_conforming_strings: only the quote is doubled). */
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

// ---------------------------------------------------------------------------------------------------------------
// Export

export interface MoveOptions {
  /** Rows read or loaded per round trip. */
  batchRows?: number;
  log?: (line: string) => void;
  /** The migrations folder (tests point it elsewhere to act out another version). */
  migrationsFolder?: string;
}

/** Writes the database to `folder` (made; it must not hold anything yet). The manifest is written last. */
export async function exportDatabase(source: MoveSource, folder: string, options: MoveOptions = {}): Promise<MoveManifest> {
  const log = options.log ?? (() => {});
  const batchRows = options.batchRows ?? 5000;
  if (fs.existsSync(folder) && fs.readdirSync(folder).length) throw new DbMoveError(`导出目录 ${folder} 不是空的: 请指定一个新目录`);
  const session = await openSource(source);
  try {
    // one snapshot for every table, so a server still running on the source cannot make them disagree
    await session.run('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await fixTextSettings(session);
    const known = codeMigrations(options.migrationsFolder);
    const applied = await appliedMigrations(session, known);
    if (!applied) throw new DbMoveError('源数据库没有 CoalX 的迁移记录 (drizzle.__drizzle_migrations): 它不是 CoalX 的数据库, 或从未启动过');
    if (!sameMigrations(applied, known)) {
      throw new DbMoveError(
        `源数据库的迁移 (${applied.length} 个, 最后 ${lastTag(applied)}) 与本程序的 (${known.length} 个, 最后 ${lastTag(known)}) 不一致: ` +
          (applied.length < known.length ? '请先用本版本启动一次服务器完成迁移, 停止后再导出' : '请用与数据库同一版本的 CoalX 导出'),
      );
    }
    const [version] = await session.rows<{ server_version: string }>(`SELECT current_setting('server_version') AS server_version`);
    fs.mkdirSync(path.join(folder, TABLES_DIR), { recursive: true });
    const tables: MovedTable[] = [];
    for (const table of await readTables(session)) {
      const started = Date.now();
      const file = path.posix.join(TABLES_DIR, `${table.name}.copy`);
      const written = await writeTableFile(session, table, path.join(folder, file), batchRows);
      tables.push({ name: table.name, file, columns: table.columns.map((c) => c.name), ...written });
      if (written.rows >= 10_000) log(`  ${table.name}: ${written.rows.toLocaleString('en-US')} 行, ${Date.now() - started} ms`);
    }
    const sequences: MovedSequence[] = [];
    for (const sequence of await readSequences(session)) {
      const [state] = await session.rows<{ last_value: string; is_called: boolean }>(`SELECT last_value::text AS last_value, is_called FROM ${quote(sequence.name)}`);
      sequences.push({ name: sequence.name, nextValue: Number(state!.last_value) + (state!.is_called ? 1 : 0) });
    }
    await session.run('COMMIT');
    const manifest: MoveManifest = {
      format: EXPORT_FORMAT,
      formatVersion: EXPORT_FORMAT_VERSION,
      exportedAt: new Date().toISOString(),
      source: { kind: session.kind, serverVersion: version!.server_version },
      migrations: applied,
      tables,
      sequences,
    };
    fs.writeFileSync(path.join(folder, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  } finally {
    await session.close();
  }
}

async function writeTableFile(session: SqlSession, table: TableInfo, file: string, batchRows: number): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const closed = new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.on('close', resolve);
  });
  let rows = 0;
  try {
    for await (const batch of tableText(session, table, batchRows)) {
      hash.update(batch.text);
      rows += batch.rows;
      // wait for the disk when it falls behind, so batches do not pile up in memory
      if (!out.write(batch.text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    out.end();
  }
  await closed;
  return { rows, sha256: hash.digest('hex') };
}

// ---------------------------------------------------------------------------------------------------------------
// Import

export function readManifest(folder: string): MoveManifest {
  const file = path.join(folder, MANIFEST);
  if (!fs.existsSync(file)) throw new DbMoveError(`${folder} 中没有 ${MANIFEST}: 不是一份完整的导出 (导出中断时不写清单)`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as MoveManifest;
  if (manifest.format !== EXPORT_FORMAT || manifest.formatVersion !== EXPORT_FORMAT_VERSION) {
    throw new DbMoveError(`${file} 不是本程序能读的导出 (格式 ${manifest.format} 版本 ${manifest.formatVersion})`);
  }
  return manifest;
}

export interface ImportSummary {
  tables: number;
  rows: number;
  sequences: number;
  ms: number;
}

/**
 * Loads an export into the PostgreSQL database at `url`, which must hold no rows: runs the migrations, loads every
 * table in foreign-key order in one transaction, moves every sequence past the rows it numbered, and checks each
 * table's row count and checksum against the manifest before committing. Anything that fails leaves no row behind.
 */
export async function importDatabase(url: string, folder: string, options: MoveOptions = {}): Promise<ImportSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const batchRows = options.batchRows ?? 2000;
  const manifest = readManifest(folder);
  const known = codeMigrations(options.migrationsFolder);
  if (!sameMigrations(manifest.migrations, known)) {
    throw new DbMoveError(
      `导出的迁移版本 (${manifest.migrations.length} 个, 最后 ${lastTag(manifest.migrations)}) 与本程序的 (${known.length} 个, 最后 ${lastTag(known)}) 不一致: ` +
        '请用导出时的同一版本 CoalX 导入 (导入后再升级, 启动时会自动迁移)',
    );
  }
  for (const table of manifest.tables) {
    if (!fs.existsSync(path.join(folder, table.file))) throw new DbMoveError(`导出不完整: 缺少 ${table.file}`);
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const session = postgresSession(client);
  try {
    await refuseRows(session);
    const applied = await appliedMigrations(session, known);
    if (applied && !applied.every((m, i) => known[i]?.createdAt === m.createdAt)) {
      throw new DbMoveError(`目标数据库已由另一版本迁移 (最后 ${lastTag(applied)}): 请新建一个空数据库`);
    }
    // the schema comes from the migrations, as on any server start (an empty database is migrated, none is copied)
    const migrator = await openPostgresWith((db) => db, url, 1);
    try {
      await migrator.migrate();
    } finally {
      await migrator.close();
    }
    const tables = await readTables(session);
    checkSameTables(manifest, tables);

    await session.run('BEGIN');
    try {
      await fixTextSettings(session);
      let rows = 0;
      for (const table of tables) {
        const moved = manifest.tables.find((t) => t.name === table.name)!;
        const tableStarted = Date.now();
        const loaded = await loadTable(session, table, moved, path.join(folder, moved.file), batchRows);
        if (loaded !== moved.rows) throw new DbMoveError(`${table.name}: 装入 ${loaded} 行, 清单记 ${moved.rows} 行`);
        rows += loaded;
        if (loaded >= 10_000) log(`  ${table.name}: ${loaded.toLocaleString('en-US')} 行, ${Date.now() - tableStarted} ms`);
      }
      const sequences = await continueSequences(session, manifest);
      log('  校验行数与校验和…');
      await verifyTables(session, tables, manifest, batchRows);
      await session.run('COMMIT');
      // fresh planner statistics, or the first queries on the new server plan as if every table were empty
      await session.run('ANALYZE');
      return { tables: tables.length, rows, sequences, ms: Date.now() - started };
    } catch (err) {
      await session.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    await session.close();
  }
}

/** An import goes into an empty database only: it never merges with, nor overwrites, rows already there. */
async function refuseRows(session: SqlSession) {
  const tables = await session.rows<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY relname`);
  const withRows: string[] = [];
  for (const { name } of tables) {
    const [row] = await session.rows<{ has_rows: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS has_rows`);
    if (row?.has_rows) withRows.push(name);
  }
  if (withRows.length) {
    throw new DbMoveError(
      `目标数据库不是空的: ${withRows.length} 张表已有数据 (${withRows.slice(0, 5).join(', ')}${withRows.length > 5 ? ' …' : ''})。` +
        '导入只装入空数据库: 请用 createdb 新建一个, 导入前不要在它上面启动服务器',
    );
  }
}

function checkSameTables(manifest: MoveManifest, tables: TableInfo[]) {
  const problems: string[] = [];
  for (const moved of manifest.tables) {
    const table = tables.find((t) => t.name === moved.name);
    if (!table) problems.push(`目标没有表 ${moved.name}`);
    else {
      const missing = moved.columns.filter((c) => !table.columns.some((t) => t.name === c));
      if (missing.length) problems.push(`${moved.name} 缺少列 ${missing.join(', ')}`);
      const extra = table.columns.filter((c) => !moved.columns.includes(c.name));
      if (extra.length) problems.push(`${moved.name} 多出列 ${extra.map((c) => c.name).join(', ')}`);
    }
  }
  for (const table of tables) if (!manifest.tables.some((t) => t.name === table.name)) problems.push(`导出中没有表 ${table.name}`);
  if (problems.length) throw new DbMoveError(`迁移后的表结构与导出不符: ${problems.join('; ')}`);
}

/**
 * One table's file into the table, a batch of rows per INSERT: each column arrives as a text array and is cast to
 * its type by the type's own input function (what COPY FROM does). Only INSERTs: the append-only tables' triggers
 * (UPDATE, DELETE, TRUNCATE) do not fire, and stay in force afterwards.
 */
async function loadTable(session: SqlSession, table: TableInfo, moved: MovedTable, file: string, batchRows: number): Promise<number> {
  const columns = moved.columns.map((name) => table.columns.find((c) => c.name === name)!);
  const statement =
    `INSERT INTO ${quote(table.name)} (${columns.map((c) => quote(c.name)).join(', ')}) ` +
    `SELECT ${columns.map((c, i) => `v${i}::${c.type}`).join(', ')} ` +
    `FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${columns.map((_, i) => `v${i}`).join(', ')})`;
  let batch: TextRow[] = columns.map(() => []);
  let pending = 0;
  let loaded = 0;
  const flush = async () => {
    if (!pending) return;
    await session.run(statement, batch);
    loaded += pending;
    batch = columns.map(() => []);
    pending = 0;
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const fields = copyFields(line);
    if (fields.length !== columns.length) throw new DbMoveError(`${moved.file} 第 ${loaded + pending + 1} 行有 ${fields.length} 个值, 应为 ${columns.length} 个`);
    fields.forEach((value, i) => batch[i]!.push(value));
    if (++pending >= batchRows) await flush();
  }
  await flush();
  return loaded;
}

/** Each sequence continues where the source's did, and in any case past the largest value its column holds. */
async function continueSequences(session: SqlSession, manifest: MoveManifest): Promise<number> {
  const sequences = await readSequences(session);
  for (const sequence of sequences) {
    let next = BigInt(manifest.sequences.find((s) => s.name === sequence.name)?.nextValue ?? 1);
    if (sequence.owner) {
      const [row] = await session.rows<{ max: string | null }>(`SELECT max(${quote(sequence.owner.column)})::text AS max FROM ${quote(sequence.owner.table)}`);
      if (row?.max !== null && row?.max !== undefined && BigInt(row.max) + 1n > next) next = BigInt(row.max) + 1n;
    }
    await session.run(`SELECT setval(format('%I.%I', 'public', $1::text)::regclass, $2::bigint, false)`, [sequence.name, next.toString()]);
  }
  return sequences.length;
}

/** The loaded tables read back as the export read them: the same rows give the same count and the same checksum. */
async function verifyTables(session: SqlSession, tables: TableInfo[], manifest: MoveManifest, batchRows: number) {
  for (const table of tables) {
    const moved = manifest.tables.find((t) => t.name === table.name)!;
    const ordered = { ...table, columns: moved.columns.map((name) => table.columns.find((c) => c.name === name)!) };
    const hash = createHash('sha256');
    let rows = 0;
    for await (const batch of tableText(session, ordered, batchRows * 2)) {
      hash.update(batch.text);
      rows += batch.rows;
    }
    if (rows !== moved.rows) throw new DbMoveError(`${table.name}: 目标有 ${rows} 行, 清单记 ${moved.rows} 行`);
    if (hash.digest('hex') !== moved.sha256) throw new DbMoveError(`${table.name}: 装入后的数据与导出的校验和不符`);
  }
}
