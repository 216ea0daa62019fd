import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const homePolicy = definePolicy({
  /** Which trades the home page recommends. */
  recommend(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以设置推荐');
  },
});
