import { forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';
import type { Enterprise } from '../enterprise/enterprise.service';

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
  /** Any use of the enterprise's own funds account; returns the enterprise id. */
  ownAccount(actor: Actor, message: string = '只有企业用户可以使用资金账户'): number {
    if (actor.enterpriseId === null) throw forbidden(message);
    return actor.enterpriseId;
  },
  /** Money leaves only for an audited enterprise's own bank account. */
  withdraw(actor: Actor, enterprise: Enterprise | null): Enterprise {
    if (!enterprise || enterprise.auditStatus !== 'approved') throw forbidden('企业未通过审核，不能出金');
    return enterprise;
  },
  reviewTransfers(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以处理出入金');
  },
  /** 资金总览 and the funds reconciliation (资金对账): the trading centre's */
  overview(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以查看资金总览');
  },
});
