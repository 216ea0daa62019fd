import { forbidden, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

/**
 * 推送接口: an enterprise's endpoints are its admin's alone (they carry the enterprise's business events to its own
 * systems); another enterprise's endpoint does not exist for anyone else.
 */
export const webhookPolicy = definePolicy({
  /** registering, editing, reading the endpoints and their deliveries: the enterprise admin; returns the enterprise */
  manage(actor: Actor): number {
    requireRole(actor, ['enterprise_admin'], '只有企业管理员可以管理推送接口');
    if (actor.enterpriseId === null) throw forbidden('只有企业管理员可以管理推送接口');
    return actor.enterpriseId;
  },
  /** one endpoint: its own enterprise's admin; anyone else is told it does not exist */
  own(actor: Actor, endpoint: { enterpriseId: number }) {
    requireRole(actor, ['enterprise_admin'], '只有企业管理员可以管理推送接口');
    if (actor.enterpriseId === null || actor.enterpriseId !== endpoint.enterpriseId) throw notFound('推送接口不存在');
  },
});
