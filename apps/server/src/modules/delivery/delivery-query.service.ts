import { type DeliveryDay, type OrderDelivery, type SignForQuery, type TransportQuery } from '@coalx/shared';
import { and, count, desc, eq, gte, ilike, inArray, isNull, like, lt, or, type SQL } from 'drizzle-orm';
import { inIdOrder, listPageIds } from '../../lib/list-page';
import type { Db, Tx } from '../../db/client';
import { dispatches, qualityReports, weighTickets, type Order } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { shanghaiDate, shanghaiDayStart } from '../../lib/shanghai-time';
import { filesByIds } from '../files/files.service';
import type { FileStorage } from '../files/storage';
import { deliveryOrdersPage, orderNoContains } from '../order/order-delivery.service';
import { findOrder, orderForActor } from '../order/order.service';
import { grantsHeld } from '../auth/grants.service';
import { deliveryPolicy } from './delivery.policy';
import { presentOrder, presentReports, presentTrucks } from './delivery.presenter';
import { OPEN_TRUCK_STATES, netOnBasis, truckForActor } from './trucks.service';

/** Reading delivery: one order's trucks and reports, a dispatch note, the lists, their files, settlement's sources. */


/** A file attached to the order's delivery, for its parties and the trading centre; anything else: 文件不存在. */
export async function orderFile(db: Db, storage: FileStorage, actor: Actor, orderId: number, fileId: number) {
  await orderForActor(db, actor, orderId);
  const [ticket] = await db
    .select({ id: weighTickets.id })
    .from(weighTickets)
    .where(and(eq(weighTickets.orderId, orderId), eq(weighTickets.photoFileId, fileId)))
    .limit(1);
  const [report] = ticket
    ? [ticket]
    : await db
        .select({ id: qualityReports.id })
        .from(qualityReports)
        .where(and(eq(qualityReports.orderId, orderId), eq(qualityReports.fileId, fileId)))
        .limit(1);
  let attached = !!report;
  if (!attached) {
    const disputed = await db.select({ ids: dispatches.disputeFileIds }).from(dispatches).where(eq(dispatches.orderId, orderId));
    attached = disputed.some((d) => d.ids?.includes(fileId));
  }
  if (!attached) throw notFound('文件不存在');
  const [file] = await filesByIds(db, [fileId]);
  const stream = file ? await storage.read(file.storageKey) : null;
  if (!file || !stream) throw notFound('文件不存在');
  return { file, stream };
}


/** One order's delivery: progress, trucks with tickets, lab reports (the order detail's 物流 part). */
export async function orderDelivery(db: Db, actor: Actor, orderId: number): Promise<OrderDelivery> {
  const { order } = await orderForActor(db, actor, orderId);
  const trucks = await db.select().from(dispatches).where(eq(dispatches.orderId, orderId)).orderBy(desc(dispatches.id));
  const reports = await db.select().from(qualityReports).where(eq(qualityReports.orderId, orderId)).orderBy(desc(qualityReports.id));
  const open = trucks.filter((t) => (OPEN_TRUCK_STATES as readonly string[]).includes(t.status)).length;
  return {
    order: presentOrder(actor, await grantsHeld(db, actor), order, open),
    trucks: await presentTrucks(db, actor, trucks, new Map([[order.id, order]])),
    reports: await presentReports(db, actor, reports, order),
  };
}

/** The dispatch note (派车单) of one truck: for the order's parties and the trading centre. */
export async function dispatchNote(db: Db, actor: Actor, id: number) {
  const { truck, order } = await truckForActor(db, actor, id);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return { truck: view!, order: presentOrder(actor, await grantsHeld(db, actor), order, 0) };
}

/** The mine gate opens the loading record from the QR code: the seller's users and the trading centre only. */
export async function truckAtGate(db: Db, actor: Actor, token: string) {
  const [truck] = await db.select().from(dispatches).where(eq(dispatches.gateToken, token)).limit(1);
  if (!truck) throw notFound('派车单不存在');
  const order = await findOrder(db, truck.orderId);
  deliveryPolicy.can(actor, 'openAtGate', order);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return { truck: view!, order: presentOrder(actor, await grantsHeld(db, actor), order, 0) };
}


