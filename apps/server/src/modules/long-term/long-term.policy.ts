import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

export type LongTermSide = 'seller' | 'buyer';
type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number | null; targetEnterpriseId: number | null; status: string };
type CallOffParty = { initiator: string };

/** The side the actor's enterprise holds, or null (an applicant is not a side until accepted). */
export function longTermSideOf(actor: Actor, deal: Pick<Parties, 'sellerEnterpriseId' | 'buyerEnterpriseId'>): LongTermSide | null {
  if (actor.enterpriseId === null) return null;
  if (deal.sellerEnterpriseId === actor.enterpriseId) return 'seller';
  if (deal.buyerEnterpriseId === actor.enterpriseId) return 'buyer';
  return null;
}

/** An open offer this enterprise may see and apply to: open to all, or named for it. */
function offeredTo(actor: Actor, deal: Parties): boolean {
  return actor.enterpriseId !== null && deal.status === 'open' && deal.sellerEnterpriseId !== actor.enterpriseId &&
    (deal.targetEnterpriseId === null || deal.targetEnterpriseId === actor.enterpriseId);
}

/** Either side of the framework, for its call-offs. */
function callOffSide(actor: Actor, deal: Parties): LongTermSide {
  requireRole(actor, TRADING_ROLES, '只有长协双方企业可以操作月度调运');
  const side = longTermSideOf(actor, deal);
  if (!side) throw notFound('长协不存在');
  return side;
}

/**
 * Who may do what with long-term deals: the seller drafts, publishes, accepts and issues call-offs; the buyer
 * applies, requests and confirms call-offs; an open offer is seen by the buyers it is offered to; another
 * enterprise's deal is "not found"; the trading centre sees all and terminates.
 */
export const longTermPolicy = definePolicy({
  /** reading one: its sides, the buyers it is offered to (while open), those who applied, the trading centre */
  view(actor: Actor, { deal, applied }: { deal: Parties; applied: boolean }) {
    if (isPlatformStaff(actor)) return;
    if (longTermSideOf(actor, deal) || offeredTo(actor, deal) || applied) return;
    throw notFound('长协不存在');
  },
  /** lists: an enterprise sees its own, the trading centre all; returns the enterprise id to filter by (null: all) */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看长协');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看长协');
    return actor.enterpriseId;
  },
  /** publishing an offer: an enterprise's trading user */
  offer(actor: Actor): number {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以发布长协');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以发布长协');
    return actor.enterpriseId;
  },
  /** the seller's moves (edit, publish, withdraw, accept an application) */
  actAsSeller(actor: Actor, deal: Parties) {
    requireRole(actor, TRADING_ROLES, '只有卖方可以进行该操作');
    if (longTermSideOf(actor, deal) === 'seller') return;
    if (offeredTo(actor, deal) || longTermSideOf(actor, deal) === 'buyer') throw forbidden('只有卖方可以进行该操作');
    throw notFound('长协不存在');
  },
  /** applying: a buyer the open offer is for */
  apply(actor: Actor, deal: Parties) {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以申请长协');
    if (actor.enterpriseId === deal.sellerEnterpriseId) throw forbidden('不能申请本企业发布的长协');
    if (!offeredTo(actor, deal)) throw notFound('长协不存在');
  },
  /** call-offs: either side of the framework; returns the side */
  callOff(actor: Actor, deal: Parties): LongTermSide {
    return callOffSide(actor, deal);
  },
  /** confirming or declining a pending call-off: the side that did not initiate it */
  decideCallOff(actor: Actor, { deal, callOff }: { deal: Parties; callOff: CallOffParty }): LongTermSide {
    const side = callOffSide(actor, deal);
    if (side === callOff.initiator) throw forbidden('月度调运须由对方确认');
    return side;
  },
  /** taking back a pending call-off: the side that initiated it */
  withdrawCallOff(actor: Actor, { deal, callOff }: { deal: Parties; callOff: CallOffParty }): LongTermSide {
    const side = callOffSide(actor, deal);
    if (side !== callOff.initiator) throw forbidden('只有发起方可以撤回月度调运');
    return side;
  },
  /** the buyer's name, the framework contract, the months' call-offs and deliveries: the sides and the trading centre */
  seeParties(actor: Actor, deal: Parties) {
    if (isPlatformStaff(actor) || longTermSideOf(actor, deal)) return;
    throw forbidden();
  },
  /** every application (an applicant sees its own): the seller and the trading centre */
  seeApplications(actor: Actor, deal: Parties) {
    if (isPlatformStaff(actor) || longTermSideOf(actor, deal) === 'seller') return;
    throw forbidden();
  },
  /** terminating one in execution */
  operate(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以进行该操作');
  },
}, {
  // the route grants of the writes (api/long-term.routes.ts asks the same): offering, applying and calling off add;
  // the seller's changes, answers and the centre's termination edit
  offer: 'longTermDeal.add',
  actAsSeller: 'longTermDeal.edit',
  apply: 'longTermDeal.add',
  callOff: 'longTermDeal.add',
  decideCallOff: 'longTermDeal.edit',
  withdrawCallOff: 'longTermDeal.edit',
  operate: 'longTermDeal.edit',
});
