import { appError, forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

type OwnedAuction = { enterpriseId: number };

export const auctionPolicy = definePolicy({
  publish(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以发布竞价');
  },
  /** Enrol and bid: an enterprise other than the publisher. */
  participate(actor: Actor, auction: OwnedAuction) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以参与竞价');
    // a business rule, not a permission: 422 (a 403 signs the trader out, spec §8)
    if (auction.enterpriseId === actor.enterpriseId) throw appError('own_trade', '不能参与本企业发布的竞价');
  },
  /** Enrolling at all (before the auction is known): a trading enterprise's user. */
  enrol(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业交易员可以参与竞价');
  },
  manage(actor: Actor, auction: OwnedAuction) {
    requireRole(actor, TRADING_ROLES, '只有发布企业可以操作');
    if (auction.enterpriseId !== actor.enterpriseId) throw forbidden('只能操作本企业的竞价');
  },
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核竞价');
  },
  /** An auction not approved (draft, in audit, rejected): its enterprise and the trading centre. */
  seePrivate(actor: Actor, auction: OwnedAuction) {
    if (auction.enterpriseId !== actor.enterpriseId && !isPlatformStaff(actor)) throw forbidden('只能查看本企业的竞价');
  },
  /** Pause, resume and cancel a running auction (实时监控): the trading centre's operators. */
  operate(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以暂停、恢复或撤销竞价');
  },
  /** Every bidder's name and full history: the trading centre only. */
  seeAllBidders(actor: Actor) {
    if (!isPlatformStaff(actor)) throw forbidden();
  },
});
