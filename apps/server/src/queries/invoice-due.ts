import type { InvoiceDueQuery } from '@coalx/shared';
import { and, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { inIdOrder, listPageIds } from '../lib/list-page';
import { grantsHeld } from '../modules/auth/grants.service';
import { dueOf, invoiceTotalsByOrder } from '../modules/invoice/invoice.service';
import { invoicePolicy } from '../modules/invoice/invoice.policy';

/**
 * 待开票: settled orders whose live invoices do not yet total the settled amount (to the fen). The order keeps its
 * live invoices' total (`invoiced_fen`, by trigger), so the due orders are a partial index of their own and the page
 * reads only them. Each party sees its own (the seller registers, the buyer waits), the trading centre all.
 */
export async function invoiceDueOrders(db: Db, actor: Actor, query: InvoiceDueQuery) {
  const enterpriseId = invoicePolicy.can(actor, 'list');
  const where = and(
    eq(orders.status, 'settled'),
    ne(orders.invoicedFen, sql`${orders.settledFen}`),
    query.orderNo ? ilike(orders.orderNo, `%${query.orderNo.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const party = enterpriseId === null ? null : { enterpriseId, seller: orders.sellerEnterpriseId, buyer: orders.buyerEnterpriseId };
  const order = [{ key: orders.settledAt, desc: true }, { key: orders.id, desc: true }];
  const { ids, total, totalCapped } = await listPageIds(db, { table: orders, id: orders.id, where, order, ...query }, party);
  const rows = ids.length ? await db.select().from(orders).where(inArray(orders.id, ids)) : [];
  const totals = await invoiceTotalsByOrder(db, ids);
  const none = { count: 0, total: 0, confirmedCount: 0, confirmedTotal: 0 };
  const held = await grantsHeld(db, actor);
  return {
    records: inIdOrder(ids, rows).map((order) => dueOf(actor, held, order, totals.get(order.id) ?? none)),
    total,
    totalCapped,
    current: query.pageNo,
    size: query.pageSize,
  };
}
