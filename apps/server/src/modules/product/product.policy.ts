import { PLATFORM_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export const productPolicy = definePolicy({
  /** The product catalogue every listing and auction picks from. */
  maintain(actor: Actor) {
    requireRole(actor, PLATFORM_ROLES, '只有交易中心可以维护产品目录');
  },
});
