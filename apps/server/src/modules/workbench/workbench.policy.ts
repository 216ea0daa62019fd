import { forbidden } from '../../errors';
import type { Actor } from '../../plugins/authenticate';
import { requireRole, TRADING_ROLES } from '../../plugins/authorize';

/** Every signed-in role has a 工作台首页; an enterprise user sees only its own enterprise's counts. */
export const workbenchPolicy = {
  view(actor: Actor) {
    requireRole(actor, [...TRADING_ROLES, 'operator', 'admin'], '当前账号没有工作台');
    if (TRADING_ROLES.includes(actor.role) && actor.enterpriseId === null) throw forbidden('当前账号未关联企业');
  },
};
