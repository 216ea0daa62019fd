import { maxTruckKg, type DispatchDriver } from '@coalx/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { drivers } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { orderForActor } from '../modules/order/order.service';
import { parameterNumber } from '../modules/system/calendar';

/**
 * The 派车 form's driver choice: the transporting enterprise's approved drivers, with the most each truck may be
 * planned for. Spans orders (who transports) and drivers (whose are approved), so it lives here.
 */
export async function dispatchDrivers(db: Db, actor: Actor, orderId: number): Promise<DispatchDriver[]> {
  const { order } = await orderForActor(db, actor, orderId);
  deliveryPolicy.can(actor, 'transport', order);
  const overloadPct = await parameterNumber(db, 'weigh_overload_pct');
  const rows = await db
    .select()
    .from(drivers)
    .where(and(eq(drivers.enterpriseId, actor.enterpriseId!), eq(drivers.status, 'approved')))
    .orderBy(asc(drivers.name), asc(drivers.id))
    .limit(500);
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    mobile: d.mobile,
    plateNo: d.plateNo,
    vehicleType: d.vehicleType,
    ratedLoadKg: d.ratedLoadKg,
    maxPlannedKg: maxTruckKg(d.ratedLoadKg, overloadPct),
  }));
}
