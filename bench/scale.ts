// BENCH_ONLY=scale: does the platform keep its pace as the market grows? The signed-in and public list calls (as the
// operator, a trader and a visitor), the start-up time and an idle server's database reads, each on the demo data and
// on the demo plus a generated busy year (seedScale), on PGlite and on PostgreSQL (when TEST_DATABASE_URL or
// DATABASE_URL names a server). Prints numbers against the targets; never fails on them.
//
// Environment:
//   BENCH_SECONDS         seconds of load per call (default 5)
//   BENCH_SCALE           the generated year's size, seedScale's `scale` (default 1: the issue's figures)
//   BENCH_IDLE_SECONDS    the idle window for the database reads (default 60; PostgreSQL only)
//   BENCH_STARTS          server starts per phase; the median is the start-up time (default 3)
//   BENCH_PUBLIC_CACHE_MS the server's public cache (default 0: the public lists' queries are measured, not the cache)
//   BENCH_KINDS           pglite,postgres (default: both when a server is named, else pglite)
//   BENCH_DATABASE_URL    an already generated PostgreSQL database for the busy phase (kept, not regenerated)
//   BENCH_SCALE_DB        the same, as a database name on the TEST_DATABASE_URL / DATABASE_URL server
//   BENCH_SCALE_DATA_DIR  an already generated PGlite DATA_DIR for the busy phase (kept, not regenerated)
// A prepared database is served as `npm start` serves it: each start keeps a live demo auction there, and the bench
// signs in and, when the audit log holds no 出价 yet, adds three refused bids on an unknown trade. Nothing else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { openPglite, openPostgres } from '../apps/server/src/lib/database';
import type { Database } from '../apps/server/src/db/client';
import { freePort, waitForHealth } from '../apps/server/src/test/server-process';
import { BUSY_PASSWORD, BUSY_USERNAME, OPERATOR_ACCOUNT, seedScale, type ScaleSummary } from '../apps/server/src/scale/seed-scale';

const root = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const IDLE_S = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const PUBLIC_CACHE_MS = process.env.BENCH_PUBLIC_CACHE_MS ?? '0';
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 3));
const CONNECTIONS = 10;
// the targets of the issue
const P99_RATIO_TARGET = 2;
const P99_FLOOR_MS = 50;
const STARTUP_SLACK_MS = 2000;
const IDLE_RATIO_TARGET = 2;

type Kind = 'pglite' | 'postgres';
type Phase = 'demo' | 'year';
type Who = 'operator' | 'trader' | 'visitor';

// the trader is one of the busy enterprise's (the year's generator says whose): a demo account, in both phases
interface Login {
  username: string;
  password: string;
}
const LOGINS: { operator: Login; trader: Login } = {
  operator: { ...OPERATOR_ACCOUNT },
  trader: { username: BUSY_USERNAME, password: BUSY_PASSWORD },
};

/** One call of the table: a page's request as the web sends it (query string for GET, JSON body for POST). */
interface Call {
  who: Who;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  params: Record<string, string | number>;
  /** a deep page: this page number, or the last page when the data has fewer */
  deepPage?: number;
}

