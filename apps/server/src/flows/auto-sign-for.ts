import { formatTons } from '@coalx/shared';
import type { Db } from '../db/client';
import { findTruck, moveTruckIfNeeded, netOnBasis, trucksDueForAutoSign } from '../modules/delivery/trucks.service';
import { addDeliveryProgress, findOrder, recordOrderEvent } from '../modules/order/order.service';
import { finishIfDelivered } from './finish-delivery';

/**
 * The scheduler's auto sign-for: arrived trucks past their autoSignAt count as signed, each in its own short
 * transaction, by 系统. A truck signed, disputed or moved meanwhile is left alone, so a second run (or a second
 * process) changes nothing.
 */
export async function autoSignArrived(db: Db, now: Date): Promise<number> {
  const due = await trucksDueForAutoSign(db, now);
  let signed = 0;
  for (const id of due) {
    const done = await db.transaction(async (tx) => {
      const truck = await findTruck(tx, id, true);
      if (truck.status !== 'arrived' || !truck.autoSignAt || truck.autoSignAt > now) return false;
      const order = await findOrder(tx, truck.orderId);
      if (order.status !== 'shipping') return false;
      const signedKg = netOnBasis(order, truck);
      const moved = await moveTruckIfNeeded(tx, id, 'autoSign', { signedKg, signedAt: now, signedHow: 'auto', updatedAt: now });
      if (!moved) return false;
      await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
      await recordOrderEvent(tx, {
        orderId: order.id,
        action: '自动签收',
        actor: null,
        note: `派车单 ${truck.dispatchNo}：到货后期满未签收也未提出异议，按 ${formatTons(signedKg)} 视为签收`,
        at: now,
      });
      await finishIfDelivered(tx, order.id, now);
      return true;
    });
    if (done) signed++;
  }
  return signed;
}
