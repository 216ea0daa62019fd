import { refusedMoveMessage, type ErrorCode, type MarketStateMachine, type StateMachine } from '@coalx/shared';
import { and, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { AppError, notFound } from '../errors';
import { publish, type EventName } from './events';
import { sqlLiteral } from './sql-literal';

export interface TransitionTarget<T extends PgTable> {
  table: T;
  /** The row to move, e.g. eq(listings.tradeNo, tradeNo). */
  where: SQL;
  /** Other columns saved with the move (audit time, reason, reviewer). */
  set?: PgUpdateSetSource<T>;
  /** Said when the row does not exist. */
  notFoundMessage?: string;
  /** Refusal code (409) when the row is not in a from-state; default `state_changed`. */
  refusal?: ErrorCode;
  /** A row already in the target state is not an error: null is returned and nothing is published. */
  idempotent?: boolean;
  /** What the event carries besides the row's id and new state (a market move: the trade number its listeners key on). */
  announce?: (row: T['$inferSelect']) => Record<string, unknown>;
}

type RowOf<T extends PgTable> = T['$inferSelect'];

/**
 * The one way a status changes: checks the move against its table in packages/shared, saves it with a conditional
 * UPDATE (the row must still be in a from-state, so of two racing moves only one wins) and publishes the move's
 * event, all inside the caller's transaction. A refused or lost move is a 409 naming both states in Chinese.
 */
export async function transition<T extends PgTable & { id: PgColumn }, M extends string>(
  tx: Tx | Db,
  machine: StateMachine<string, M>,
  move: NoInfer<M>,
  target: TransitionTarget<T> & { idempotent: true },
): Promise<RowOf<T> | null>;
export async function transition<T extends PgTable & { id: PgColumn }, M extends string>(
  tx: Tx | Db,
  machine: StateMachine<string, M>,
  move: NoInfer<M>,
  target: TransitionTarget<T>,
): Promise<RowOf<T>>;
export async function transition<T extends PgTable & { id: PgColumn }, M extends string>(
  tx: Tx | Db,
  machine: StateMachine<string, M>,
  move: NoInfer<M>,
  target: TransitionTarget<T>,
): Promise<RowOf<T> | null> {
  const step = machine.moves[move];
  const { key, column, encode, decode } = statusColumnOf(target.table, machine);
  const table = target.table as PgTable;
  const [moved] = (await tx
    .update(table)
    .set({ ...(target.set as object), [key]: encode(step.to) })
    .where(and(target.where, inArray(column, step.from.map(encode))))
    .returning()) as RowOf<T>[];
  if (moved) {
    await announceMove(tx, step, moved, target.announce);
    return moved;
  }
  const [current] = (await tx.select({ status: column }).from(table).where(target.where).limit(1)) as { status: string | number }[];
  if (!current) throw notFound(target.notFoundMessage);
  if (target.idempotent && current.status === encode(step.to)) return null;
  throw new AppError(target.refusal ?? 'state_changed', refusedMoveMessage(machine, decode(current.status), step.to));
}

/**
 * The set-based form, for a move of many rows at once (the scheduler): one conditional UPDATE of every row `where`
 * selects that is still in a from-state, and one event per moved row. Rows in no from-state are left as they are
 * (not an error: a racing move got there first); returns the moved rows.
 */
export async function transitionMany<T extends PgTable & { id: PgColumn }, M extends string>(
  tx: Tx | Db,
  machine: StateMachine<string, M>,
  move: NoInfer<M>,
  target: Pick<TransitionTarget<T>, 'table' | 'where' | 'set' | 'announce'>,
): Promise<RowOf<T>[]> {
  const step = machine.moves[move];
  const { key, column, encode } = statusColumnOf(target.table, machine);
  const moved = (await tx
    .update(target.table as PgTable)
    .set({ ...(target.set as object), [key]: encode(step.to) })
    .where(and(target.where, inArray(column, step.from.map(encode))))
    .returning()) as RowOf<T>[];
  for (const row of moved) await announceMove(tx, step, row, target.announce);
  return moved;
}

/** A move's event: the row's id and the state it entered, and what `announce` adds. */
async function announceMove<T extends PgTable>(tx: Tx | Db, step: { to: string; event: string }, row: RowOf<T>, announce?: (row: RowOf<T>) => Record<string, unknown>) {
  await publish(tx, step.event as EventName, { id: (row as { id: number }).id, to: step.to, ...announce?.(row) } as never);
}

/**
 * A market table's time rule (packages/shared/src/trade/market-states.ts) in SQL, the same rule `marketStateAt`
 * reads in TypeScript: the state's number for each row of `table` at `now`. Constants are literals (a bound
 * parameter inside CASE has no type).
 */
export function marketStateSql<T extends PgTable>(machine: MarketStateMachine, table: T, now: Date): SQL<number> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const col = (field: string) => {
    const c = columns[field];
    if (!c) throw new Error(`${machine.label}: the table has no column ${field}`);
    return c;
  };
  const code = (state: string) => sqlLiteral((machine.codes as Record<string, number>)[state]!);
  const { settled, before, after } = machine.timeRule;
  const settledIf = (when: (typeof settled)[number]['when']) =>
    'stored' in when ? sql`${col(machine.column)} = ${code(when.stored)}` : sql`${col(when.field)} >= ${col(when.atLeast)}`;
  const clauses = [...settled.map(({ when, state }) => sql`WHEN ${settledIf(when)} THEN ${code(state)}`), ...before.map(({ field, state }) => sql`WHEN ${now}::timestamptz < ${col(field)} THEN ${code(state)}`)];
  return sql<number>`(CASE
    ${sql.join(clauses, sql`\n    `)}
    ELSE ${code(after)} END)`;
}