// ---------- lists ----------

/** A plate typed from its province (晋B…) is a prefix, read from the plate index; any other text is a contains. */
function plateFilter(text: string): SQL {
  const literal = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return /^[\u4e00-\u9fff]/.test(text) ? like(dispatches.plateNo, `${literal.toUpperCase()}%`) : ilike(dispatches.plateNo, `%${literal}%`);
}

/** The list's filters without the enterprise's sides (the paged list reads each side on its own). */
function transportFilter(query: Omit<TransportQuery, 'pageNo' | 'pageSize'>): SQL | undefined {
  const escape = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(
    query.orderNo ? orderNoContains(dispatches.orderId, query.orderNo) : undefined,
    query.dispatchNo ? ilike(dispatches.dispatchNo, escape(query.dispatchNo)) : undefined,
    query.plateNo ? plateFilter(query.plateNo) : undefined,
    query.driverName ? ilike(dispatches.driverName, escape(query.driverName)) : undefined,
    query.status ? eq(dispatches.status, query.status) : undefined,
    query.dateFrom ? gte(dispatches.createdAt, shanghaiDayStart(new Date(`${query.dateFrom}T12:00:00+08:00`))) : undefined,
    query.dateTo ? lt(dispatches.createdAt, shanghaiDayStart(new Date(`${query.dateTo}T12:00:00+08:00`), 1)) : undefined,
  );
}

function transportWhere(enterpriseId: number | null, query: Omit<TransportQuery, 'pageNo' | 'pageSize'>): SQL | undefined {
  return and(enterpriseId === null ? undefined : or(eq(dispatches.sellerEnterpriseId, enterpriseId), eq(dispatches.buyerEnterpriseId, enterpriseId)), transportFilter(query));
}

/** 运输信息: every truck of the enterprise's orders, sent or received (the trading centre: all), newest first. */
export async function listTrucks(db: Db, actor: Actor, query: TransportQuery) {
  const enterpriseId = deliveryPolicy.can(actor, 'list');
  const party = enterpriseId === null ? null : { enterpriseId, seller: dispatches.sellerEnterpriseId, buyer: dispatches.buyerEnterpriseId };
  const { ids, total, totalCapped } = await listPageIds(db, { table: dispatches, id: dispatches.id, where: transportFilter(query), order: [{ key: dispatches.id, desc: true }], ...query }, party);
  const rows = ids.length ? await db.select().from(dispatches).where(inArray(dispatches.id, ids)) : [];
  return { records: await presentTrucks(db, actor, inIdOrder(ids, rows)), total, totalCapped, current: query.pageNo, size: query.pageSize };
}

/** The same filters for the Excel export: at most 5,000 trucks. */
export async function trucksForExport(db: Db, actor: Actor, query: Omit<TransportQuery, 'pageNo' | 'pageSize'>) {
  const enterpriseId = deliveryPolicy.can(actor, 'list');
  const rows = await db.select().from(dispatches).where(transportWhere(enterpriseId, query)).orderBy(desc(dispatches.id)).limit(5000);
  return presentTrucks(db, actor, rows);
}

/**
 * 收货签收: the buyer's arrived and disputed trucks; the seller's disputes to answer; the trading centre's
 * disputes to rule. Oldest first (the one closest to its auto sign-for).
 */
export async function signForQueue(db: Db, actor: Actor, page: SignForQuery) {
  const who = deliveryPolicy.can(actor, 'queue');
  const queue =
    who === 'operator'
      ? eq(dispatches.status, 'disputed')
      : or(
          and(inArray(dispatches.status, ['arrived', 'disputed']), eq(dispatches.buyerEnterpriseId, actor.enterpriseId!)),
          and(eq(dispatches.status, 'disputed'), eq(dispatches.sellerEnterpriseId, actor.enterpriseId!)),
        );
  // filters from the to-dos' links: the trucks to sign, the disputes, the disputes still to answer (the seller's)
  const where = and(
    queue,
    page.status ? eq(dispatches.status, page.status) : undefined,
    page.answer === 'pending'
      ? and(eq(dispatches.status, 'disputed'), isNull(dispatches.sellerAnswer), who === 'operator' ? undefined : eq(dispatches.sellerEnterpriseId, actor.enterpriseId!))
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(dispatches).where(where);
  const rows = await db
    .select()
    .from(dispatches)
    .where(where)
    .orderBy(dispatches.arrivedAt, dispatches.id)
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize);
  return { records: await presentTrucks(db, actor, rows), total: Number(total?.n ?? 0), current: page.pageNo, size: page.pageSize };
}

