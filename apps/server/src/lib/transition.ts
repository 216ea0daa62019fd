import { refusedMoveMessage, type ErrorCode, type StateMachine } from '@coalx/shared';
import { and, getTableColumns, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { AppError, notFound } from '../errors';
import { publish, type EventName } from './events';

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
  const { key, column } = statusColumnOf(target.table);
  const table = target.table as PgTable;
  const [moved] = (await tx
    .update(table)
    .set({ ...(target.set as object), [key]: step.to })
    .where(and(target.where, inArray(column, [...step.from])))
    .returning()) as RowOf<T>[];
  if (moved) {
    await publish(tx, step.event as EventName, { id: (moved as { id: number }).id, to: step.to } as never);
    return moved;
  }
  const [current] = (await tx.select({ status: column }).from(table).where(target.where).limit(1)) as { status: string }[];
  if (!current) throw notFound(target.notFoundMessage);
  if (target.idempotent && current.status === step.to) return null;
  throw new AppError(target.refusal ?? 'state_changed', refusedMoveMessage(machine, current.status, step.to));
}

/** The status column of a table with a transition table: `status`, or `audit_status` for enterprises. */
function statusColumnOf(table: PgTable): { key: string; column: PgColumn } {
  const columns = getTableColumns(table);
  const key = 'status' in columns ? 'status' : 'auditStatus' in columns ? 'auditStatus' : null;
  if (!key) throw new Error('table has no status column');
  return { key, column: columns[key]! };
}

