import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { dispatches, drivers, orders } from '../db/schema/index';

/**
 * What freight settlement needs from delivery, orders and drivers: the signed trucks an enterprise sent, with the
 * order's price and transit-loss tolerance. Reads three modules' tables, so it lives in flows; the freight module
 * keeps only its own statements.
 */
export interface FreightTruck {
  dispatchId: number;
  dispatchNo: string;
  enterpriseId: number;
  status: string;
  orderId: number;
  orderNo: string;
  driverId: number;
  driverName: string;
  plateNo: string;
  signedAt: Date | null;
  loadedNetKg: number;
  arrivedNetKg: number;
  signedKg: number;
  lossKg: number;
  transitLossPct: number;
  orderPriceFen: number;
}

const DAY_MS = 86_400_000;
/** The instant a Shanghai day starts (UTC+8, no daylight saving). */
const shanghaiMidnight = (day: string) => new Date(Date.parse(`${day}T00:00:00+08:00`));

const truckColumns = {
  dispatchId: dispatches.id,
  dispatchNo: dispatches.dispatchNo,
  enterpriseId: dispatches.enterpriseId,
  status: dispatches.status,
  orderId: dispatches.orderId,
  orderNo: orders.orderNo,
  driverId: dispatches.driverId,
  driverName: dispatches.driverName,
  plateNo: dispatches.plateNo,
  signedAt: dispatches.signedAt,
  loadedNetKg: dispatches.loadedNetKg,
  arrivedNetKg: dispatches.arrivedNetKg,
  signedKg: dispatches.signedKg,
  lossKg: dispatches.lossKg,
  terms: orders.terms,
  orderPriceFen: orders.priceFen,
};

function present(row: { terms: { transitLossPct: number } } & Record<string, unknown>): FreightTruck {
  const r = row as unknown as FreightTruck & { terms: { transitLossPct: number }; loadedNetKg: number | null; arrivedNetKg: number | null; signedKg: number | null; lossKg: number | null };
  return {
    dispatchId: r.dispatchId,
    dispatchNo: r.dispatchNo,
    enterpriseId: r.enterpriseId,
    status: r.status,
    orderId: r.orderId,
    orderNo: r.orderNo,
    driverId: r.driverId,
    driverName: r.driverName,
    plateNo: r.plateNo,
    signedAt: r.signedAt,
    loadedNetKg: r.loadedNetKg ?? 0,
    arrivedNetKg: r.arrivedNetKg ?? 0,
    signedKg: r.signedKg ?? 0,
    lossKg: r.lossKg ?? 0,
    transitLossPct: r.terms.transitLossPct,
    orderPriceFen: r.orderPriceFen,
  };
}

/** The enterprise's signed trucks signed for within the Shanghai days [from, to], of one driver when given. */
export async function signedTrucksInPeriod(db: Db | Tx, enterpriseId: number, period: { from: string; to: string; driverId?: number }): Promise<FreightTruck[]> {
  const rows = await db
    .select(truckColumns)
    .from(dispatches)
    .innerJoin(orders, eq(orders.id, dispatches.orderId))
    .where(
      and(
        eq(dispatches.enterpriseId, enterpriseId),
        eq(dispatches.status, 'signed'),
        gte(dispatches.signedAt, shanghaiMidnight(period.from)),
        lt(dispatches.signedAt, new Date(shanghaiMidnight(period.to).getTime() + DAY_MS)),
        period.driverId ? eq(dispatches.driverId, period.driverId) : undefined,
      ),
    )
    .orderBy(asc(dispatches.signedAt), asc(dispatches.id))
    .limit(2000);
  return rows.map(present);
}

/** Trucks by id, whoever sent them (the caller refuses another enterprise's as not found). */
export async function trucksByIds(db: Db | Tx, ids: readonly number[]): Promise<FreightTruck[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(truckColumns).from(dispatches).innerJoin(orders, eq(orders.id, dispatches.orderId)).where(inArray(dispatches.id, [...ids]));
  return rows.map(present);
}

/** A driver of the enterprise, or null when he is not its own. */
export async function enterpriseDriver(db: Db | Tx, enterpriseId: number, driverId: number) {
  const [driver] = await db.select({ id: drivers.id, name: drivers.name, plateNo: drivers.plateNo, enterpriseId: drivers.enterpriseId }).from(drivers).where(eq(drivers.id, driverId)).limit(1);
  return driver && driver.enterpriseId === enterpriseId ? driver : null;
}

/** The drivers the enterprise registered (any state: a stopped driver may still be owed freight). */
export async function enterpriseDrivers(db: Db | Tx, enterpriseId: number) {
  return db.select({ id: drivers.id, name: drivers.name, plateNo: drivers.plateNo }).from(drivers).where(eq(drivers.enterpriseId, enterpriseId)).orderBy(asc(drivers.name), asc(drivers.id)).limit(500);
}