const CALLS: Call[] = [
  { who: 'operator', name: 'contract list, first page', method: 'GET', path: '/api/contract/list', params: { pageNo: 1, pageSize: 10 } },
  { who: 'operator', name: 'contract list, deep page', method: 'GET', path: '/api/contract/list', params: { pageSize: 10 }, deepPage: 4000 },
  { who: 'operator', name: 'audit log, action 出价', method: 'GET', path: '/sys/auditLog/list', params: { pageNo: 1, pageSize: 20, action: '出价' } },
  { who: 'operator', name: 'audit log, first page', method: 'GET', path: '/sys/auditLog/list', params: { pageNo: 1, pageSize: 20 } },
  { who: 'operator', name: 'workbench to-dos', method: 'GET', path: '/api/workbench/todo', params: {} },
  { who: 'operator', name: 'order list, first page', method: 'GET', path: '/api/order/list', params: { pageNo: 1, pageSize: 10 } },
  { who: 'operator', name: 'invoice list, first page', method: 'GET', path: '/api/invoice/list', params: { pageNo: 1, pageSize: 10 } },
  { who: 'operator', name: 'transport list, first page', method: 'GET', path: '/api/delivery/transport', params: { pageNo: 1, pageSize: 10 } },
  { who: 'trader', name: 'transport, plate 晋B', method: 'GET', path: '/api/delivery/transport', params: { pageNo: 1, pageSize: 10, plateNo: '晋B' } },
  { who: 'trader', name: 'transport, deep page', method: 'GET', path: '/api/delivery/transport', params: { pageSize: 10 }, deepPage: 2000 },
  { who: 'trader', name: 'invoice due', method: 'GET', path: '/api/invoice/due', params: { pageNo: 1, pageSize: 10 } },
  { who: 'trader', name: 'workbench to-dos', method: 'GET', path: '/api/workbench/todo', params: {} },
  { who: 'trader', name: 'funds journal, kind + 90 days', method: 'GET', path: '/api/funds/journal/list', params: { pageNo: 1, pageSize: 10, kind: 'freeze', dateFrom: shanghaiDay(-90), dateTo: shanghaiDay(0) } },
  { who: 'trader', name: 'funds journal, deep page', method: 'GET', path: '/api/funds/journal/list', params: { pageSize: 10 }, deepPage: 4000 },
  { who: 'trader', name: 'fund info (balances)', method: 'GET', path: '/api/fundinfo/getFundInfo', params: {} },
  { who: 'trader', name: 'contract list, first page', method: 'GET', path: '/api/contract/list', params: { pageNo: 1, pageSize: 10 } },
  { who: 'visitor', name: 'listings, first page', method: 'POST', path: '/api/tradeHome/listedTrade/list', params: { pageNo: 1, pageSize: 10, tradeType: 0 } },
  { who: 'visitor', name: 'listings, deep page', method: 'POST', path: '/api/tradeHome/listedTrade/list', params: { pageSize: 10, tradeType: 0 }, deepPage: 1000 },
  { who: 'visitor', name: 'auctions, first page', method: 'POST', path: '/api/tradeHome/bidTrade/list', params: { pageNo: 1, pageSize: 10, tradeType: 2 } },
  { who: 'visitor', name: 'auctions, deep page', method: 'POST', path: '/api/tradeHome/bidTrade/list', params: { pageSize: 10, tradeType: 2 }, deepPage: 1000 },
  { who: 'visitor', name: 'trade results, first page', method: 'POST', path: '/api/tradeHome/tradeSummary/list', params: { pageNo: 1, pageSize: 10 } },
  { who: 'visitor', name: 'trade results, deep page', method: 'POST', path: '/api/tradeHome/tradeSummary/list', params: { pageSize: 10 }, deepPage: 4000 },
  { who: 'visitor', name: '行情 (market daily, 90 days)', method: 'GET', path: '/api/tradeHome/market/daily', params: { days: 90 } },
  { who: 'visitor', name: 'recommendations', method: 'POST', path: '/api/tradeHome/recommend/list', params: { pageNo: 1, pageSize: 4 } },
];

