import { PLATFORM_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const smsPolicy = definePolicy({
  /** The built-in provider's outbox holds every code sent: the trading centre only. */
  readOutbox(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心运营人员可以查看短信发件箱');
  },
});
