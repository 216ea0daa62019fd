import { PLATFORM_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const systemPolicy = definePolicy({
  updateSwitch(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心或系统管理员可以修改系统开关');
  },
  /** 数据字典: the texts every page shows */
  manageDictionaries(actor: Actor) {
    requireRole(actor, ['admin'], '只有系统管理员可以维护数据字典');
  },
  /** 系统参数 and the holiday calendar: deadlines, fees and ranges of every later trade */
  manageParameters(actor: Actor) {
    requireRole(actor, ['admin'], '只有系统管理员可以维护系统参数');
  },
});
