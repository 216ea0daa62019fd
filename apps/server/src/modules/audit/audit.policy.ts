import { PLATFORM_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/** The audit trail is read by the trading centre and the system administrator (menu system-auditLog), no one else. */
export const auditPolicy = definePolicy({
  read(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心或系统管理员可以查看操作日志');
  },
  export(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心或系统管理员可以导出操作日志');
  },
});
