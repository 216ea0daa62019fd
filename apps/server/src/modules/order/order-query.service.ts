import { formatDateTime, type OrderDetail, type OrderFilter, type OrderPaymentQuery, type OrderQuery, type OrderSummary } from '@coalx/shared';
import { and, count, desc, eq, gt, gte, ilike, inArray, isNotNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, type Order } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { shanghaiDate } from '../../lib/shanghai-time';
import { inIdOrder, listPageIds } from '../../lib/list-page';
import { ordersWithLabReports } from '../delivery/lab-report-filter';
import { grantsHeld } from '../auth/grants.service';
import { orderPolicy, orderSideOf } from './order.policy';
import { maxDeliverableKg, orderForActor, orderTimeline } from './order.service';

// ---------- reading orders: lists, detail, payments (each side sees only its own; the trading centre all) ----------

const dt = (d: Date | null) => (d ? formatDateTime(d) : null);

export function presentOrder(order: Order, actor: Actor, now: Date): OrderSummary {
  return {
    id: order.id,
    orderNo: order.orderNo,
    contractId: order.contractId,
    contractNo: order.contractNo,
    mySide: orderSideOf(actor, order),
    sellerName: order.sellerName,
    buyerName: order.buyerName,
    productName: order.productName,
    quantity: order.quantityKg,
    price: order.priceFen,
    amount: order.amountFen,
    prepayment: order.prepaymentFen,
    escrow: order.escrowFen,
    paidAt: dt(order.paidAt),
    status: order.status,
    paymentDeadline: formatDateTime(order.paymentDeadline),
    overdue: order.status === 'unpaid' && order.paymentDeadline < now,
    progress: {
      plannedKg: order.plannedKg,
      dispatchedTrucks: order.dispatchedTrucks,
      loadedKg: order.loadedKg,
      loadedTrucks: order.loadedTrucks,
      arrivedKg: order.arrivedKg,
      arrivedTrucks: order.arrivedTrucks,
      signedKg: order.signedKg,
      signedTrucks: order.signedTrucks,
    },
    transportSide: order.transportSide === 'seller' ? 'seller' : 'buyer',
    createdAt: formatDateTime(order.createdAt),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const like = (text: string) => `%${escapeLike(text)}%`;
// dates are Shanghai calendar days, both ends included
const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 24 * 3600 * 1000);

function ownerWhere(enterpriseId: number | null): SQL | undefined {
  return enterpriseId === null ? undefined : or(eq(orders.sellerEnterpriseId, enterpriseId), eq(orders.buyerEnterpriseId, enterpriseId));
}

/** The list's filters except the state (the tabs count over these). */
function filterWhere(db: Db, enterpriseId: number | null, query: OrderFilter, now: Date): SQL | undefined {
  return and(ownerWhere(enterpriseId), sideFilterWhere(db, enterpriseId, query, now));
}

/** The list's filters without the enterprise's sides or the state (the paged list reads each side on its own). */
function sideFilterWhere(db: Db, enterpriseId: number | null, query: OrderFilter, now: Date): SQL | undefined {
  // an enterprise searches by its counterparty; the trading centre by either party
  const counterparty = query.counterparty
    ? enterpriseId === null
      ? or(ilike(orders.sellerName, like(query.counterparty)), ilike(orders.buyerName, like(query.counterparty)))
      : or(
          and(eq(orders.sellerEnterpriseId, enterpriseId), ilike(orders.buyerName, like(query.counterparty))),
          and(eq(orders.buyerEnterpriseId, enterpriseId), ilike(orders.sellerName, like(query.counterparty))),
        )
    : undefined;
  return and(
    query.orderNo ? ilike(orders.orderNo, like(query.orderNo)) : undefined,
    query.contractNo ? ilike(orders.contractNo, like(query.contractNo)) : undefined,
    query.productName ? ilike(orders.productName, like(query.productName)) : undefined,
    counterparty,
    query.dateFrom ? gte(orders.createdAt, dayStart(query.dateFrom)) : undefined,
    query.dateTo ? lt(orders.createdAt, nextDay(query.dateTo)) : undefined,
    query.overdue === '1' ? and(eq(orders.status, 'unpaid'), lt(orders.paymentDeadline, now)) : undefined,
    query.late === '1' ? pastDeliveryWindow(now) : undefined,
    query.labReport ? inArray(orders.id, ordersWithLabReports(db, query.labReport, enterpriseId)) : undefined,
  );
}

/** Orders still to ship or shipping whose delivery window (terms.deliveryDateEnd, a Shanghai day) ended before today. */
export function pastDeliveryWindow(now: Date): SQL {
  return and(inArray(orders.status, ['awaiting_shipment', 'shipping']), sql`${orders.terms}->>'deliveryDateEnd' < ${shanghaiDate(now)}`)!;
}

function listWhere(db: Db, enterpriseId: number | null, query: OrderFilter, now: Date): SQL | undefined {
  return and(filterWhere(db, enterpriseId, query, now), query.status ? eq(orders.status, query.status) : undefined);
}

export async function listOrders(db: Db, clock: Clock, actor: Actor, query: OrderQuery) {
  const enterpriseId = orderPolicy.can(actor, 'list');
  const now = clock.now();
  const filters = sideFilterWhere(db, enterpriseId, query, now);
  const party = enterpriseId === null ? null : { enterpriseId, seller: orders.sellerEnterpriseId, buyer: orders.buyerEnterpriseId };
  // the tabs' counts: each side from its (side, status) index (an enterprise never trades with itself: lib/list-page.ts)
  const statusCounts = (where: SQL | undefined) => db.select({ status: orders.status, n: count() }).from(orders).where(where).groupBy(orders.status);
  const [page, ...byStatus] = await Promise.all([
    listPageIds(
      db,
      { table: orders, id: orders.id, where: and(filters, query.status ? eq(orders.status, query.status) : undefined), order: [{ key: orders.createdAt, desc: true }, { key: orders.id, desc: true }], ...query },
      party,
    ),
    ...(enterpriseId === null
      ? [statusCounts(filters)]
      : [statusCounts(and(eq(orders.sellerEnterpriseId, enterpriseId), filters)), statusCounts(and(eq(orders.buyerEnterpriseId, enterpriseId), filters))]),
  ]);
  const rows = page.ids.length ? await db.select().from(orders).where(inArray(orders.id, page.ids)) : [];
  const counts: Record<string, number> = { all: 0 };
  for (const row of byStatus.flat()) {
    counts[row.status] = (counts[row.status] ?? 0) + Number(row.n);
    counts.all! += Number(row.n);
  }
  return {
    records: inIdOrder(page.ids, rows).map((r) => presentOrder(r, actor, now)),
    total: page.total,
    totalCapped: page.totalCapped,
    current: query.pageNo,
    size: query.pageSize,
    counts,
  };
}

/** Every order the list's filters find (the Excel export), newest first, at most 5,000. */
export async function ordersForExport(db: Db, clock: Clock, actor: Actor, query: OrderFilter) {
  const enterpriseId = orderPolicy.can(actor, 'list');
  const now = clock.now();
  const rows = await db.select().from(orders).where(listWhere(db, enterpriseId, query, now)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(5000);
  return rows.map((r) => presentOrder(r, actor, now));
}

/** The order as a party or the trading centre sees it: money, progress, the terms delivery works by, timeline. */
export async function orderDetail(db: Db, clock: Clock, actor: Actor, id: number): Promise<OrderDetail> {
  const { order, side } = await orderForActor(db, actor, id);
  return presentDetail(db, clock.now(), actor, order, side);
}

export async function presentDetail(db: Db, now: Date, actor: Actor, order: Order, side = orderSideOf(actor, order)): Promise<OrderDetail> {
  const [events, held] = await Promise.all([orderTimeline(db, order.id), grantsHeld(db, actor)]);
  const can = orderPolicy.verdicts(actor, held, order, {
    pay: { rule: 'pay', when: side === 'buyer' && order.status === 'unpaid' },
    terminate: { rule: 'terminate', when: TERMINABLE.includes(order.status) },
  });
  const t = order.terms;
  return {
    ...presentOrder(order, actor, now),
    dealNo: order.dealNo,
    tradeNo: order.tradeNo,
    priceType: order.priceType,
    quality: order.quality,
    terms: {
      quantityTolerancePct: t.quantityTolerancePct,
      transitLossPct: t.transitLossPct,
      weighingBasis: t.weighingBasis,
      testingBasis: t.testingBasis,
      transportArranger: t.transportArranger,
      deliveryPlace: t.deliveryPlace,
      deliveryDateStart: t.deliveryDateStart,
      deliveryDateEnd: t.deliveryDateEnd,
      prepaymentPct: t.prepaymentPct,
      paymentWorkingDays: t.paymentWorkingDays,
    },
    maxDeliverable: maxDeliverableKg(order),
    shippedAt: dt(order.shippedAt),
    deliveredAt: dt(order.deliveredAt),
    terminatedAt: dt(order.terminatedAt),
    terminateReason: order.terminateReason,
    canPay: can.pay,
    canTerminate: can.terminate,
    timeline: events.map((e) => ({ at: formatDateTime(e.at), action: e.action, actorName: e.actorName, note: e.note })),
  };
}

const TERMINABLE: readonly string[] = ['unpaid', 'awaiting_shipment', 'shipping', 'awaiting_settlement'];

/**
 * 货款支付: 'due' lists the orders still waiting for their prepayment (the buyer pays them; the seller sees what it
 * is owed), 'paid' the orders whose prepayment went into escrow, newest payment first.
 */
export async function listOrderPayments(db: Db, clock: Clock, actor: Actor, query: OrderPaymentQuery) {
  const enterpriseId = orderPolicy.can(actor, 'list');
  const now = clock.now();
  const side =
    enterpriseId === null || !query.side ? undefined : eq(query.side === 'buyer' ? orders.buyerEnterpriseId : orders.sellerEnterpriseId, enterpriseId);
  const where =
    query.tab === 'due'
      ? and(ownerWhere(enterpriseId), side, eq(orders.status, 'unpaid'))
      : and(ownerWhere(enterpriseId), side, isNotNull(orders.paidAt), gt(orders.prepaymentFen, 0), ne(orders.status, 'unpaid'));
  const order = query.tab === 'due' ? [orders.paymentDeadline, orders.id] : [desc(orders.paidAt), desc(orders.id)];
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(orders).where(where),
    db.select().from(orders).where(where).orderBy(...order).limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize),
  ]);
  return { records: rows.map((r) => presentOrder(r, actor, now)), total: Number(total?.n ?? 0), current: query.pageNo, size: query.pageSize };
}
