import { forbidden, notFound } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, isPlatformStaff, requireRole } from '../../lib/policy';

type Parties = { sellerEnterpriseId: number; buyerEnterpriseId: number };

/** The side the actor's enterprise holds in the invoice's order, or null. */
export function invoiceSideOf(actor: Actor, parties: Parties): 'seller' | 'buyer' | null {
  if (actor.enterpriseId === null) return null;
  if (parties.sellerEnterpriseId === actor.enterpriseId) return 'seller';
  if (parties.buyerEnterpriseId === actor.enterpriseId) return 'buyer';
  return null;
}

function actAs(actor: Actor, parties: Parties, side: 'seller' | 'buyer', missing: string) {
  const mine = invoiceSideOf(actor, parties);
  if (!mine && !isPlatformStaff(actor)) throw notFound(missing);
  requireRole(actor, TRADING_ROLES, side === 'seller' ? '只有卖方可以登记或红冲发票' : '只有买方可以确认收票');
  if (mine !== side) throw forbidden(side === 'seller' ? '只有卖方可以登记或红冲发票' : '只有买方可以确认收票');
}

/**
 * VAT invoices: the seller registers and reverses them, the buyer confirms receipt, both parties see their own and
 * the trading centre sees all. Another enterprise's invoice or order is "not found".
 */
export const invoicePolicy = definePolicy({
  view(actor: Actor, invoice: Parties) {
    if (isPlatformStaff(actor)) return;
    if (!invoiceSideOf(actor, invoice)) throw notFound('发票不存在');
  },
  /** returns the enterprise to filter by (null: all) */
  list(actor: Actor): number | null {
    if (isPlatformStaff(actor)) return null;
    requireRole(actor, TRADING_ROLES, '只有企业用户可以查看发票');
    if (actor.enterpriseId === null) throw forbidden('只有企业用户可以查看发票');
    return actor.enterpriseId;
  },
  register(actor: Actor, order: Parties) {
    actAs(actor, order, 'seller', '订单不存在');
  },
  reverse(actor: Actor, invoice: Parties) {
    actAs(actor, invoice, 'seller', '发票不存在');
  },
  confirm(actor: Actor, invoice: Parties) {
    actAs(actor, invoice, 'buyer', '发票不存在');
  },
}, {
  // the route grants of the writes (api/invoice.routes.ts asks the same): registering and reversing add an invoice
  register: 'invoice.add',
  reverse: 'invoice.add',
  confirm: 'invoice.edit',
});
