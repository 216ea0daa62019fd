import { ORDER_DISPATCHABLE_STATES, OrderStates, type ContractTerms, type MoveOf } from '@coalx/shared';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { orderEvents, orders, type NewOrder, type Order } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { orderPolicy, orderSideOf } from './order.policy';

/**
 * The order's core, which delivery and settlement build on: making an order from an effective contract, reading
 * it for a party, moving its status and writing its timeline. Payment, lists and pages are in the files beside.
 */

/** Prepayment = contract amount × ratio, rounded half up to the fen (both integers, so exact). */
export function prepaymentOf(amountFen: number, prepaymentPct: number): number {
  return Math.floor((amountFen * prepaymentPct + 50) / 100);
}

export type NewOrderInput = Omit<NewOrder, 'id' | 'orderNo' | 'status' | 'escrowFen' | 'prepaymentFen' | 'createdAt' | 'updatedAt'> & {
  terms: ContractTerms;
  createdAt: Date;
};

/**
 * Makes the order of one contract, inside the caller's transaction (the contract moves to 履行中 in the same one).
 * The unique contract id keeps one of two racing makers; the loser gets null. A contract with no prepayment starts
 * at 待发货 at once.
 */
export async function insertOrder(tx: Tx, input: NewOrderInput): Promise<Order | null> {
  const [existing] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.contractId, input.contractId)).limit(1);
  if (existing) return null;
  const orderNo = await nextTradeNumber(tx, 'DD', input.createdAt);
  const prepaymentFen = prepaymentOf(input.amountFen, input.terms.prepaymentPct);
  const [created] = await tx
    .insert(orders)
    .values({ ...input, orderNo, prepaymentFen, updatedAt: input.createdAt })
    .onConflictDoNothing({ target: orders.contractId })
    .returning();
  if (!created) return null;
  await recordOrderEvent(tx, { orderId: created.id, action: '生成订单', actor: null, note: `合同 ${created.contractNo} 生效`, at: input.createdAt });
  if (prepaymentFen === 0) {
    const paid = await moveOrder(tx, created.id, 'pay', { paidAt: input.createdAt });
    await recordOrderEvent(tx, { orderId: created.id, action: '无需预付', actor: null, note: '合同约定预付比例为 0，订单直接进入待发货', at: input.createdAt });
    return paid;
  }
  return created;
}

export async function orderOfContract(db: Db | Tx, contractId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.contractId, contractId)).limit(1);
  return row ?? null;
}

