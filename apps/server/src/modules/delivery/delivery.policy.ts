import { TESTING_BASES } from '@coalx/shared';
import { forbidden, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff } from '../../lib/policy';
import { orderPolicy, orderSideOf, type OrderSide } from '../order/order.policy';

export { orderSideOf } from '../order/order.policy';

type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number; transportSide: string };
type Terms = { terms: { testingBasis: keyof typeof TESTING_BASES } };

const sideName = (side: OrderSide) => (side === 'seller' ? '卖方' : '买方');

/**
 * Delivery (trucks, weigh tickets, sign-for, lab reports) acts on orders: who may do what is first the order's
 * policy (the buyer, the seller, the transporting side, the operator), asked with the order each action belongs to,
 * then delivery's own rules below.
 */
export const deliveryPolicy = definePolicy({
  view: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'view', order),
  list: (actor: Actor): number | null => orderPolicy.can(actor, 'list'),
  actAs: (actor: Actor, object: { order: Parties; side: OrderSide }) => orderPolicy.can(actor, 'actAs', object),
  transport: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'transport', order),
  operate: (actor: Actor) => orderPolicy.can(actor, 'operate'),
  /** each side's moves of a truck and of a delivery (the routes' grants below) */
  dispatch: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'transport', order),
  load: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'actAs', { order, side: 'seller' }),
  arrive: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'actAs', { order, side: 'buyer' }),
  signFor: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'actAs', { order, side: 'buyer' }),
  answerDispute: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'actAs', { order, side: 'seller' }),
  ruleDispute: (actor: Actor) => orderPolicy.can(actor, 'operate'),
  finish: (actor: Actor, order: Parties) => orderPolicy.can(actor, 'actAs', { order, side: 'seller' }),
  /** confirming or disputing a lab report: the side that did not submit it */
  answerReport: (actor: Actor, { order, report }: { order: Parties; report: { side: string } }) =>
    orderPolicy.can(actor, 'actAs', { order, side: report.side === 'seller' ? 'buyer' : 'seller' }),
  /** cancelling a truck: the transporting side, and only the enterprise that sent it */
  cancelTruck(actor: Actor, { order, truck }: { order: Parties; truck: { enterpriseId: number } }) {
    orderPolicy.can(actor, 'transport', order);
    if (truck.enterpriseId !== actor.enterpriseId) throw forbidden('只有派车方可以取消派车');
  },
  /**
   * a lab report: by the side whose lab the contract names (testing basis seller → the seller, buyer → the buyer,
   * a third party → either side uploads that institution's report); returns the side that submits
   */
  submitReport(actor: Actor, order: Parties & Terms): OrderSide {
    const side = orderSideOf(actor, order);
    if (!side) orderPolicy.can(actor, 'actAs', { order, side: 'seller' }); // the trading centre: refused there
    const basis = order.terms.testingBasis;
    if (basis !== 'third_party' && side !== basis) throw forbidden(`合同约定${TESTING_BASES[basis]}，化验单由${sideName(basis)}上传`);
    return side!;
  },
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
  /**
   * a truck's QR pass (issue 32): the side that sent the truck prints both on the dispatch note; the seller sees the
   * mine's (loading), the buyer the plant's (arrival); the trading centre sees both
   */
  seeGatePass(actor: Actor, { order, truck, stage }: { order: Parties; truck: { enterpriseId: number }; stage: 'loading' | 'arrival' }) {
    if (isPlatformStaff(actor) || actor.enterpriseId === truck.enterpriseId) return;
    if (orderSideOf(actor, order) !== (stage === 'loading' ? 'seller' : 'buyer')) throw notFound('派车单不存在');
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
}, {
  // the route grants of the writes (api/delivery.routes.ts asks the same): recording adds, answering edits
  dispatch: 'logistics-transport.add',
  cancelTruck: 'logistics-transport.edit',
  load: ['logistics-gate.add', 'logistics-transport.add', 'order-info.add'],
  arrive: ['settlement-signFor.add', 'logistics-transport.add', 'order-info.add'],
  signFor: ['settlement-signFor.edit', 'order-info.edit'],
  answerDispute: ['settlement-signFor.edit', 'order-info.edit'],
  ruleDispute: 'settlement-signFor.edit',
  finish: ['order-info.edit', 'logistics-info.edit'],
  submitReport: ['order-info.add', 'logistics-info.add'],
  answerReport: ['order-info.edit', 'logistics-info.edit'],
});
