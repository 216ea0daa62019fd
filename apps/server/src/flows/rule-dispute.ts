import { formatTons, type DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { moveTruck, requireShipping, truckForActor } from '../modules/delivery/trucks.service';
import { addDeliveryProgress, recordOrderEvent } from '../modules/order/order.service';
import { finishIfDelivered } from './finish-delivery';

/**
 * The operator rules on a dispute: signed with the weight ruled (at most the loading net), or refused. A refused
 * truck leaves the order's counts (its planned, loaded and arrived tons), so its tons may be sent again.
 */
export async function ruleDispute(
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  input: { decision: 'signed' | 'refused'; signedKg?: number; note: string },
): Promise<DispatchView> {
  const now = clock.now();
  deliveryPolicy.can(actor, 'ruleDispute');
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    requireShipping(order, '裁定');
    const common = { rulingNote: input.note, ruledBy: actor.userId, ruledAt: now, updatedAt: now };
    if (input.decision === 'signed') {
      const signedKg = input.signedKg!;
      if (truck.status === 'disputed' && signedKg > (truck.loadedNetKg ?? 0)) throw businessRule(`裁定签收量不能超过装车净重 ${formatTons(truck.loadedNetKg)}`);
      await moveTruck(tx, id, 'ruleSigned', { ...common, signedKg, signedAt: now, signedHow: 'ruling' });
      await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
      await recordOrderEvent(tx, { orderId: order.id, action: '裁定签收', actor, note: `派车单 ${truck.dispatchNo}：按 ${formatTons(signedKg)} 签收。${input.note}`, at: now });
    } else {
      await moveTruck(tx, id, 'ruleRefused', common);
      await addDeliveryProgress(tx, order.id, {
        plannedKg: -truck.plannedKg,
        dispatchedTrucks: -1,
        loadedKg: -(truck.loadedNetKg ?? 0),
        loadedTrucks: -1,
        arrivedKg: -(truck.arrivedNetKg ?? 0),
        arrivedTrucks: -1,
      });
      await recordOrderEvent(tx, { orderId: order.id, action: '裁定拒收', actor, note: `派车单 ${truck.dispatchNo}：${input.note}`, at: now });
    }
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}
