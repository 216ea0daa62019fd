/**
 * The small vocabulary the busy-year generator writes its SQL with: deterministic pseudo-random numbers from the
 * row number and the seed, Asia/Shanghai times, and the app's number formats (GP20261122 0001, ¥1,234.56, 3,000 吨).
 * Every value a statement needs is an integer or a fixed text written here, never user input, so the statements
 * are built as text.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';

/** A deterministic number in [0, 2^31) from an SQL integer expression, a salt per use and the run's seed. */
export function hashOf(seed: number, expr: string, salt: number): string {
  return `(hashint8((${expr})::bigint * 7919 + ${salt * 1_000_003 + seed * 104_729}) & 2147483647)`;
}

/** An SQL text literal. */
export const lit = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** An SQL array of text literals, indexed from 1. */
export const textArray = (items: readonly string[]) => `ARRAY[${items.map(lit).join(',')}]::text[]`;

/** Picks one item of a text array by a hash: `pick(ARRAY, hash)`. */
export const pick = (items: readonly string[], hash: string) => `(${textArray(items)})[1 + (${hash}) % ${items.length}]`;

/** The Shanghai calendar day of an instant as YYYYMMDD (trade numbers) or YYYY-MM-DD. */
export const shanghaiDay = (ts: string) => `to_char((${ts}) AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDD')`;
export const shanghaiDate = (ts: string) => `to_char((${ts}) AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD')`;
/** '2026年11月2日' as the contract text writes a date. */
export const chineseDate = (ts: string) => `to_char((${ts}) AT TIME ZONE 'Asia/Shanghai', 'YYYY"年"FMMM"月"FMDD"日"')`;
/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai (formatDateTime). */
export const shanghaiDateTime = (ts: string) => `to_char((${ts}) AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS')`;
/** An ISO instant in UTC with milliseconds, as JSON and the bid log write it. */
export const isoInstant = (ts: string) => `to_char((${ts}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** The instant of a Shanghai day's start plus whole days: `shanghaiDayStart(ts, 1)` is the next midnight. */
export const shanghaiDayStart = (ts: string, days = 0) =>
  `((date_trunc('day', (${ts}) AT TIME ZONE 'Asia/Shanghai') + interval '${days} day') AT TIME ZONE 'Asia/Shanghai')`;

/** Integer fen → '2,550,000.00' (formatFen). */
export const fenText = (fen: string) => `(to_char((${fen}) / 100, 'FM999,999,999,999,990') || '.' || lpad(((${fen}) % 100)::text, 2, '0'))`;
/** Integer kg → '3,000 吨' or '1,000.5 吨' (formatContractTons). */
export const tonsText = (kg: string) =>
  `(to_char((${kg}) / 1000, 'FM999,999,999,990') || CASE WHEN (${kg}) % 1000 = 0 THEN '' ELSE '.' || rtrim(lpad(((${kg}) % 1000)::text, 3, '0'), '0') END || ' 吨')`;
/** Integer kg → '39.70 吨' as order and truck notes write tons. */
export const tonsShort = (kg: string) => `(to_char((${kg}) / 1000.0, 'FM999,999,990.00') || ' 吨')`;

/** The next number of a kind on each day: `prefix + YYYYMMDD + 4 digits`, after those the day already handed out. */
export function numbered(prefix: string, dayExpr: string, orderExpr: string, partition = ''): string {
  return `'${prefix}' || ${dayExpr} || lpad((row_number() OVER (PARTITION BY ${partition ? `${partition}, ` : ''}${dayExpr} ORDER BY ${orderExpr}) + COALESCE((SELECT last FROM trade_sequence ts WHERE ts.prefix = '${prefix}' AND ts.day = ${dayExpr}), 0))::text, 4, '0')`;
}

/** Runs one statement; PGlite answers affectedRows, node-postgres rowCount. */
export async function run(tx: Db | Tx, text: string): Promise<number> {
  const result = (await tx.execute(sql.raw(text))) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}

export async function rows<Row>(tx: Db | Tx, text: string): Promise<Row[]> {
  return ((await tx.execute(sql.raw(text))) as unknown as { rows: Row[] }).rows;
}

export async function scalar(tx: Db | Tx, text: string): Promise<number> {
  const [row] = await rows<{ v: unknown }>(tx, text);
  return Number(row?.v ?? 0);
}

/**
 * Takes `count` ids of a table's bigserial at once and returns the first: the rows are inserted with them, so the
 * staging tables can join on ids before anything is written. Past the table's largest id too, whatever the
 * sequence says.
 */
export async function reserveIds(tx: Db | Tx, table: string, count: number): Promise<number> {
  if (count <= 0) return 0;
  const seq = `pg_get_serial_sequence('${table}', 'id')`;
  const last = await scalar(tx, `SELECT setval(${seq}, GREATEST(nextval(${seq}), (SELECT COALESCE(max(id), 0) + 1 FROM ${table})) + ${count} - 1) AS v`);
  return last - count + 1;
}

/** Raises each day's counter of a kind to the numbers handed out (so the platform's next number follows them). */
export function advanceTradeSequence(prefix: string, fromTable: string, numberColumn: string): string {
  return `INSERT INTO trade_sequence (prefix, day, last)
    SELECT '${prefix}', substr(${numberColumn}, ${prefix.length + 1}, 8), max(substr(${numberColumn}, ${prefix.length + 9})::int)
    FROM ${fromTable} WHERE ${numberColumn} LIKE '${prefix}%' GROUP BY 2
    ON CONFLICT (prefix, day) DO UPDATE SET last = GREATEST(trade_sequence.last, EXCLUDED.last)`;
}

/**
 * `total` spread over the rows of `fromQuery` (columns idx, w: a positive weight) so the parts add up exactly to it:
 * each row gets `base` plus its share of what is left, the floors of the running sums' shares. Answers (idx, n).
 */
export function spread(fromQuery: string, total: number, base: number): string {
  // bigint throughout: sum() of integers is numeric, whose division would round instead of truncating
  return `SELECT idx, ${base} + (GREATEST(${total} - ${base} * cnt, 0) * cw / tw - GREATEST(${total} - ${base} * cnt, 0) * (cw - w) / tw)::int AS n
    FROM (SELECT idx, w::bigint AS w, (sum(w) OVER (ORDER BY idx))::bigint AS cw, (sum(w) OVER ())::bigint AS tw, count(*) OVER () AS cnt FROM (${fromQuery}) q) s`;
}
