import { forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/** Who may do what with enterprises: the trading centre audits, an enterprise reads its own, its admin edits it. */
export const enterprisePolicy = definePolicy({
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核企业');
  },
  /** 企业名录 and trading rights (暂停交易 / 恢复交易): the trading centre's */
  directory(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以查看企业名录');
  },
  suspendTrading(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以暂停或恢复企业交易');
  },
  /** The caller's own enterprise id; platform staff belong to none. */
  readOwn(actor: Actor): number {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看本企业资料');
    if (actor.enterpriseId === null) throw forbidden('当前账号未关联企业');
    return actor.enterpriseId;
  },
  manageOwn(actor: Actor): number {
    requireRole(actor, ['enterprise_admin'], '只有企业管理员可以修改企业资料和管理成员');
    if (actor.enterpriseId === null) throw forbidden('当前账号未关联企业');
    return actor.enterpriseId;
  },
});
