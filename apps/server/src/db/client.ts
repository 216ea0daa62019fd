import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { getTableColumns } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../config';
import { AdvisoryLease, NotificationConnection, SERVER_CONNECTION } from './notification-connection';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The same Drizzle API over PGlite or node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The server's connection pool (PostgreSQL only): its use is a metric. */
  pool?: pg.Pool;
  migrate(): Promise<void>;
  /** LISTEN on a channel; NOTIFY is sent with pg_notify inside the transaction that made the change. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs `work` alone among all processes on this database (start-up: seed and demo data). */
  exclusively<T>(lock: ProcessLock, work: () => Promise<T>): Promise<T>;
  /**
   * Holds the lock while no other process does, and takes it again after losing it with a connection (another
   * process may have taken it meanwhile): `held()` says whether this process holds it now.
   */
  lease(lock: ProcessLock): Promise<{ held(): boolean }>;
  /** Whether notifications are heard now (always on PGlite) and since when they are not. */
  listenHealth(): { listening: boolean; downSince: number | null };
  /** Called when notifications are heard again after a gap: whatever was sent meanwhile was lost. */
  onListenRestored(listener: (gapMs: number) => void): () => void;
  close(): Promise<void>;
}

/**
 * Advisory locks between server processes on one PostgreSQL (README scale-out). PGlite has one process per
 * folder (the DATA_DIR lock), so there every lock is granted at once. Any fixed numbers, distinct from each other.
 */
const PROCESS_LOCKS = { startup: 7_202_612, demoBidders: 7_202_613 } as const;
export type ProcessLock = keyof typeof PROCESS_LOCKS;

// bigint columns come back from node-postgres as strings; ids and fen fit in a JS number up to 2^53
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * What the opener does to the Drizzle handle before anyone uses it: the event bus (lib/events.ts) makes every
 * transaction deliver its events after the commit. Passed in, so the database layer imports nothing above it.
 */
export type DbDecorator = (db: Db, options: { singleProcess?: boolean }) => Db;

/** Embedded PostgreSQL: `dataDir` on disk, or in memory when omitted (tests). */
export async function openPgliteWith(decorate: DbDecorator, dataDir?: string): Promise<Database> {
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  // each transaction's handle knows its instance, so statements prepared on the instance run inside transactions too
  const transaction = client.transaction.bind(client);
  client.transaction = (work) => transaction((tx) => (pgliteOfTransaction.set(tx, client), work(tx)));
  const db = decorate(drizzlePglite(client, { schema }) as unknown as Db, { singleProcess: true });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    listen: (channel, handler) => client.listen(channel, handler),
    exclusively: (_lock, work) => work(),
    lease: async () => ({ held: () => true }),
    listenHealth: () => ({ listening: true, downSince: null }),
    onListenRestored: () => () => undefined,
    close: () => client.close(),
  };
}

// any fixed number: the advisory lock that serialises migrations across processes on one server
const MIGRATION_LOCK_ID = 7_202_611;

export async function openPostgresWith(decorate: DbDecorator, url: string, max = 10): Promise<Database> {
  // node-postgres prepares named statements per connection: a new connection after an outage prepares them again
  const pool = new pg.Pool({ connectionString: url, max, ...SERVER_CONNECTION });
  const leases: AdvisoryLease[] = [];
  // an idle connection dropped by the server (restart, failover) must not crash the process; the pool reconnects
  pool.on('error', (err) => console.warn(`PostgreSQL 空闲连接断开: ${err.message}`));
  // a connection checked out of the pool has no error listener of the pool's: one lost between two statements of a
  // transaction would be an unhandled 'error' event, which ends the process. The statement running, or the next
  // one, fails instead ("not queryable"), and the request is answered 503.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const notifications = new NotificationConnection({ connectionString: url });
  const db = decorate(drizzlePg(pool, { schema }) as unknown as Db, {});
  return {
    db,
    kind: 'postgres',
    pool,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        client.release();
      }
    },
    listen: (channel, handler) => notifications.listen(channel, handler),
    listenHealth: () => notifications.health(),
    onListenRestored: (listener) => notifications.onRestored(listener),
    async exclusively(lock, work) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [PROCESS_LOCKS[lock]]);
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [PROCESS_LOCKS[lock]]).catch(() => undefined);
        client.release();
      }
    },
    async lease(lock) {
      // a connection of its own, outside the pool: the lock lives as long as it does
      const lease = new AdvisoryLease({ connectionString: url }, PROCESS_LOCKS[lock]);
      leases.push(lease);
      await lease.start();
      return lease;
    },
    async close() {
      await Promise.all(leases.splice(0).map((lease) => lease.stop()));
      await notifications.stop();
      await pool.end();
    },
  };
}

/** A value as an SQL literal (standard_conforming_strings: a quote is escaped by doubling it). */
function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  // an array as the text of a PostgreSQL array (the statement casts it): elements quoted, NULL as NULL
  if (Array.isArray(value)) return sqlLiteral(`{${value.map(arrayElement).join(',')}}`);
  throw new Error(`no SQL literal for ${typeof value}`);
}

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return sqlLiteral(value);
  if (typeof value === 'string') return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  throw new Error(`no SQL array element for ${typeof value}`);
}

/** The PGlite instance a transaction handle runs on (set by openPglite). */
const pgliteOfTransaction = new WeakMap<object, PGlite>();

/** Statements PREPAREd on each PGlite instance (its one backend keeps them for as long as it is open). */
const preparedOnPglite = new WeakMap<PGlite, Set<string>>();

/**
 * Runs a statement whose text never changes, for the hottest paths, so the database parses and plans it once:
 * node-postgres prepares it by name once per connection; on PGlite it is PREPAREd once and run with EXECUTE.
 * `$1…` parameters. Inside a transaction it runs on the transaction's connection (on PGlite the instance's one
 * backend, where statements prepared in or out of transactions serve both).
 */
export async function queryPrepared<Row>(db: Db | Tx, statement: { name: string; text: string }, values: unknown[]): Promise<Row[]> {
  type Runner = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>; exec(text: string): Promise<unknown> };
  const client = (db as unknown as { session: { client: pg.Pool | pg.Client | PGlite | Runner } }).session.client;
  if (client instanceof pg.Pool || client instanceof pg.Client) return (await client.query({ ...statement, values })).rows as Row[];
  const instance = client instanceof PGlite ? client : pgliteOfTransaction.get(client);
  if (!instance) return (await client.query(statement.text, values)).rows as Row[];
  let prepared = preparedOnPglite.get(instance);
  if (!prepared) preparedOnPglite.set(instance, (prepared = new Set()));
  // PREPARE is not undone by a rollback: once made on the instance, it stays for every later transaction
  if (!prepared.has(statement.name)) {
    await client.exec(`PREPARE ${statement.name} AS ${statement.text}`);
    prepared.add(statement.name);
  }
  // EXECUTE takes no bound parameters: its arguments are written as literals, sent as a simple query
  // (a statement without parameters is executed without parentheses: `EXECUTE name()` is a syntax error)
  const args = values.length ? `(${values.map(sqlLiteral).join(', ')})` : '';
  const [result] = (await client.exec(`EXECUTE ${statement.name}${args}`)) as { rows: unknown[] }[];
  return (result?.rows ?? []) as Row[];
}

/** A raw row (snake_case columns, driver values) as Drizzle's select of the whole table gives it. */
export function rowOf<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
