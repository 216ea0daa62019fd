import { formatTons } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { orderDelivery } from '../modules/delivery/delivery-query.service';
import { openTrucks, requireShipping } from '../modules/delivery/trucks.service';
import { findOrder, moveOrder, moveOrderIfNeeded, orderForActor, recordOrderEvent } from '../modules/order/order.service';

/**
 * The end of an order's delivery: the seller declares it (交货完毕), or it comes by itself when the signed tons
 * reach the contract quantity; either way the order goes to 待结算.
 */

/**
 * The signed tons reached the contract quantity less its tolerance and no truck is still on its way: the order
 * goes to 待结算 by itself (a truck still on the road finishes first; its end calls this again).
 */
export async function finishIfDelivered(tx: Tx, orderId: number, now: Date) {
  const order = await findOrder(tx, orderId);
  if (order.status !== 'shipping') return;
  const threshold = Math.ceil((order.quantityKg * (100 - order.terms.quantityTolerancePct)) / 100);
  if (order.signedKg < threshold) return;
  if ((await openTrucks(tx, orderId)) > 0) return;
  const moved = await moveOrderIfNeeded(tx, orderId, 'finishDelivery', { deliveredAt: now });
  if (moved) {
    await recordOrderEvent(tx, { orderId, action: '交货完成', actor: null, note: `签收量 ${formatTons(order.signedKg)} 已达合同数量，订单进入待结算`, at: now });
  }
}

/** 交货完毕 (the seller): no truck may still be on its way, and at least one was signed for. */
export async function finishDelivery(db: Db, clock: Clock, actor: Actor, orderId: number, input: { note?: string } = {}) {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { order } = await orderForActor(tx, actor, orderId, true);
    deliveryPolicy.can(actor, 'finish', order);
    requireShipping(order, '确认交货完毕');
    const open = await openTrucks(tx, orderId);
    if (open > 0) throw businessRule(`还有 ${open} 辆车未完成（已派车、已装车、已到货或有异议），须先处理完毕才能确认交货完毕`);
    if (order.signedKg <= 0) throw businessRule('尚无签收的车辆，不能确认交货完毕');
    await moveOrder(tx, orderId, 'finishDelivery', { deliveredAt: now });
    await recordOrderEvent(tx, {
      orderId,
      action: '交货完毕',
      actor,
      note: `卖方确认交货完毕，累计签收 ${formatTons(order.signedKg)}（${order.signedTrucks} 车）${input.note ? `：${input.note}` : ''}`,
      at: now,
    });
  });
  return orderDelivery(db, actor, orderId);
}