/** A calendar day in Asia/Shanghai, `offsetDays` from today (the filters' day fields). */
function shanghaiDay(offsetDays: number): string {
  return new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

interface CallResult {
  status: number;
  /** rows on the measured page, and the list's total (null: not a page) */
  rows: number;
  total: number | null;
  page: number | null;
  message: string;
  p50: number;
  p99: number;
  rps: number;
  failures: number;
}

interface PhaseResult {
  startupMs: number;
  /** tup_returned per minute while idle; null where it cannot be read (PGlite: the server process holds the folder) */
  idle: IdleReads | null;
  calls: CallResult[];
}

/** Where one phase's database lives, the server's environment for it, and how it is removed afterwards. */
interface Store {
  kind: Kind;
  dataDir: string;
  env: Record<string, string>;
  /** the PostgreSQL database (its name is the row of pg_stat_database) */
  pg: { url: string; name: string } | null;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

/** The PostgreSQL server the bench makes its databases on (a prepared database names one too). */
function serverUrl(): string | null {
  return process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || process.env.BENCH_DATABASE_URL?.trim() || null;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one SQL statement on the server's maintenance database (CREATE/DROP DATABASE cannot run inside the target). */
async function onServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(adminUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function storeOf(kind: Kind, dataDir: string, pgDatabase: Store['pg'], remove: () => Promise<void>): Store {
  return {
    kind,
    dataDir,
    // on PostgreSQL the CA lives in the database, its key sealed with this passphrase
    env: { DATA_DIR: dataDir, DATABASE_URL: pgDatabase?.url ?? '', DEMO_DATA: '1', CA_KEY_PASSPHRASE: 'coalx-bench-ca-passphrase' },
    pg: pgDatabase,
    open: () => (pgDatabase ? openPostgres(pgDatabase.url, 4) : openPglite(path.join(dataDir, 'pglite'))),
    remove,
  };
}

/** An empty database of the bench's own (a PGlite folder, or a new database on the server), removed afterwards. */
async function freshStore(kind: Kind, phase: Phase, adminUrl: string | null, template?: Store): Promise<Store> {
  // the data folder holds the platform CA and the files (and PGlite's database): a copy keeps them with the rows
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `coalx-scale-${phase}-`));
  if (template) fs.cpSync(template.dataDir, dataDir, { recursive: true });
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'pglite') return storeOf(kind, dataDir, null, removeDir);
  const name = `coalx_bench_${phase}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await onServer(adminUrl!, template?.pg ? `CREATE DATABASE ${name} TEMPLATE ${template.pg.name}` : `CREATE DATABASE ${name}`);
  return storeOf(kind, dataDir, { url: databaseUrl(adminUrl!, name), name }, async () => {
    await removeDir();
    await onServer(adminUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** A busy year generated before (BENCH_DATABASE_URL, BENCH_SCALE_DB, BENCH_SCALE_DATA_DIR): used as it is and kept. */
function preparedYear(kind: Kind, adminUrl: string | null): Store | null {
  const dataDirOf = () => fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-scale-year-'));
  if (kind === 'pglite') {
    const dir = process.env.BENCH_SCALE_DATA_DIR?.trim();
    return dir ? storeOf(kind, path.resolve(dir), null, async () => {}) : null;
  }
  const url = process.env.BENCH_DATABASE_URL?.trim() || (process.env.BENCH_SCALE_DB?.trim() && adminUrl ? databaseUrl(adminUrl, process.env.BENCH_SCALE_DB.trim()) : '');
  if (!url) return null;
  // the server's CA and files go to a folder of the bench's own; the database is the lead's and stays
  const dataDir = dataDirOf();
  return storeOf(kind, dataDir, { url, name: decodeURIComponent(new URL(url).pathname.slice(1)) }, async () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

interface RunningServer {
  port: number;
  startupMs: number;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * What `npm start` runs (scripts/start.mjs: the compiled server, built once before the bench), as its own process.
 * The start-up time is spawn → health answers 200, as in run.ts `firstLoadAndStartup`.
 */
async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningServer> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', SKIP_WEB_BUILD: '1', PUBLIC_CACHE_MS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let startupMs: number;
  try {
    startupMs = await Promise.race([waitForHealth(port, timeoutMs), exited.then(() => Promise.reject(new Error('the server exited')))]);
  } catch (err) {
    child.kill('SIGTERM');
    await exited;
    throw new Error(`${(err as Error).message}\n${output}`);
  }
  return {
    port,
    startupMs,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function signIn(base: string, who: 'operator' | 'trader', username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await response.json()) as { result?: { token?: string }; message?: string };
  if (response.status !== 200 || !body.result?.token) throw new Error(`${who} ${username} could not sign in: ${response.status} ${body.message ?? ''}`);
  return body.result.token;
}

/** The request autocannon repeats: url, method, headers and body exactly as the web sends the call. */
function requestOf(base: string, call: Call, pageNo: number | null, token: string | null) {
  const params = pageNo === null ? call.params : { ...call.params, pageNo };
  const headers: Record<string, string> = token ? { 'x-access-token': token } : {};
  if (call.method === 'POST') {
    headers['content-type'] = 'application/json';
    return { url: `${base}/trade-api${call.path}`, method: call.method, headers, body: JSON.stringify(params) };
  }
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return { url: `${base}/trade-api${call.path}${query ? `?${query}` : ''}`, method: call.method, headers, body: undefined };
}

/** What a call answered once: its status, the rows it carried and the list's total. */
async function probe(request: ReturnType<typeof requestOf>) {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  let body: { message?: string; result?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  const result = body.result as { records?: unknown[]; total?: number; days?: unknown[] } | null | undefined;
  const rows = Array.isArray(result?.records) ? result.records.length : Array.isArray(result?.days) ? result.days.length : result ? 1 : 0;
  const total = Array.isArray(result?.records) && typeof result.total === 'number' ? result.total : null;
  return { status: response.status, rows, total, message: response.status === 200 ? '' : (body.message ?? text.slice(0, 120)) };
}

async function measureCall(base: string, call: Call, tokens: Record<Who, string | null>): Promise<CallResult> {
  const token = tokens[call.who];
  let page: number | null = call.params.pageNo !== undefined ? Number(call.params.pageNo) : null;
  if (call.deepPage) {
    // the deep page must exist: the last page when the list is shorter
    const first = await probe(requestOf(base, call, 1, token));
    const pageSize = Number(call.params.pageSize ?? 10);
    page = Math.min(call.deepPage, Math.max(1, Math.ceil((first.total ?? 0) / pageSize)));
  }
  const request = requestOf(base, call, page, token);
  const checked = await probe(request);
  // a few requests first, so the p99 is the call's and not that of its first compilation
  await autocannon({ ...request, connections: CONNECTIONS, amount: 2 * CONNECTIONS, pipelining: 1 });
  const result = await autocannon({ ...request, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  return {
    ...checked,
    page,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    failures: result.errors + result.non2xx + result.timeouts,
  };
}

/** Rows PostgreSQL returned to the database's sessions so far (read from the maintenance database: not counted). */
async function tupReturned(database: NonNullable<Store['pg']>): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl(database.url, 'postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT tup_returned AS n FROM pg_stat_database WHERE datname = $1', [database.name]);
    return Number(rows[0]?.n ?? NaN);
  } finally {
    await client.end();
  }
}

/** Rows read so far from each table of the database (sequential scans, and fetched through indexes). */
async function rowsReadByTable(database: NonNullable<Store['pg']>): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ relname: string; n: string }>('SELECT relname, seq_tup_read + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables');
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  } finally {
    await client.end();
  }
}

interface IdleReads {
  perMinute: number;
  /** the tables read most while idle, rows per minute */
  topTables: { table: string; perMinute: number }[];
}

async function idleReads(database: NonNullable<Store['pg']>): Promise<IdleReads> {
  // the per-table counts are read outside the window (their own reads must not count), and statistics reach the
  // views up to a second after a transaction ends
  const tablesBefore = await rowsReadByTable(database);
  await sleep(1500);
  const before = await tupReturned(database);
  await sleep(IDLE_S * 1000);
  const after = await tupReturned(database);
  await sleep(1500);
  const tablesAfter = await rowsReadByTable(database);
  const perMinute = (n: number) => (n * 60) / IDLE_S;
  const topTables = [...tablesAfter]
    .map(([table, n]) => ({ table, perMinute: perMinute(n - (tablesBefore.get(table) ?? 0)) }))
    .filter((t) => t.perMinute > 0)
    .sort((a, b) => b.perMinute - a.perMinute)
    .slice(0, 5);
  return { perMinute: perMinute(after - before), topTables };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first start migrates and loads the demo, exactly as `npm start` on an empty database. */
async function loadDemo(store: Store) {
  const started = performance.now();
  const first = await startServer(store.env, 600_000);
  await first.stop();
  log(`${store.kind}: migrations and demo data in ${seconds(performance.now() - started)} s`);
}

/** The busy year on top of the demo (seedScale), in this process while no server holds the database. */
async function generateYear(store: Store): Promise<ScaleSummary> {
  const database = await store.open();
  try {
    return await seedScale(database.db, { scale: SCALE });
  } finally {
    await database.close();
  }
}

/**
 * The demo has no audited 出价 (its bids go through the flow, not the HTTP route): a few bids on a trade that does
 * not exist leave refused 出价 rows in the audit log and change nothing else, so the filtered page has rows to read.
 */
async function ensureAuditedBids(base: string, tokens: Record<Who, string | null>) {
  const filtered = CALLS.find((c) => c.path === '/sys/auditLog/list' && c.params.action === '出价')!;
  if ((await probe(requestOf(base, filtered, 1, tokens.operator))).rows > 0) return;
  for (let i = 0; i < 3; i++) {
    await fetch(`${base}/trade-api/api/bidRecord/bidAnswerApply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': tokens.trader! },
      body: JSON.stringify({ tradeId: 'JJ000000000000', price: 100 }),
    });
  }
  log('no 出价 in the audit log: 3 refused bids on an unknown trade added');
}

