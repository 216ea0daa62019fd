/**
 * 审计链: the audit trail as a hash chain (issue 27 item 3; README "审计链 (操作日志防篡改)").
 *
 * Rows are inserted unchained (audit.service.ts). The chaining step below gives each row, once and in id order, its
 * chain position (chain_seq = 1, 2, …) and
 *   hash = hex(SHA-256(UTF-8(previous hash ‖ canonical text))), the first row's previous hash being GENESIS_HASH;
 * the canonical text is `(to_jsonb(row) - 'chain_seq' - 'hash')::text` with TimeZone UTC. PostgreSQL's jsonb text is
 * canonical: keys sorted (shorter first, then bytewise) and unique, one space after `:` and `,`, numbers as stored,
 * strings escaped the same way every time; PGlite runs the same code (the tests compare both). Every column is in it,
 * so a column added later is covered from the next row chained on (sys_audit_chain_columns remembers which columns
 * each stretch of the chain covers).
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';

/** The previous hash of the first row: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** Taken by every chaining transaction, so two processes never chain at once (any fixed number, see db/client.ts). */
const CHAIN_LOCK = 7_202_620;

/** Rows chained per transaction: short transactions, and a backlog still clears in one call. */
const CHAIN_BATCH = 1000;

/**
 * The session settings the canonical text depends on, fixed for the transaction: to_jsonb writes a timestamptz in
 * the session's time zone, and bytea, intervals and floats by these settings, should such columns ever come.
 */
export const CANONICAL_SETTINGS = sql`SELECT set_config('TimeZone', 'UTC', true), set_config('bytea_output', 'hex', true),
  set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '1', true)`;

export interface ChainHead {
  chainSeq: number;
  hash: string;
}

export function chainHash(previousHash: string, canonical: string): string {
  return createHash('sha256').update(previousHash + canonical, 'utf8').digest('hex');
}

