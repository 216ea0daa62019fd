import { DispatchStates, stateLabel, type DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { saveSellerAnswer, truckForActor } from '../modules/delivery/trucks.service';
import { recordOrderEvent } from '../modules/order/order.service';

/** The seller's answer to a dispute (the truck stays 有异议 until the operator rules; a later answer replaces it). */
export async function answerDispute(db: Db, clock: Clock, actor: Actor, id: number, input: { answer: string }): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'answerDispute', order);
    if (truck.status !== 'disputed') throw appError('state_changed', `派车单当前状态为${stateLabel(DispatchStates, truck.status)}，没有待答复的异议`);
    await saveSellerAnswer(tx, id, input.answer, now);
    await recordOrderEvent(tx, { orderId: order.id, action: '答复异议', actor, note: `派车单 ${truck.dispatchNo}：${input.answer}`, at: now });
    await publish(tx, 'dispatch.dispute_answered', { id });
  });
  return truckView(db, actor, id);
}
