import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { orders, type Order } from '../../db/schema/index';

/**
 * What the delivery module reads of orders beyond the order core: lists of orders with their progress (物流信息),
 * and SQL filters by the order's parties or number for its truck lists, so it never names the orders table itself.
 */

/** States in which an order has delivery to show (paid: trucks may come, or came). */
export const DELIVERY_VISIBLE_STATES = ['awaiting_shipment', 'shipping', 'awaiting_settlement', 'settled', 'completed'] as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function partyOf(enterpriseId: number | null): SQL | undefined {
  return enterpriseId === null ? undefined : or(eq(orders.sellerEnterpriseId, enterpriseId), eq(orders.buyerEnterpriseId, enterpriseId));
}

/** The orders with delivery under way or done, newest first: the enterprise's own (null: all). */
export async function deliveryOrdersPage(db: Db, enterpriseId: number | null, query: { pageNo: number; pageSize: number; orderNo?: string }) {
  const where = and(
    partyOf(enterpriseId),
    inArray(orders.status, [...DELIVERY_VISIBLE_STATES]),
    query.orderNo ? ilike(orders.orderNo, `%${escapeLike(query.orderNo)}%`) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function ordersByIds(db: Db | Tx, ids: readonly number[]): Promise<Map<number, Order>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(orders).where(inArray(orders.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** SQL true when the order (by its id column) is one of the enterprise's, as seller or buyer. */
export function orderOfEnterprise(orderId: PgColumn, enterpriseId: number): SQL {
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.sellerEnterpriseId} = ${enterpriseId} OR ${orders.buyerEnterpriseId} = ${enterpriseId})`;
}

/** SQL true when the order's number contains the text. */
export function orderNoContains(orderId: PgColumn, text: string): SQL {
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.orderNo} ILIKE ${`%${escapeLike(text)}%`})`;
}

/** SQL true when the enterprise is the order's buyer / seller. */
export function orderWithBuyer(orderId: PgColumn, enterpriseId: number): SQL {
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.buyerEnterpriseId} = ${enterpriseId})`;
}
export function orderWithSeller(orderId: PgColumn, enterpriseId: number): SQL {
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.sellerEnterpriseId} = ${enterpriseId})`;
}

/** The seller's orders in 待结算, newest first (the settlement module's 开具结算单 list). */
export async function ordersForSettlement(db: Db | Tx, sellerEnterpriseId: number): Promise<Order[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.sellerEnterpriseId, sellerEnterpriseId), eq(orders.status, 'awaiting_settlement')))
    .orderBy(desc(orders.id))
    .limit(200);
}

/** The orders of these deals (a long-term deal's call-offs): what each delivered and whether it is settled. */
export async function deliveryOfDeals(db: Db | Tx, dealIds: readonly number[]) {
  const unique = [...new Set(dealIds)];
  if (unique.length === 0) return [];
  return db
    .select({
      id: orders.id,
      orderNo: orders.orderNo,
      dealId: orders.dealId,
      contractId: orders.contractId,
      contractNo: orders.contractNo,
      status: orders.status,
      signedKg: orders.signedKg,
      settledAt: orders.settledAt,
    })
    .from(orders)
    .where(inArray(orders.dealId, unique));
}