/** Start-up as `npm start` does it on the existing database: the median of STARTS starts, nothing else running. */
async function timedStarts(store: Store, phase: Phase): Promise<number> {
  const startups: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const server = await startServer(store.env);
    startups.push(server.startupMs);
    await server.stop();
  }
  log(`${store.kind} ${phase}: starts in ${startups.map((t) => seconds(t)).join(', ')} s`);
  return [...startups].sort((a, b) => a - b)[Math.floor(startups.length / 2)]!;
}

/** A server on the store with its operator and trader signed in (once: a session lives 2 h idle). */
async function serve(store: Store, trader: Login) {
  const server = await startServer(store.env);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const tokens: Record<Who, string | null> = {
      operator: await signIn(base, 'operator', LOGINS.operator.username, LOGINS.operator.password),
      trader: await signIn(base, 'trader', trader.username, trader.password),
      visitor: null,
    };
    return { server, base, tokens };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

interface Prepared {
  kind: Kind;
  demo: Store;
  year: Store;
  trader: Login;
}

/** The demo database, and a copy of it with the busy year on top (or the prepared year). */
async function prepareKind(kind: Kind, adminUrl: string | null, stores: Store[]): Promise<Prepared> {
  const demo = await freshStore(kind, 'demo', adminUrl);
  stores.push(demo);
  await loadDemo(demo);
  const prepared = preparedYear(kind, adminUrl);
  if (prepared) {
    stores.push(prepared);
    log(`${kind}: the busy year of ${prepared.pg?.name ?? prepared.dataDir}, as it is`);
    return { kind, demo, year: prepared, trader: LOGINS.trader };
  }
  // a copy of the demo just loaded (no second demo load), then the year on top
  const year = await freshStore(kind, 'year', adminUrl, demo);
  stores.push(year);
  const started = performance.now();
  const summary = await generateYear(year);
  log(`${kind}: busy year (scale ${SCALE}) generated in ${seconds(performance.now() - started)} s; the trader is ${summary.busy.username} of ${summary.busy.organName}`);
  return { kind, demo, year, trader: { username: summary.busy.username, password: summary.busy.password } };
}

/**
 * Both servers run side by side and each call is measured on the demo and then at once on the year, so the two
 * figures of a row meet the same load from the rest of the machine.
 */
async function measureKind({ kind, demo, year, trader }: Prepared) {
  const startupMs = { demo: await timedStarts(demo, 'demo'), year: await timedStarts(year, 'year') };
  const demoSide = await serve(demo, trader);
  const yearSide = await serve(year, trader).catch(async (err: Error) => {
    await demoSide.server.stop();
    throw err;
  });
  const sides = { demo: demoSide, year: yearSide };
  try {
    // counts, not times: both idle windows run at once
    const [demoIdle, yearIdle] = demo.pg && year.pg ? await Promise.all([idleReads(demo.pg), idleReads(year.pg)]) : [null, null];
    for (const side of Object.values(sides)) await ensureAuditedBids(side.base, side.tokens);
    const calls: Record<Phase, CallResult[]> = { demo: [], year: [] };
    for (const call of CALLS) {
      for (const phase of ['demo', 'year'] as const) {
        const measured = await measureCall(sides[phase].base, call, sides[phase].tokens);
        log(`${kind} ${phase}: ${call.who} ${call.name}: HTTP ${measured.status}, ${measured.rows} rows, p99 ${measured.p99} ms`);
        calls[phase].push(measured);
      }
    }
    printTable(kind, { startupMs: startupMs.demo, idle: demoIdle, calls: calls.demo }, { startupMs: startupMs.year, idle: yearIdle, calls: calls.year });
  } finally {
    await sides.demo.server.stop();
    await sides.year.server.stop();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

function log(line: string) {
  console.log(`   … ${line}`);
}

const ms = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '–');
const pair = (a: string, b: string, width: number) => `${a}/${b}`.padStart(width);

function printTable(kind: Kind, demo: PhaseResult, year: PhaseResult) {
  console.log(`\nScale on ${kind}: demo data vs demo + busy year (scale ${SCALE}); ${CONNECTIONS} connections, ${DURATION_S} s per call, public cache ${PUBLIC_CACHE_MS} ms`);
  console.log(`   target: p99 on the year ≤ ${P99_RATIO_TARGET} × p99 on the demo, or ≤ ${P99_FLOOR_MS} ms${kind === 'postgres' ? '' : ' (the target is set for PostgreSQL)'}`);
  console.log(`   ${'who'.padEnd(9)}${'call'.padEnd(32)}${'page'.padStart(11)}${'rows (total)'.padStart(24)}${'demo p50/p99'.padStart(14)}${'year p50/p99'.padStart(14)}${'p99 ratio'.padStart(10)}  target${'failed'.padStart(12)}`);
  CALLS.forEach((call, i) => {
    const d = demo.calls[i]!;
    const y = year.calls[i]!;
    const ratio = y.p99 / d.p99;
    const met = y.p99 <= P99_RATIO_TARGET * d.p99 || y.p99 <= P99_FLOOR_MS;
    const rowsOf = (r: CallResult) => (r.status !== 200 ? `HTTP ${r.status}` : r.total === null ? String(r.rows) : `${r.rows} (${r.total})`);
    const pageOf = (r: CallResult) => (r.page === null ? '' : String(r.page));
    console.log(
      `   ${call.who.padEnd(9)}${call.name.padEnd(32 - cjkExtra(call.name))}${pair(pageOf(d), pageOf(y), 11)}${pair(rowsOf(d), rowsOf(y), 24)}${pair(ms(d.p50), ms(d.p99), 14)}${pair(ms(y.p50), ms(y.p99), 14)}${(Number.isFinite(ratio) ? ratio.toFixed(2) : '–').padStart(10)}  ${met ? '✓' : '✗'}     ${pair(String(d.failures), String(y.failures), 12)}`,
    );
    for (const [phase, r] of [['demo', d], ['year', y]] as const) {
      if (r.status !== 200) console.log(`      ${phase}: HTTP ${r.status} ${r.message}`);
      else if (r.rows === 0) console.log(`      ${phase}: answered no rows (measures nothing)`);
    }
  });
  const startupMet = year.startupMs - demo.startupMs <= STARTUP_SLACK_MS;
  console.log(`   startup, npm start (compiled) on the existing database: demo ${(demo.startupMs / 1000).toFixed(2)} s, year ${(year.startupMs / 1000).toFixed(2)} s (median of ${STARTS}; target: within ${STARTUP_SLACK_MS / 1000} s of the demo) ${startupMet ? '✓' : '✗'}`);
  if (!demo.idle || !year.idle) {
    console.log('   idle database reads: not measured on PGlite (the server process holds the folder; pg_stat_database is read from outside)');
  } else {
    const ratio = year.idle.perMinute / demo.idle.perMinute;
    const met = year.idle.perMinute <= IDLE_RATIO_TARGET * demo.idle.perMinute;
    console.log(
      `   idle server, pg_stat_database.tup_returned per minute (${IDLE_S} s window): demo ${ms(demo.idle.perMinute)}, year ${ms(year.idle.perMinute)}, ratio ${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'} (target ≤ ${IDLE_RATIO_TARGET}) ${met ? '✓' : '✗'}`,
    );
    for (const [phase, idle] of [['demo', demo.idle], ['year', year.idle]] as const) {
      console.log(`     most read while idle (${phase}, rows per minute): ${idle.topTables.map((t) => `${t.table} ${ms(t.perMinute)}`).join(', ') || 'none'}`);
    }
  }
}

/** Chinese characters take two columns in a terminal: pad by width, not by length. */
function cjkExtra(text: string): number {
  return [...text].filter((c) => /[\u3000-\u9fff\uff00-\uffef]/.test(c)).length;
}

function benchKinds(adminUrl: string | null): Kind[] {
  const asked = process.env.BENCH_KINDS?.split(',').map((k) => k.trim()).filter(Boolean) as Kind[] | undefined;
  const kinds = asked?.length ? asked : adminUrl ? (['pglite', 'postgres'] as Kind[]) : (['pglite'] as Kind[]);
  if (kinds.includes('postgres') && !adminUrl) throw new Error('BENCH_KINDS names postgres but neither TEST_DATABASE_URL nor DATABASE_URL names a server');
  return kinds;
}

export async function scaleBench() {
  const adminUrl = serverUrl();
  // the compiled server `npm start` runs, built once here so no start below pays for it
  const built = spawnSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server did not compile (apps/server/build.mjs)');
  console.log(`\n7. Scale: list calls, start-up and idle reads on the demo data and on a busy year (scale ${SCALE})`);
  const stores: Store[] = [];
  try {
    // preparing is not timed: the kinds load their demo and generate their year side by side
    const settled = await Promise.allSettled(benchKinds(adminUrl).map((kind) => prepareKind(kind, adminUrl, stores)));
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    for (const result of settled) if (result.status === 'fulfilled') await measureKind(result.value);
  } finally {
    for (const store of stores) await store.remove().catch((err: Error) => console.warn(`could not remove ${store.pg?.name ?? store.dataDir}: ${err.message}`));
  }
}