/** 物流信息: the orders with delivery to show, with their progress. */
export async function deliveryProgress(db: Db, actor: Actor, query: { pageNo: number; pageSize: number; orderNo?: string }) {
  const enterpriseId = deliveryPolicy.can(actor, 'list');
  const { rows, total } = await deliveryOrdersPage(db, enterpriseId, query);
  const open =
    rows.length === 0
      ? []
      : await db
          .select({ orderId: dispatches.orderId, n: count() })
          .from(dispatches)
          .where(and(inArray(dispatches.orderId, rows.map((r) => r.id)), inArray(dispatches.status, [...OPEN_TRUCK_STATES])))
          .groupBy(dispatches.orderId);
  const openOf = new Map(open.map((o) => [o.orderId, Number(o.n)]));
  const held = await grantsHeld(db, actor);
  return { records: rows.map((o) => presentOrder(actor, held, o, openOf.get(o.id) ?? 0)), total, current: query.pageNo, size: query.pageSize };
}

/** Loaded, arrived and signed tons by day (Asia/Shanghai) of one order, for the chart. */
export async function deliveryDaily(db: Db, actor: Actor, orderId: number): Promise<DeliveryDay[]> {
  await orderForActor(db, actor, orderId);
  const rows = await db.select().from(dispatches).where(eq(dispatches.orderId, orderId));
  const days = new Map<string, DeliveryDay>();
  const dayOf = (day: string) => {
    let entry = days.get(day);
    if (!entry) days.set(day, (entry = { day, loadedKg: 0, arrivedKg: 0, signedKg: 0, trucks: 0 }));
    return entry;
  };
  for (const truck of rows) {
    if (truck.status === 'refused' || truck.status === 'cancelled') continue;
    if (truck.loadedAt && truck.loadedNetKg !== null) {
      const entry = dayOf(shanghaiDate(truck.loadedAt));
      entry.loadedKg += truck.loadedNetKg;
      entry.trucks += 1;
    }
    if (truck.arrivedAt && truck.arrivedNetKg !== null) dayOf(shanghaiDate(truck.arrivedAt)).arrivedKg += truck.arrivedNetKg;
    if (truck.signedAt && truck.signedKg !== null) dayOf(shanghaiDate(truck.signedAt)).signedKg += truck.signedKg;
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

// ---------- what a settlement statement is built from (modules/settlement) ----------

/**
 * The trucks that count for an order's settlement (signed for), with both tickets and the weight on the contract's
 * basis, and its accepted lab report (the latest if there are several); null when none is accepted.
 */
export async function settlementSources(db: Db | Tx, order: Order) {
  const trucks = await db.select().from(dispatches).where(and(eq(dispatches.orderId, order.id), eq(dispatches.status, 'signed'))).orderBy(dispatches.id);
  const tickets = trucks.length ? await db.select().from(weighTickets).where(inArray(weighTickets.dispatchId, trucks.map((t) => t.id))) : [];
  const ticketOf = (dispatchId: number, stage: string) => tickets.find((t) => t.dispatchId === dispatchId && t.stage === stage);
  const [report] = await db
    .select()
    .from(qualityReports)
    .where(and(eq(qualityReports.orderId, order.id), eq(qualityReports.status, 'accepted')))
    .orderBy(desc(qualityReports.id))
    .limit(1);
  return {
    trucks: trucks.map((t) => ({
      dispatchNo: t.dispatchNo,
      plateNo: t.plateNo,
      loadingTicketNo: ticketOf(t.id, 'loading')?.ticketNo ?? '',
      loadedNetKg: t.loadedNetKg,
      arrivalTicketNo: ticketOf(t.id, 'arrival')?.ticketNo ?? '',
      arrivedNetKg: t.arrivedNetKg,
      signedKg: t.signedKg ?? netOnBasis(order, t),
    })),
    report: report ?? null,
  };
}
