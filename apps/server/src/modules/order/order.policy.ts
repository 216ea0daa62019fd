import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

export type OrderSide = 'seller' | 'buyer';
type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number; transportSide: string };

/** The side the actor's enterprise holds in the order, or null. */
export function orderSideOf(actor: Actor, order: Parties): OrderSide | null {
  if (actor.enterpriseId === null) return null;
  if (order.sellerEnterpriseId === actor.enterpriseId) return 'seller';
  if (order.buyerEnterpriseId === actor.enterpriseId) return 'buyer';
  return null;
}

/**
 * Who may do what with orders and their delivery: the two parties see theirs (another enterprise's order is "not
 * found", so its existence is not told); the buyer pays; the transporting side dispatches trucks; the seller weighs
 * at loading and the buyer at arrival and signs for; the trading centre's operator sees all, terminates and rules.
 */
export const orderPolicy = definePolicy({
  view(actor: Actor, order: Parties) {
    if (isPlatformStaff(actor)) return;
    if (!orderSideOf(actor, order)) throw notFound('订单不存在');
  },
  /** lists: an enterprise sees its own, the trading centre all; returns the enterprise id to filter by (null: all) */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看订单');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看订单');
    return actor.enterpriseId;
  },
  /** an action one side of the order takes (pay: buyer; loading ticket: seller; arrival ticket, sign-for: buyer) */
  actAs(actor: Actor, { order, side }: { order: Parties; side: OrderSide }) {
    requireRole(actor, TRADING_ROLES, '只有订单双方企业可以操作订单');
    const mine = orderSideOf(actor, order);
    if (!mine) throw notFound('订单不存在');
    if (mine !== side) throw forbidden(side === 'buyer' ? '只有买方可以进行该操作' : '只有卖方可以进行该操作');
  },
  /** dispatching trucks: the side that arranges transport (到厂价: the seller; 出厂价/坑口价: the buyer) */
  transport(actor: Actor, order: Parties) {
    requireRole(actor, TRADING_ROLES, '只有订单双方企业可以派车');
    const mine = orderSideOf(actor, order);
    if (!mine) throw notFound('订单不存在');
    if (mine !== order.transportSide) throw forbidden(`本订单由${order.transportSide === 'seller' ? '卖方' : '买方'}负责运输，只有该方可以派车`);
  },
  /** terminating an order, ruling a sign-for dispute */
  operate(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以进行该操作');
  },
  /** 支付货款: the buyer */
  pay(actor: Actor, order: Parties) {
    orderPolicy.can(actor, 'actAs', { order, side: 'buyer' });
  },
  /** 终止订单: the trading centre */
  terminate(actor: Actor) {
    orderPolicy.can(actor, 'operate');
  },
}, {
  // the route grants of the writes (api/order.routes.ts asks the same)
  pay: 'settlement-payment.edit',
  terminate: 'order-info.edit',
});
