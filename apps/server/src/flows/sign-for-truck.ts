import { formatTons, type DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { moveTruck, netOnBasis, requireShipping, truckForActor } from '../modules/delivery/trucks.service';
import { addDeliveryProgress, recordOrderEvent } from '../modules/order/order.service';
import { finishIfDelivered } from './finish-delivery';

/** 签收 (the buyer): the weight on the contract's weighing basis counts; the last truck may finish the delivery. */
export async function signFor(db: Db, clock: Clock, actor: Actor, id: number, input: { note?: string } = {}): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'signFor', order);
    requireShipping(order, '签收');
    const signedKg = netOnBasis(order, truck);
    await moveTruck(tx, id, 'sign', { signedKg, signedAt: now, signedHow: 'buyer', updatedAt: now });
    await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
    await recordOrderEvent(tx, { orderId: order.id, action: '收货签收', actor, note: `派车单 ${truck.dispatchNo}：签收 ${formatTons(signedKg)}${input.note ? `，${input.note}` : ''}`, at: now });
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}
