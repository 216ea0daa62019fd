import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

/**
 * Drivers belong to the enterprise that registered them: it registers, edits and stops them and sees their ID
 * numbers and photos; the trading centre audits them and sees everything; anyone else sees a driver only as a
 * dispatch shows him, masked.
 */
export const driverPolicy = definePolicy({
  /** registering, editing, stopping: a user of the enterprise; returns its id */
  manage(actor: Actor): number {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以登记司机');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以登记司机');
    return actor.enterpriseId;
  },
  /** lists: an enterprise its own drivers, the trading centre all; returns the enterprise to filter by (null: all) */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看司机');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看司机');
    return actor.enterpriseId;
  },
  /** one driver's full record (ID number, photos): its enterprise or the trading centre */
  viewPrivate(actor: Actor, driver: { enterpriseId: number }) {
    if (isPlatformStaff(actor)) return;
    if (actor.enterpriseId !== driver.enterpriseId) throw notFound('司机不存在');
  },
  /** 司机审核 */
  audit(actor: Actor) {
    requireRole(actor, ['operator'], '只有交易中心运营人员可以审核司机');
  },
});
