import type { DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { revokeGatePasses } from '../modules/delivery/gate-pass';
import { moveTruck, truckForActor } from '../modules/delivery/trucks.service';
import { addDeliveryProgress, recordOrderEvent } from '../modules/order/order.service';
import { finishIfDelivered } from './finish-delivery';

/** 取消派车 (the enterprise that sent the truck, before loading): its planned tons go back to the order. */
export async function cancelTruck(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string }): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'cancelTruck', { order, truck });
    await moveTruck(tx, id, 'cancel', { cancelReason: input.reason, updatedAt: now });
    await revokeGatePasses(tx, id, now);
    await addDeliveryProgress(tx, order.id, { plannedKg: -truck.plannedKg, dispatchedTrucks: -1 });
    await recordOrderEvent(tx, { orderId: order.id, action: '取消派车', actor, note: `派车单 ${truck.dispatchNo}：${input.reason}`, at: now });
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}
