import { randomBytes } from 'node:crypto';
import { DispatchStates, OrderStates, stateLabel, type DispatchCreate } from '@coalx/shared';
import { and, count, eq, inArray, lte } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { dispatches, type Dispatch, type Driver, type Order } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { transition } from '../../lib/transition';
import { findStoredFile } from '../files/files.service';
import { findOrder } from '../order/order.service';
import { deliveryPolicy } from './delivery.policy';

/**
 * Trucks (派车单), delivery's own rows: reading one for an actor, saving a new one and moving it along
 * DispatchStates. The use cases that also move the order (its counters, its timeline) are in flows/.
 */

/** Trucks still on their way to an end: the seller may not declare delivery finished while one is. */
export const OPEN_TRUCK_STATES = ['dispatched', 'loaded', 'arrived', 'disputed'] as const;

type TruckMove = keyof typeof DispatchStates.moves;
type TruckSet = PgUpdateSetSource<typeof dispatches>;

export async function findTruck(db: Db | Tx, id: number, lock = false): Promise<Dispatch> {
  const query = db.select().from(dispatches).where(eq(dispatches.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('派车单不存在');
  return row;
}

/** The truck and its order, for a party of the order or the trading centre; anyone else: 派车单不存在. */
export async function truckForActor(db: Db | Tx, actor: Actor, id: number, lock = false) {
  const truck = await findTruck(db, id, lock);
  const order = await findOrder(db, truck.orderId);
  if (!deliveryPolicy.allows(actor, 'view', order)) throw notFound('派车单不存在');
  return { truck, order };
}

/** Trucks move only while the order ships (not once it is terminated or delivery is finished). */
export function requireShipping(order: Order, what: string) {
  if (order.status !== 'shipping') throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能${what}`);
}

/** A photo the actor's enterprise uploaded (private, an image): checked before the transaction, owned inside it. */
export async function requireImage(db: Db, key: string, label: string) {
  const file = await findStoredFile(db, key);
  if (!file || !file.contentType.startsWith('image/')) throw appError('attachment_invalid', `${label}须为已上传的 JPG 或 PNG 图片，请重新上传`);
}

/** The weight that counts for a truck: the net on the contract's weighing basis (the seller's scale: loading net;
 * the buyer's, or a third party's at the receiving end: arrival net). */
export function netOnBasis(order: Order, truck: Dispatch): number {
  return (order.terms.weighingBasis === 'seller' ? truck.loadedNetKg : truck.arrivedNetKg) ?? 0;
}

/** How many of the order's trucks are still on their way. */
export async function openTrucks(tx: Tx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(dispatches)
    .where(and(eq(dispatches.orderId, orderId), inArray(dispatches.status, [...OPEN_TRUCK_STATES])));
  return Number(row?.n ?? 0);
}

/** A new truck of the driver against the order, with the QR token the mine gate opens it by. */
export async function insertTruck(
  tx: Tx,
  actor: Actor,
  order: Order,
  driver: Driver,
  input: DispatchCreate,
  dispatchNo: string,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(dispatches)
    .values({
      dispatchNo,
      orderId: order.id,
      enterpriseId: actor.enterpriseId!,
      driverId: driver.id,
      driverName: driver.name,
      driverMobile: driver.mobile,
      driverIdCardNo: driver.idCardNo,
      plateNo: driver.plateNo,
      vehicleType: driver.vehicleType,
      ratedLoadKg: driver.ratedLoadKg,
      plannedKg: input.plannedKg,
      planDate: input.planDate,
      gateToken: randomBytes(24).toString('base64url'),
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: dispatches.id });
  return row!.id;
}

/** One move of the truck (DispatchStates), saved with the columns it sets. */
export function moveTruck(tx: Tx, id: number, move: TruckMove, set: TruckSet) {
  return transition(tx, DispatchStates, move, { table: dispatches, where: eq(dispatches.id, id), set, notFoundMessage: '派车单不存在' });
}

/** The same for the scheduler: a truck already moved there is no error (null). */
export function moveTruckIfNeeded(tx: Tx, id: number, move: TruckMove, set: TruckSet) {
  return transition(tx, DispatchStates, move, { table: dispatches, where: eq(dispatches.id, id), set, idempotent: true });
}

/** The seller's answer to a dispute, kept while the truck is still 有异议. */
export async function saveSellerAnswer(tx: Tx, id: number, answer: string, now: Date) {
  await tx.update(dispatches).set({ sellerAnswer: answer, answeredAt: now, updatedAt: now }).where(and(eq(dispatches.id, id), eq(dispatches.status, 'disputed')));
}

/** Arrived trucks past their auto sign-for time, the oldest first, at most 200 a run. */
export async function trucksDueForAutoSign(db: Db, now: Date): Promise<number[]> {
  const due = await db
    .select({ id: dispatches.id })
    .from(dispatches)
    .where(and(eq(dispatches.status, 'arrived'), lte(dispatches.autoSignAt, now)))
    .orderBy(dispatches.autoSignAt)
    .limit(200);
  return due.map((d) => d.id);
}
