import { INVOICE_LIVE_STATES, type InvoiceDueQuery } from '@coalx/shared';
import { and, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { invoices, orders } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { grantsHeld } from '../modules/auth/grants.service';
import { dueOf, invoiceTotalsByOrder } from '../modules/invoice/invoice.service';
import { invoicePolicy } from '../modules/invoice/invoice.policy';

/**
 * 待开票: settled orders whose live invoices do not yet total the settled amount (to the fen), read across the
 * order and its invoices. Each party sees its own (the seller registers, the buyer waits), the trading centre all.
 */
export async function invoiceDueOrders(db: Db, actor: Actor, query: InvoiceDueQuery) {
  const enterpriseId = invoicePolicy.can(actor, 'list');
  const live = db
    .select({ orderId: invoices.orderId, n: sql<number>`count(*)::int`.as('n'), total: sql<string>`sum(${invoices.totalFen})`.as('total') })
    .from(invoices)
    .where(inArray(invoices.status, [...INVOICE_LIVE_STATES]))
    .groupBy(invoices.orderId)
    .as('live');
  const where = and(
    eq(orders.status, 'settled'),
    enterpriseId === null ? undefined : or(eq(orders.sellerEnterpriseId, enterpriseId), eq(orders.buyerEnterpriseId, enterpriseId)),
    query.orderNo ? ilike(orders.orderNo, `%${query.orderNo.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    or(isNull(live.orderId), sql`${live.total} <> ${orders.settledFen}`),
  );
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(orders).leftJoin(live, eq(live.orderId, orders.id)).where(where),
    db
      .select({ order: orders })
      .from(orders)
      .leftJoin(live, eq(live.orderId, orders.id))
      .where(where)
      .orderBy(desc(orders.settledAt), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize),
  ]);
  const totals = await invoiceTotalsByOrder(db, rows.map((r) => r.order.id));
  const none = { count: 0, total: 0, confirmedCount: 0, confirmedTotal: 0 };
  const held = await grantsHeld(db, actor);
  return {
    records: rows.map((r) => dueOf(actor, held, r.order, totals.get(r.order.id) ?? none)),
    total: Number(total?.n ?? 0),
    current: query.pageNo,
    size: query.pageSize,
  };
}
