import { PLATFORM_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const systemPolicy = definePolicy({
  updateSwitch(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心或系统管理员可以修改系统开关');
  },
});
