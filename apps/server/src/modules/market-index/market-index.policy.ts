import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const marketIndexPolicy = definePolicy({
  publish(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以发布指数');
  },
});
