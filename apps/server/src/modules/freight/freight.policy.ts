import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

/**
 * Freight statements belong to the transporting enterprise that drafted them: its users draft, confirm, pay and
 * void them; the trading centre sees all of them and changes none (the carrier is paid off the platform); another
 * enterprise's statement is "not found".
 */
export const freightPolicy = definePolicy({
  /** drafting, confirming, paying, voiding: a user of an enterprise; returns its id */
  manage(actor: Actor): number {
    requireRole(actor, TRADING_ROLES, '只有企业用户可以办理运费结算');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以办理运费结算');
    return actor.enterpriseId;
  },
  /** lists and the summary: an enterprise its own, the trading centre all; returns the enterprise to filter by */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看运费结算');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看运费结算');
    return actor.enterpriseId;
  },
  view(actor: Actor, statement: { enterpriseId: number }) {
    if (isPlatformStaff(actor)) return;
    if (actor.enterpriseId === null || actor.enterpriseId !== statement.enterpriseId) throw notFound('运费结算单不存在');
  },
  /** a move on the statement: its own enterprise only */
  act(actor: Actor, statement: { enterpriseId: number }) {
    const enterpriseId = freightPolicy.can(actor, 'manage');
    if (enterpriseId !== statement.enterpriseId) throw notFound('运费结算单不存在');
  },
  confirm(actor: Actor, statement: { enterpriseId: number }): void {
    freightPolicy.can(actor, 'act', statement);
  },
  pay(actor: Actor, statement: { enterpriseId: number }): void {
    freightPolicy.can(actor, 'act', statement);
  },
  cancel(actor: Actor, statement: { enterpriseId: number }): void {
    freightPolicy.can(actor, 'act', statement);
  },
}, {
  // the route grants of the writes (api/freight.routes.ts asks the same): drafting adds, the moves edit
  manage: 'logistics-freight.add',
  confirm: ['logistics-freight.edit', 'settlement-logistics.edit'],
  pay: ['logistics-freight.edit', 'settlement-logistics.edit'],
  cancel: 'logistics-freight.edit',
});
