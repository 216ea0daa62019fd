import { formatFen, ORDER_STATUS, type OrderDetail, type OrderPay, type OrderStatus } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { freezeOrderEscrow } from '../modules/funds/escrow.service';
import { verifyPaymentAuth, type UkeyVerifier } from '../modules/funds/pay-auth';
import { presentDetail } from '../modules/order/order-query.service';
import { orderPolicy } from '../modules/order/order.policy';
import { findOrder, moveOrder, orderForActor, recordOrderEvent } from '../modules/order/order.service';

/** The pay-auth action of 支付货款 (the key signs the order id and the request id). */
export const ORDER_PAY_ACTION = 'order_pay';

const statusText = (status: string) => ORDER_STATUS[status as OrderStatus] ?? status;

/**
 * 支付货款: the buyer's prepayment leaves its available balance into escrow (frozen in its own account for this
 * order), the order moves to 待发货, and the timeline says who paid: one transaction, under the order's row lock.
 * The escrow's per-order ledger key means any number of requests, with the same request id or not, freeze once;
 * a request for an order already paid answers that payment (`replayed`), so a double click or a retry is harmless.
 *
 * Paying after the deadline is still accepted: the deadline only puts the order on the operator's 待办, and the
 * operator decides whether to terminate it (DESIGN.md §8; no automatic termination). Until it does, money from a
 * late buyer is better than none.
 */
export async function payOrder(db: Db, clock: Clock, ukey: UkeyVerifier, actor: Actor, id: number, input: OrderPay): Promise<{ detail: OrderDetail; replayed: boolean }> {
  const { order } = await orderForActor(db, actor, id);
  orderPolicy.can(actor, 'pay', order);
  if (order.status !== 'unpaid') return { detail: await alreadyPaid(db, clock, actor, id), replayed: true };
  const signed = { ...input, orderId: id };
  await verifyPaymentAuth(db, clock, ukey, actor, ORDER_PAY_ACTION, signed);

  const paid = await db.transaction(async (tx) => {
    const locked = await findOrder(tx, id, true);
    // a racing request paid it while this one checked the password: answer that payment
    if (locked.status !== 'unpaid') return null;
    const now = clock.now();
    await freezeOrderEscrow(tx, {
      enterpriseId: locked.buyerEnterpriseId,
      orderId: locked.id,
      orderNo: locked.orderNo,
      amount: locked.prepaymentFen,
      createdBy: actor.userId,
    });
    const moved = await moveOrder(tx, locked.id, 'pay', { escrowFen: locked.prepaymentFen, paidAt: now });
    const late = now > locked.paymentDeadline ? '（已超过付款期限）' : '';
    await recordOrderEvent(tx, { orderId: locked.id, action: '支付货款', actor, note: `预付款 ¥${formatFen(locked.prepaymentFen)} 已冻结托管${late}`, at: now });
    return moved;
  });
  if (!paid) return { detail: await alreadyPaid(db, clock, actor, id), replayed: true };
  return { detail: await presentDetail(db, clock.now(), actor, paid), replayed: false };
}

/** A pay request for an order no longer waiting: the earlier payment's result, or why it cannot be paid. */
async function alreadyPaid(db: Db, clock: Clock, actor: Actor, id: number): Promise<OrderDetail> {
  const order = await findOrder(db, id);
  if (order.status === 'terminated') throw appError('state_changed', '订单已终止，不能付款');
  if (!order.paidAt) throw appError('state_changed', `订单状态为「${statusText(order.status)}」，无需付款`);
  return presentDetail(db, clock.now(), actor, order);
}
