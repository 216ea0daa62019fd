import type { Actor } from '../../plugins/authenticate';
import { requireRole, TRADING_ROLES } from '../../plugins/authorize';

/** Who may do what with money: enterprises with their own account, the trading centre with the queues. */
export const fundsPolicy = {
  useOwnAccount(actor: Actor) {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以使用资金账户');
  },
  reviewTransfers(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以处理出入金');
  },
};
