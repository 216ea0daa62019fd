import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/** 角色管理 is the system admin's alone (on top of the grant `system-role` its routes carry). */
export const rolesAdminPolicy = definePolicy({
  manage(actor: Actor) {
    requireRole(actor, ['admin'], '只有系统管理员可以管理角色');
  },
});