/**
 * Moves every row `where` selects to the state its time rule gives at `now`, by the table's moves named in `moves`
 * (one conditional UPDATE each: the rows whose rule gives the move's target and that are in one of its from-states),
 * each moved row publishing its move's event. A row whose rule gives a state no listed move reaches stays as it is.
 */
export async function transitionByTime<T extends PgTable & { id: PgColumn }, M extends string>(
  tx: Tx | Db,
  machine: MarketStateMachine<string, M>,
  moves: readonly NoInfer<M>[],
  now: Date,
  target: Pick<TransitionTarget<T>, 'table' | 'where' | 'announce'> & { set?: (move: NoInfer<M>) => PgUpdateSetSource<T> },
): Promise<RowOf<T>[]> {
  const state = marketStateSql(machine, target.table, now);
  const moved: RowOf<T>[] = [];
  for (const move of moves) {
    const to = (machine.codes as Record<string, number>)[machine.moves[move].to]!;
    const where = and(target.where, sql`${state} = ${sqlLiteral(to)}`)!;
    moved.push(...(await transitionMany(tx, machine, move, { table: target.table, where, set: target.set?.(move), announce: target.announce })));
  }
  return moved;
}

/**
 * A market move written by a hot path inside its own constant statement (group commit), where a call per move would
 * cost a round trip: the move's from-states and target as SQL text, from its table, so the statement still makes
 * the table's move; the caller publishes the event when the stored state it replaced was one of `from`.
 */
export function inlineMarketMove<M extends string>(machine: MarketStateMachine<string, M>, move: M, column = 'hang_state') {
  const step = machine.moves[move];
  const codes = machine.codes as Record<string, number>;
  const from = step.from.map((s) => codes[s]!);
  const to = codes[step.to]!;
  return {
    /** `hang_state IN (…)`: the stored state is one the move leaves. */
    fromSql: `${column} IN (${from.join(', ')})`,
    toSql: String(to),
    to,
    event: step.event as EventName,
    state: step.to,
    /** Whether a row stored in `code` is moved by it (so its event is due). */
    moves: (code: number) => from.includes(code),
  };
}

/**
 * The column a table's state is saved in: `status`, `audit_status` for enterprises, or a market table's own column
 * (`hang_state`, saved as the state's number).
 */
function statusColumnOf(table: PgTable, machine: StateMachine) {
  const columns = getTableColumns(table);
  const market = 'codes' in machine ? (machine as MarketStateMachine) : null;
  const key = market ? market.column : 'status' in columns ? 'status' : 'auditStatus' in columns ? 'auditStatus' : null;
  if (!key || !columns[key]) throw new Error('table has no status column');
  const codes = (market?.codes ?? null) as Record<string, number> | null;
  return {
    key,
    column: columns[key]!,
    encode: (state: string): string | number => (codes ? codes[state]! : state),
    decode: (stored: string | number): string => (codes ? (Object.keys(codes).find((s) => codes[s] === stored) ?? String(stored)) : String(stored)),
  };
}

