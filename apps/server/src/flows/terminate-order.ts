import { formatFen, type OrderDetail } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { releaseOrderEscrow } from '../modules/funds/escrow.service';
import { presentDetail } from '../modules/order/order-query.service';
import { orderPolicy } from '../modules/order/order.policy';
import { findOrder, moveOrder, orderForActor, recordOrderEvent } from '../modules/order/order.service';

/**
 * 终止订单 (the trading centre, with a reason): from any state before settlement; the escrow, if any, goes back to
 * the buyer's available balance in the same transaction, and the timeline says who ended it and why.
 */
export async function terminateOrder(db: Db, clock: Clock, actor: Actor, id: number, reason: string): Promise<OrderDetail> {
  orderPolicy.can(actor, 'terminate');
  await orderForActor(db, actor, id);
  const moved = await db.transaction(async (tx) => {
    const locked = await findOrder(tx, id, true);
    const now = clock.now();
    // the transition table refuses a settled, completed or already terminated order
    const terminated = await moveOrder(tx, locked.id, 'terminate', { escrowFen: 0, terminatedAt: now, terminateReason: reason });
    let note = reason;
    if (locked.escrowFen > 0) {
      await releaseOrderEscrow(tx, { enterpriseId: locked.buyerEnterpriseId, orderId: locked.id, orderNo: locked.orderNo, amount: locked.escrowFen });
      note = `${reason}；托管货款 ¥${formatFen(locked.escrowFen)} 已解冻退回买方`;
    }
    await recordOrderEvent(tx, { orderId: locked.id, action: '终止订单', actor, note, at: now });
    return terminated;
  });
  return presentDetail(db, clock.now(), actor, moved);
}

