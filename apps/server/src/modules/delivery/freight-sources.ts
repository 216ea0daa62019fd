import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dispatches, type Dispatch } from '../../db/schema/index';
import { ordersByIds } from '../order/order-delivery.service';

/**
 * What freight settlement needs from delivery: the signed trucks an enterprise sent, with their order's price and
 * transit-loss tolerance (from the order module). The freight module keeps only its own statements.
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

/** The trucks with their orders' numbers, prices and tolerances: two queries for any number of trucks. */
async function withOrders(db: Db | Tx, rows: Dispatch[]): Promise<FreightTruck[]> {
  const orderMap = await ordersByIds(db, rows.map((r) => r.orderId));
  return rows.map((r) => {
    const order = orderMap.get(r.orderId)!;
    return {
      dispatchId: r.id,
      dispatchNo: r.dispatchNo,
      enterpriseId: r.enterpriseId,
      status: r.status,
      orderId: r.orderId,
      orderNo: order.orderNo,
      driverId: r.driverId,
      driverName: r.driverName,
      plateNo: r.plateNo,
      signedAt: r.signedAt,
      loadedNetKg: r.loadedNetKg ?? 0,
      arrivedNetKg: r.arrivedNetKg ?? 0,
      signedKg: r.signedKg ?? 0,
      lossKg: r.lossKg ?? 0,
      transitLossPct: order.terms.transitLossPct,
      orderPriceFen: order.priceFen,
    };
  });
}

/** The enterprise's signed trucks signed for within the Shanghai days [from, to], of one driver when given. */
export async function signedTrucksInPeriod(db: Db | Tx, enterpriseId: number, period: { from: string; to: string; driverId?: number }): Promise<FreightTruck[]> {
  const rows = await db
    .select()
    .from(dispatches)
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
  return withOrders(db, rows);
}

/** Trucks by id, whoever sent them (the caller refuses another enterprise's as not found). */
export async function trucksByIds(db: Db | Tx, ids: readonly number[]): Promise<FreightTruck[]> {
  if (ids.length === 0) return [];
  return withOrders(db, await db.select().from(dispatches).where(inArray(dispatches.id, [...ids])));
}