/** SQL true when the contract (by its id column) has no order yet: for the sweep of flows/make-order.ts. */
export function hasNoOrder(contractId: PgColumn): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.contractId} = ${contractId})`;
}

export async function findOrder(db: Db | Tx, id: number, forUpdate = false): Promise<Order> {
  const query = db.select().from(orders).where(eq(orders.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('订单不存在');
  return row;
}

/**
 * An order the actor may see (a party or the trading centre), with the actor's side; another enterprise's order is
 * "not found". `forUpdate` locks the row for the rest of the transaction (dispatching against the quantity).
 */
export async function orderForActor(db: Db | Tx, actor: Actor, id: number, forUpdate = false) {
  const order = await findOrder(db, id, forUpdate);
  orderPolicy.can(actor, 'view', order);
  return { order, side: orderSideOf(actor, order) };
}

export function moveOrder(tx: Tx | Db, id: number, name: MoveOf<typeof OrderStates>, set: Partial<NewOrder> = {}) {
  return transition(tx, OrderStates, name, { table: orders, where: eq(orders.id, id), set: { ...set, updatedAt: new Date() }, notFoundMessage: '订单不存在' });
}

/** Same, but an order already in the target state is left alone (null): for the scheduler and replays. */
export function moveOrderIfNeeded(tx: Tx | Db, id: number, name: MoveOf<typeof OrderStates>, set: Partial<NewOrder> = {}) {
  return transition(tx, OrderStates, name, {
    table: orders,
    where: eq(orders.id, id),
    set: { ...set, updatedAt: new Date() },
    notFoundMessage: '订单不存在',
    idempotent: true,
  });
}

/** One line of the order's timeline; `actor` null is the system (scheduler, automatic moves). */
export async function recordOrderEvent(
  tx: Tx | Db,
  input: { orderId: number; action: string; actor: { userId: number | null; username: string } | null; note?: string; at: Date },
) {
  await tx.insert(orderEvents).values({
    orderId: input.orderId,
    action: input.action,
    actorUserId: input.actor?.userId ?? null,
    actorName: input.actor?.username ?? '系统',
    note: input.note ?? '',
    at: input.at,
  });
}

export async function orderTimeline(db: Db | Tx, orderId: number) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.at, orderEvents.id);
}

// ---------- delivery progress (called by the delivery module inside its transaction) ----------

/** The most that may be planned against the order: the contract quantity plus its tolerance (溢短装). */
export function maxDeliverableKg(order: Pick<Order, 'quantityKg' | 'terms'>): number {
  return Math.floor((order.quantityKg * (100 + order.terms.quantityTolerancePct)) / 100);
}

/** maxDeliverableKg of the order row, in SQL, for the conditional updates below. */
const MAX_DELIVERABLE_KG = sql`floor(${orders.quantityKg} * (100 + (${orders.terms}->>'quantityTolerancePct')::numeric) / 100)`;

/**
 * Plans `kg` more against the order, in one conditional UPDATE: of any number of concurrent dispatches, only
 * those that still fit under the contract quantity plus tolerance succeed. Returns the order after, or null
 * when it does not fit (or the order no longer takes trucks).
 */
export async function reservePlannedKg(tx: Tx, orderId: number, kg: number): Promise<Order | null> {
  const [updated] = await tx
    .update(orders)
    .set({ plannedKg: sql`${orders.plannedKg} + ${kg}`, dispatchedTrucks: sql`${orders.dispatchedTrucks} + 1`, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...ORDER_DISPATCHABLE_STATES]), sql`${orders.plannedKg} + ${kg} <= ${MAX_DELIVERABLE_KG}`))
    .returning();
  return updated ?? null;
}

/**
 * Counts a truck's loading net on the order in one conditional UPDATE, the same way: of concurrent loadings only
 * those that keep the loaded total within the contract quantity plus tolerance succeed (null: it does not fit).
 */
export async function addLoadedKg(tx: Tx, orderId: number, kg: number): Promise<Order | null> {
  const [updated] = await tx
    .update(orders)
    .set({ loadedKg: sql`${orders.loadedKg} + ${kg}`, loadedTrucks: sql`${orders.loadedTrucks} + 1`, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), sql`${orders.loadedKg} + ${kg} <= ${MAX_DELIVERABLE_KG}`))
    .returning();
  return updated ?? null;
}

/** Counters a truck's move changes (negative to give back: a cancelled or refused truck). */
export interface DeliveryProgressDelta {
  plannedKg?: number;
  dispatchedTrucks?: number;
  loadedKg?: number;
  loadedTrucks?: number;
  arrivedKg?: number;
  arrivedTrucks?: number;
  signedKg?: number;
  signedTrucks?: number;
}

export async function addDeliveryProgress(tx: Tx, orderId: number, delta: DeliveryProgressDelta): Promise<Order> {
  const set: Record<string, SQL | Date> = { updatedAt: new Date() };
  for (const [key, value] of Object.entries(delta) as [keyof DeliveryProgressDelta, number][]) {
    if (value) set[key] = sql`${orders[key]} + ${value}`;
  }
  const [updated] = await tx.update(orders).set(set).where(eq(orders.id, orderId)).returning();
  if (!updated) throw notFound('订单不存在');
  return updated;
}

// ---------- settlement and invoices (called by those modules inside their transactions) ----------

/**
 * The settlement statement was confirmed and its money moved (in the caller's transaction): the order is 已结算,
 * remembers the statement and the settled amount (what the VAT invoices must total), and its escrow is spent.
 */
export async function markOrderSettled(tx: Tx, orderId: number, input: { statementNo: string; settledFen: number; at: Date; actor: Pick<Actor, 'userId' | 'username'> | null }) {
  const order = await moveOrder(tx, orderId, 'settle', { settlementNo: input.statementNo, settledFen: input.settledFen, settledAt: input.at, escrowFen: 0 });
  await recordOrderEvent(tx, { orderId, action: '结算完成', actor: input.actor, note: `结算单 ${input.statementNo}`, at: input.at });
  return order;
}
