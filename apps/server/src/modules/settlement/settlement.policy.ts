import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number };

export function statementSideOf(actor: Actor, s: Parties): 'seller' | 'buyer' | null {
  if (actor.enterpriseId === null) return null;
  if (s.sellerEnterpriseId === actor.enterpriseId) return 'seller';
  if (s.buyerEnterpriseId === actor.enterpriseId) return 'buyer';
  return null;
}

/**
 * Statements: both parties see theirs (another enterprise's is "not found"); the seller issues, the buyer confirms
 * or disputes; the trading centre sees all and its operator rules on disputes.
 */
export const settlementPolicy = definePolicy({
  view(actor: Actor, s: Parties) {
    if (isPlatformStaff(actor)) return;
    if (!statementSideOf(actor, s)) throw notFound('结算单不存在');
  },
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看结算单');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看结算单');
    return actor.enterpriseId;
  },
  issue(actor: Actor, order: Parties) {
    requireRole(actor, TRADING_ROLES, '只有卖方可以开具结算单');
    const side = statementSideOf(actor, order);
    if (!side) throw notFound('订单不存在');
    if (side !== 'seller') throw forbidden('只有卖方可以开具结算单');
  },
  answer(actor: Actor, s: Parties) {
    requireRole(actor, TRADING_ROLES, '只有买方可以确认结算单');
    const side = statementSideOf(actor, s);
    if (!side) throw notFound('结算单不存在');
    if (side !== 'buyer') throw forbidden('只有买方可以确认或异议结算单');
  },
  rule(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以裁定结算异议');
  },
}, {
  // the route grants of the writes (api/settlement.routes.ts asks the same): issuing adds, answering and ruling edit
  issue: 'settlement-balance.add',
  answer: 'settlement-balance.edit',
  rule: 'settlement-info.edit',
});
