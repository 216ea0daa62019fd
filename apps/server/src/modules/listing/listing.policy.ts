import { businessRule, forbidden } from '../../errors';
import type { Actor } from '../../plugins/authenticate';
import { requireRole, TRADING_ROLES } from '../../plugins/authorize';

export const listingPolicy = {
  publish(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以发布挂牌');
  },
  subscribe(actor: Actor, listing: { enterpriseId: number }) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以摘牌');
    // a business rule, not a permission: 422, so the page explains instead of signing the trader out (spec §8 403)
    if (listing.enterpriseId === actor.enterpriseId) throw businessRule('不能摘本企业发布的挂牌');
  },
  /** The publisher's enterprise manages its listing: edit drafts, confirm or decline subscriptions. */
  manage(actor: Actor, listing: { enterpriseId: number }) {
    requireRole(actor, TRADING_ROLES, '只有挂牌企业可以操作');
    if (listing.enterpriseId !== actor.enterpriseId) throw forbidden('只能操作本企业的挂牌');
  },
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核挂牌');
  },
};
