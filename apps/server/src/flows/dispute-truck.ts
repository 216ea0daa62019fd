import type { DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { moveTruck, requireImage, requireShipping, truckForActor } from '../modules/delivery/trucks.service';
import { ownedFileId } from '../modules/files/files.service';
import { recordOrderEvent } from '../modules/order/order.service';

/** 签收异议 (the buyer, instead of signing for an arrived truck): a reason and photos; the seller answers, the operator rules. */
export async function disputeTruck(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string; photos: string[] }): Promise<DispatchView> {
  const now = clock.now();
  const photos = [...new Set(input.photos)];
  for (const key of photos) await requireImage(db, key, '异议照片');
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'signFor', order);
    requireShipping(order, '提出异议');
    const fileIds: number[] = [];
    for (const key of photos) fileIds.push(await ownedFileId(tx, key, actor.enterpriseId!));
    await moveTruck(tx, id, 'dispute', { disputeReason: input.reason, disputeFileIds: fileIds, disputedAt: now, updatedAt: now });
    await recordOrderEvent(tx, { orderId: order.id, action: '签收异议', actor, note: `派车单 ${truck.dispatchNo}：${input.reason}`, at: now });
  });
  return truckView(db, actor, id);
}
