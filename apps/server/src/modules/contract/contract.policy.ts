import type { ContractSide } from '@coalx/shared';
import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number };

/** The side the actor's enterprise holds in the contract, or null. */
export function sideOf(actor: Actor, contract: Parties): ContractSide | null {
  if (actor.enterpriseId === null) return null;
  if (contract.sellerEnterpriseId === actor.enterpriseId) return 'seller';
  if (contract.buyerEnterpriseId === actor.enterpriseId) return 'buyer';
  return null;
}

/**
 * Who may do what with contracts: the two parties see, edit, sign and upload theirs (a contract of others is
 * "not found", so its existence is not told); the trading centre's operator sees all, reviews paper copies and
 * rules on overdue ones; the admin keeps the templates.
 */
export const contractPolicy = definePolicy({
  /** reading a contract: a party or the platform staff */
  view(actor: Actor, contract: Parties) {
    if (isPlatformStaff(actor)) return;
    if (!sideOf(actor, contract)) throw notFound('合同不存在');
  },
  /** lists: an enterprise sees its own, the operator all; returns the enterprise id to filter by (null: all) */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看合同');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看合同');
    return actor.enterpriseId;
  },
  /** signing, uploading or editing terms: a party's own user; returns the side it acts for */
  actAsParty(actor: Actor, contract: Parties): ContractSide {
    requireRole(actor, TRADING_ROLES, '只有合同双方企业可以签署合同');
    const side = sideOf(actor, contract);
    if (!side) throw notFound('合同不存在');
    return side;
  },
  /** accepting or rejecting a paper copy, voiding, ruling on breach, extending a deadline */
  rule(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以处理合同');
  },
  /** 模板配置 */
  manageTemplates(actor: Actor) {
    requireRole(actor, ['admin'], '只有系统管理员可以配置合同模板');
  },
  readTemplates(actor: Actor) {
    requireRole(actor, ['admin', 'operator'], '只有平台人员可以查看合同模板');
  },
}, {
  // the route grants the writes need besides the rule (api/contract.routes.ts asks the same)
  actAsParty: 'contract-sign.edit',
  rule: 'contract-list.edit',
});

/** The states in which the operator may void a contract and rule on the breach. */
export const VOIDABLE_STATES: readonly string[] = ['pending', 'seller_signed', 'buyer_signed', 'overdue'];
