import { appError, forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

type OwnedListing = { enterpriseId: number };

export const listingPolicy = definePolicy({
  publish(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以发布挂牌');
  },
  /** Subscribing at all (before the listing is known): a trading enterprise's user. */
  trade(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以摘牌');
  },
  subscribe(actor: Actor, listing: OwnedListing) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以摘牌');
    // a business rule, not a permission: 422, so the page explains instead of signing the trader out (spec §8 403)
    if (listing.enterpriseId === actor.enterpriseId) throw appError('own_trade', '不能摘本企业发布的挂牌');
  },
  /** The publisher's enterprise manages its listing: edit drafts, confirm or decline subscriptions. */
  manage(actor: Actor, listing: OwnedListing) {
    requireRole(actor, TRADING_ROLES, '只有挂牌企业可以操作');
    if (listing.enterpriseId !== actor.enterpriseId) throw forbidden('只能操作本企业的挂牌');
  },
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核挂牌');
  },
  /** The counterparty's contact is shown to the two parties of a deal only. */
  seeCounterparty(actor: Actor, deal: { sellerEnterpriseId: number; buyerEnterpriseId: number }) {
    if (actor.enterpriseId !== deal.sellerEnterpriseId && actor.enterpriseId !== deal.buyerEnterpriseId) throw forbidden('只有成交双方可以查看对方信息');
  },
  /** A listing that is not public (draft, in audit, not yet open) and its subscriptions: its enterprise and the trading centre. */
  seePrivate(actor: Actor, listing: OwnedListing) {
    if (listing.enterpriseId !== actor.enterpriseId && !isPlatformStaff(actor)) throw forbidden('只能查看本企业的挂牌');
  },
});
