import { forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy } from '../../lib/policy';

/** Whose to-dos a workbench shows: the trading centre's queues, the platform's accounts, or one enterprise's own. */
export type WorkbenchScope = { kind: 'operator' } | { kind: 'admin' } | { kind: 'enterprise'; enterpriseId: number };

/** Every signed-in role has a 工作台首页; an enterprise user sees only its own enterprise's counts. */
export const workbenchPolicy = definePolicy({
  view(actor: Actor): WorkbenchScope {
    if (actor.role === 'operator') return { kind: 'operator' };
    if (actor.role === 'admin') return { kind: 'admin' };
    if (!TRADING_ROLES.includes(actor.role)) throw forbidden('当前账号没有工作台');
    if (actor.enterpriseId === null) throw forbidden('当前账号未关联企业');
    return { kind: 'enterprise', enterpriseId: actor.enterpriseId };
  },
});
