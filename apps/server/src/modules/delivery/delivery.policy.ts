import { notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff } from '../../lib/policy';
import { orderPolicy, orderSideOf } from '../order/order.policy';

/**
 * Delivery (trucks, weigh tickets, sign-for, lab reports) acts on orders: who may do what is the order's policy
 * (the buyer, the seller, the transporting side, the operator), asked with the order each action belongs to.
 */
export { orderPolicy as deliveryPolicy, orderSideOf } from '../order/order.policy';

type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number; transportSide: string };

/** Rules of delivery's own, beyond the order's. */
export const truckPolicy = definePolicy({
  /** a driver's whole ID card number: the enterprise that sent the truck and the trading centre */
  seeDriverIdentity(actor: Actor, truck: { enterpriseId: number }) {
    if (isPlatformStaff(actor)) return;
    if (actor.enterpriseId !== truck.enterpriseId) throw notFound('派车单不存在');
  },
  /**
   * the mine gate's loading record opened by the QR code: the seller's users (its gate clerks) and the trading
   * centre; anyone else, the buyer included, is told it does not exist
   */
  openAtGate(actor: Actor, order: Parties) {
    if (isPlatformStaff(actor)) return;
    if (orderSideOf(actor, order) !== 'seller') throw notFound('派车单不存在');
  },
  /** the QR token is shown to the side that sent the truck, the seller (its gate) and the trading centre */
  seeGateToken(actor: Actor, { order, truck }: { order: Parties; truck: { enterpriseId: number } }) {
    if (isPlatformStaff(actor)) return;
    if (actor.enterpriseId !== truck.enterpriseId && orderSideOf(actor, order) !== 'seller') throw notFound('派车单不存在');
  },
  /** sign-for queue: which part the actor sees (the buyer its trucks to sign, the seller disputes to answer, the operator disputes to rule) */
  queue(actor: Actor): 'operator' | 'enterprise' {
    if (isPlatformStaff(actor)) {
      orderPolicy.can(actor, 'operate');
      return 'operator';
    }
    orderPolicy.can(actor, 'list');
    return 'enterprise';
  },
});
