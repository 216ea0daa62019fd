import { businessRule, forbidden } from '../../errors';
import type { Actor } from '../../plugins/authenticate';
import { requireRole, TRADING_ROLES } from '../../plugins/authorize';

export const auctionPolicy = {
  publish(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以发布竞价');
  },
  /** Enrol and bid: an enterprise other than the publisher. */
  participate(actor: Actor, auction: { enterpriseId: number }) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以参与竞价');
    // a business rule, not a permission: 422 (a 403 signs the trader out, spec §8)
    if (auction.enterpriseId === actor.enterpriseId) throw businessRule('不能参与本企业发布的竞价');
  },
  manage(actor: Actor, auction: { enterpriseId: number }) {
    requireRole(actor, TRADING_ROLES, '只有发布企业可以操作');
    if (auction.enterpriseId !== actor.enterpriseId) throw forbidden('只能操作本企业的竞价');
  },
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核竞价');
  },
};
