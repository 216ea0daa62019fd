import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

interface DeviceOwnership {
  enterpriseId: number;
  userId: number;
}

/** Another enterprise's device answers 404, so its existence is not told. */
function sameEnterprise(actor: Actor, device: DeviceOwnership) {
  if (actor.enterpriseId === null || device.enterpriseId !== actor.enterpriseId) throw notFound('数字证书不存在');
}

/**
 * Who may do what with key devices: enterprise people hold their own; the enterprise admin approves and revokes
 * for the enterprise; only a device's own user signs with it or renews it.
 */
export const ukeyPolicy = definePolicy({
  /** Apply, query, ask for a challenge. Returns the actor's enterprise id. */
  hold(actor: Actor): number {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以申请数字证书');
    return actor.enterpriseId!;
  },
  see(actor: Actor, device: DeviceOwnership) {
    sameEnterprise(actor, device);
  },
  decide(actor: Actor, device: DeviceOwnership) {
    sameEnterprise(actor, device);
    if (actor.role !== 'enterprise_admin') throw forbidden('只有企业管理员可以审批数字证书申请');
  },
  renew(actor: Actor, device: DeviceOwnership) {
    sameEnterprise(actor, device);
    if (device.userId !== actor.userId) throw forbidden('只能更新本人的数字证书');
  },
  revoke(actor: Actor, device: DeviceOwnership) {
    sameEnterprise(actor, device);
    if (device.userId !== actor.userId && actor.role !== 'enterprise_admin') throw forbidden('只能注销本人的数字证书，或由企业管理员注销');
  },
  /** Signing with a device: only its own user, of its own enterprise. */
  use(actor: Actor, device: DeviceOwnership) {
    sameEnterprise(actor, device);
    if (device.userId !== actor.userId) throw forbidden('该数字证书不属于当前用户');
  },
});
