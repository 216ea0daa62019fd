import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

const ADMIN_ONLY = '只有系统管理员可以管理用户';

/**
 * 用户管理: the system administrator alone. One rule per action (query, add, enable/disable, edit), so the grants
 * of the role editor can stand behind each one. Refusals that need the database (yourself, the last admin) are the
 * service's.
 */
export const authPolicy = definePolicy({
  listUsers(actor: Actor) {
    requireRole(actor, ['admin'], ADMIN_ONLY);
  },
  createStaff(actor: Actor) {
    requireRole(actor, ['admin'], ADMIN_ONLY);
  },
  setUserDisabled(actor: Actor) {
    requireRole(actor, ['admin'], ADMIN_ONLY);
  },
  editUser(actor: Actor) {
    requireRole(actor, ['admin'], ADMIN_ONLY);
  },
  manageSessions(actor: Actor) {
    requireRole(actor, ['admin'], ADMIN_ONLY);
  },
});