/** PGlite and node-postgres both answer db.execute with { rows }. */
export async function rowsOf<Row>(db: Db | Tx, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

export async function auditChainHead(db: Db | Tx): Promise<ChainHead | null> {
  const [row] = await rowsOf<{ chain_seq: number; hash: string }>(
    db,
    sql`SELECT chain_seq, hash FROM sys_audit_log WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1`,
  );
  return row ? { chainSeq: Number(row.chain_seq), hash: row.hash } : null;
}

/** Links every row not yet chained (the scheduler's step, also called before a seal and by tests). */
export async function chainAuditRows(db: Db): Promise<number> {
  let chained = 0;
  for (;;) {
    // a cheap look first (a partial index): most rounds find nothing and open no transaction
    const waiting = await rowsOf(db, sql`SELECT 1 FROM sys_audit_log WHERE chain_seq IS NULL LIMIT 1`);
    if (!waiting.length) return chained;
    const batch = await db.transaction((tx) => chainBatch(tx));
    chained += batch;
    if (batch < CHAIN_BATCH) return chained;
  }
}

async function chainBatch(tx: Tx): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHAIN_LOCK}::bigint)`);
  await tx.execute(CANONICAL_SETTINGS);
  // read first: it holds the table against ALTER TABLE until the commit, so the column list read below stays true
  const head = await auditChainHead(tx);
  const rows = await rowsOf<{ id: number; canonical: string }>(
    tx,
    sql`SELECT id, (to_jsonb(l) - 'chain_seq' - 'hash')::text AS canonical
      FROM sys_audit_log l WHERE chain_seq IS NULL ORDER BY id LIMIT ${CHAIN_BATCH}`,
  );
  if (!rows.length) return 0; // another process chained them while this one waited for the lock
  const firstSeq = (head?.chainSeq ?? 0) + 1;
  // the columns hashed from here on, noted when they differ from the last note (first chaining, a column added)
  await tx.execute(sql`
    INSERT INTO sys_audit_chain_columns (from_chain_seq, columns)
    SELECT ${firstSeq}::bigint, present.columns
    FROM (SELECT array_agg(attname::text ORDER BY attname) AS columns FROM pg_attribute
      WHERE attrelid = 'sys_audit_log'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('chain_seq', 'hash')) present
    WHERE present.columns IS DISTINCT FROM (SELECT columns FROM sys_audit_chain_columns ORDER BY from_chain_seq DESC LIMIT 1)`);
  let previous = head?.hash ?? GENESIS_HASH;
  const links = rows.map((row, i) => {
    previous = chainHash(previous, row.canonical);
    return { id: Number(row.id), seq: firstSeq + i, hash: previous };
  });
  await tx.execute(sql`
    UPDATE sys_audit_log l SET chain_seq = v.seq, hash = v.hash
    FROM json_to_recordset(${JSON.stringify(links)}::json) AS v(id bigint, seq bigint, hash text)
    WHERE l.id = v.id`);
  return rows.length;
}

/**
 * Every chained row in chain order with its canonical text as it was hashed: the columns of the stretch it belongs
 * to (sys_audit_chain_columns), which leaves out chain_seq, hash and any column added after the row was chained. The
 * README gives the same query to an outside auditor.
 */
export function chainedRowsAfter(afterSeq: number, limit: number): SQL {
  return sql`
    SELECT l.id, l.chain_seq, l.hash,
      (to_jsonb(l) - ARRAY(SELECT k FROM jsonb_object_keys(to_jsonb(l)) AS k WHERE k <> ALL (c.columns)))::text AS canonical
    FROM sys_audit_log l
    LEFT JOIN LATERAL (SELECT columns FROM sys_audit_chain_columns
      WHERE from_chain_seq <= l.chain_seq ORDER BY from_chain_seq DESC LIMIT 1) c ON true
    WHERE l.chain_seq > ${afterSeq}::bigint
    ORDER BY l.chain_seq LIMIT ${limit}`;
}

const VERIFY_PAGE = 2000;

export interface BrokenRow {
  id: number;
  chainSeq: number;
  reason: string;
}

export interface ChainCheck {
  rows: number;
  chained: number;
  /** Rows the chaining step has not reached yet (written since its last round). */
  unchained: number;
  head: ChainHead | null;
  /** The first breaks in chain order (at most MAX_LISTED), and how many there are. */
  broken: BrokenRow[];
  brokenCount: number;
  /** The stored hash at each position asked for (the seals' heads). */
  hashAt: Map<number, string>;
}

const MAX_LISTED = 20;

/**
 * Recomputes the chain from the stored rows: each row's hash from the previous row's stored hash and its own
 * canonical text, and the positions 1, 2, … without a gap. Linking through the stored hashes names each changed row
 * by itself (a row changed with its hash recomputed shows at the next row, or at a seal); when every row passes, the
 * stored hashes are exactly those recomputed from GENESIS_HASH. Read in one snapshot (run it inside one).
 */
export async function checkAuditChain(tx: Tx, positionsWanted: ReadonlySet<number> = new Set()): Promise<ChainCheck> {
  await tx.execute(CANONICAL_SETTINGS);
  const [counts] = await rowsOf<{ rows: number; chained: number }>(tx, sql`SELECT count(*)::int AS rows, count(chain_seq)::int AS chained FROM sys_audit_log`);
  const check: ChainCheck = { rows: counts!.rows, chained: counts!.chained, unchained: counts!.rows - counts!.chained, head: null, broken: [], brokenCount: 0, hashAt: new Map() };
  const breakAt = (row: BrokenRow) => {
    check.brokenCount += 1;
    if (check.broken.length < MAX_LISTED) check.broken.push(row);
  };
  let previous: ChainHead = { chainSeq: 0, hash: GENESIS_HASH };
  for (;;) {
    const page = await rowsOf<{ id: number; chain_seq: number; hash: string | null; canonical: string }>(tx, chainedRowsAfter(previous.chainSeq, VERIFY_PAGE));
    for (const raw of page) {
      const row = { id: Number(raw.id), chainSeq: Number(raw.chain_seq), hash: raw.hash ?? '' };
      if (row.chainSeq !== previous.chainSeq + 1) {
        const missing = row.chainSeq - 1 === previous.chainSeq + 1 ? `第 ${previous.chainSeq + 1} 号` : `第 ${previous.chainSeq + 1} 至 ${row.chainSeq - 1} 号`;
        breakAt({ id: row.id, chainSeq: row.chainSeq, reason: `链中缺少${missing}记录 (被删除)` });
      } else if (chainHash(previous.hash, raw.canonical) !== row.hash) {
        breakAt({ id: row.id, chainSeq: row.chainSeq, reason: '哈希不符: 该记录的内容或哈希被改动' });
      }
      if (positionsWanted.has(row.chainSeq)) check.hashAt.set(row.chainSeq, row.hash);
      previous = { chainSeq: row.chainSeq, hash: row.hash };
    }
    if (page.length < VERIFY_PAGE) break;
  }
  if (previous.chainSeq > 0) check.head = previous;
  return check;
}
