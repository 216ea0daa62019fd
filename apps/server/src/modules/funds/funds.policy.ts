import { forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/** Who may do what with money: enterprises with their own account, the trading centre with the queues. */
export const fundsPolicy = definePolicy({
  useOwnAccount(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以使用资金账户');
  },
  /** The pay password guards every money movement of the enterprise: its admin sets it. Returns the enterprise id. */
  setPayPassword(actor: Actor): number {
    if (actor.role !== 'enterprise_admin' || actor.enterpriseId === null) throw forbidden('只有企业管理员可以设置支付密码');
    return actor.enterpriseId;
  },
  reviewTransfers(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以处理出入金');
  },
});
