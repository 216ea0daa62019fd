import { randomBytes } from 'node:crypto';
import {
  DispatchStates,
  LAB_KINDS,
  ORDER_DISPATCHABLE_STATES,
  OrderStates,
  QualityReportStates,
  TESTING_BASES,
  WEIGH_CLOCK_SKEW_MS,
  arrivalTimeProblem,
  formatDateTime,
  formatTons,
  maskIdCard,
  maxTruckKg,
  planDateProblem,
  stateLabel,
  transitLoss,
  weighTicketProblem,
  type DeliveryDay,
  type DeliveryOrder,
  type DispatchAction,
  type DispatchCreate,
  type DispatchView,
  type OrderDelivery,
  type QualityReportCreate,
  type QualityReportView,
  type TransportQuery,
  type WeighTicketInput,
} from '@coalx/shared';
import { and, count, desc, eq, gte, ilike, inArray, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dispatches, qualityReports, weighTickets, type Dispatch, type QualityReport } from '../../db/schema/index';
import type { Order } from '../../db/schema/index';
import { appError, businessRule, forbidden, notFound } from '../../errors';
import { uniqueViolation } from '../../lib/db-errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { shanghaiDate, shanghaiDayStart } from '../../lib/shanghai-time';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { approvedDriver } from '../driver/driver.service';
import { filesByIds, findStoredFile, ownedFileId } from '../files/files.service';
import type { FileStorage } from '../files/storage';
import {
  deliveryOrdersPage,
  orderNoContains,
  orderOfEnterprise,
  ordersByIds,
  orderWithBuyer,
  orderWithSeller,
} from '../order/order-delivery.service';
import {
  addDeliveryProgress,
  findOrder,
  maxDeliverableKg,
  moveOrder,
  moveOrderIfNeeded,
  orderForActor,
  recordOrderEvent,
  reservePlannedKg,
} from '../order/order.service';
import { parameterNumber, workingDaysDeadline } from '../system/calendar';
import { deliveryPolicy, orderSideOf, truckPolicy } from './delivery.policy';

/**
 * Delivery by truck (DESIGN.md §8): the transporting side dispatches trucks against a paid order, the seller
 * weighs at loading, the buyer at arrival and signs for (or disputes; the seller answers, the operator rules), an
 * unanswered arrival counts as signed after the auto sign-for period, lab reports are submitted and answered. Each
 * action is one transaction that moves the truck (transition()), keeps the order's counters (order service) and
 * writes a line of the order's timeline. Every function takes (db, clock, actor, …) so a seeder can call it.
 */

/** Trucks still on their way to an end: the seller may not declare delivery finished while one is. */
const OPEN_TRUCK_STATES = ['dispatched', 'loaded', 'arrived', 'disputed'] as const;
const sideName = (side: 'seller' | 'buyer') => (side === 'seller' ? '卖方' : '买方');

// ---------- reading one truck for an actor ----------

async function findTruck(db: Db | Tx, id: number, lock = false): Promise<Dispatch> {
  const query = db.select().from(dispatches).where(eq(dispatches.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('派车单不存在');
  return row;
}

/** The truck and its order, for a party of the order or the trading centre; anyone else: 派车单不存在. */
async function truckForActor(db: Db | Tx, actor: Actor, id: number, lock = false) {
  const truck = await findTruck(db, id, lock);
  const order = await findOrder(db, truck.orderId);
  if (!deliveryPolicy.allows(actor, 'view', order)) throw notFound('派车单不存在');
  return { truck, order };
}

/** Trucks move only while the order ships (not once it is terminated or delivery is finished). */
function requireShipping(order: Order, what: string) {
  if (order.status !== 'shipping') throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能${what}`);
}

/** A photo the actor's enterprise uploaded (private, an image): checked before the transaction, owned inside it. */
async function requireImage(db: Db, key: string, label: string) {
  const file = await findStoredFile(db, key);
  if (!file || !file.contentType.startsWith('image/')) throw appError('attachment_invalid', `${label}须为已上传的 JPG 或 PNG 图片，请重新上传`);
}

/** The weight that counts for a truck: the net on the contract's weighing basis (the seller's scale: loading net;
 * the buyer's, or a third party's at the receiving end: arrival net). */
function netOnBasis(order: Order, truck: Dispatch): number {
  return (order.terms.weighingBasis === 'seller' ? truck.loadedNetKg : truck.arrivedNetKg) ?? 0;
}

// ---------- dispatch ----------

export async function dispatchTruck(db: Db, clock: Clock, actor: Actor, input: DispatchCreate): Promise<DispatchView> {
  const now = clock.now();
  const overloadPct = await parameterNumber(db, 'weigh_overload_pct');
  const id = await db.transaction(async (tx) => {
    // the order row stays locked to the end: concurrent dispatches of one order take turns
    const { order } = await orderForActor(tx, actor, input.orderId, true);
    deliveryPolicy.can(actor, 'transport', order);
    if (!(ORDER_DISPATCHABLE_STATES as readonly string[]).includes(order.status)) {
      throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能派车`);
    }
    const dateProblem = planDateProblem(input.planDate, order.terms);
    if (dateProblem) throw businessRule(dateProblem);
    const driver = await approvedDriver(tx, actor.enterpriseId!, input.driverId);
    const truckMax = maxTruckKg(driver.ratedLoadKg, overloadPct);
    if (input.plannedKg > truckMax) {
      throw businessRule(`计划装车量超过该车核定载重 ${formatTons(driver.ratedLoadKg)} 加 ${overloadPct}% 容差（最多 ${formatTons(truckMax)}）`);
    }
    const reserved = await reservePlannedKg(tx, order.id, input.plannedKg);
    if (!reserved) {
      const remaining = Math.max(0, maxDeliverableKg(order) - order.plannedKg);
      throw businessRule(`计划量超过合同数量（含溢短装）剩余可派量 ${formatTons(remaining, false)} 吨`);
    }
    if (order.status === 'awaiting_shipment') {
      await moveOrderIfNeeded(tx, order.id, 'ship', { shippedAt: now });
      await recordOrderEvent(tx, { orderId: order.id, action: '开始发运', actor, note: '首车已派出，订单进入发运中', at: now });
    }
    const dispatchNo = await nextTradeNumber(tx, 'PC', now);
    const [row] = await tx
      .insert(dispatches)
      .values({
        dispatchNo,
        orderId: order.id,
        enterpriseId: actor.enterpriseId!,
        driverId: driver.id,
        driverName: driver.name,
        driverMobile: driver.mobile,
        driverIdCardNo: driver.idCardNo,
        plateNo: driver.plateNo,
        vehicleType: driver.vehicleType,
        ratedLoadKg: driver.ratedLoadKg,
        plannedKg: input.plannedKg,
        planDate: input.planDate,
        gateToken: randomBytes(24).toString('base64url'),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: dispatches.id });
    await recordOrderEvent(tx, {
      orderId: order.id,
      action: '派车',
      actor,
      note: `派车单 ${dispatchNo}：${driver.plateNo} ${driver.name}，计划 ${formatTons(input.plannedKg)}，${input.planDate} 装车`,
      at: now,
    });
    return row!.id;
  });
  return truckView(db, actor, id);
}

export async function cancelTruck(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string }): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'transport', order);
    if (truck.enterpriseId !== actor.enterpriseId) throw forbidden('只有派车方可以取消派车');
    await transition(tx, DispatchStates, 'cancel', { table: dispatches, where: eq(dispatches.id, id), set: { cancelReason: input.reason, updatedAt: now }, notFoundMessage: '派车单不存在' });
    await addDeliveryProgress(tx, order.id, { plannedKg: -truck.plannedKg, dispatchedTrucks: -1 });
    await recordOrderEvent(tx, { orderId: order.id, action: '取消派车', actor, note: `派车单 ${truck.dispatchNo}：${input.reason}`, at: now });
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}

// ---------- weigh tickets ----------

const ticketNoUsed = (ticketNo: string) => businessRule(`磅单号 ${ticketNo} 已录入过，不能重复使用`);

async function checkTicket(tx: Tx, actor: Actor, truck: Dispatch, input: WeighTicketInput, now: Date, overloadPct: number) {
  const weighedAt = new Date(input.weighedAt);
  if (weighedAt.getTime() > now.getTime() + WEIGH_CLOCK_SKEW_MS) throw businessRule('过磅时间不能晚于当前时间');
  const problem = weighTicketProblem(input, truck.ratedLoadKg, overloadPct);
  if (problem) throw businessRule(problem);
  const [used] = await tx
    .select({ id: weighTickets.id })
    .from(weighTickets)
    .where(and(eq(weighTickets.enterpriseId, actor.enterpriseId!), eq(weighTickets.ticketNo, input.ticketNo)))
    .limit(1);
  if (used) throw ticketNoUsed(input.ticketNo);
  return weighedAt;
}

/** A unique ticket number lost to a concurrent request: the same Chinese refusal (the transaction is gone). */
async function withTicketNo<T>(ticketNo: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === 'weigh_ticket_no_uq') throw ticketNoUsed(ticketNo);
    throw err;
  }
}

/** 装车磅单 (the seller, at the mine): the truck 已派车 → 已装车. */
export async function recordLoading(db: Db, clock: Clock, actor: Actor, id: number, input: WeighTicketInput): Promise<DispatchView> {
  const now = clock.now();
  const overloadPct = await parameterNumber(db, 'weigh_overload_pct');
  await requireImage(db, input.photo, '磅单照片');
  await withTicketNo(input.ticketNo, () =>
    db.transaction(async (tx) => {
      const { truck, order } = await truckForActor(tx, actor, id, true);
      deliveryPolicy.can(actor, 'actAs', { order, side: 'seller' });
      requireShipping(order, '录入磅单');
      await transition(tx, DispatchStates, 'load', {
        table: dispatches,
        where: eq(dispatches.id, id),
        set: { updatedAt: now },
        notFoundMessage: '派车单不存在',
      });
      const weighedAt = await checkTicket(tx, actor, truck, input, now, overloadPct);
      if (weighedAt.getTime() < truck.createdAt.getTime()) throw businessRule('装车过磅时间不能早于派车时间');
      const photoFileId = await ownedFileId(tx, input.photo, actor.enterpriseId!);
      await tx.update(dispatches).set({ loadedNetKg: input.netKg, loadedAt: weighedAt }).where(eq(dispatches.id, id));
      await tx.insert(weighTickets).values({
        dispatchId: id,
        orderId: order.id,
        stage: 'loading',
        enterpriseId: actor.enterpriseId!,
        ticketNo: input.ticketNo,
        grossKg: input.grossKg,
        tareKg: input.tareKg,
        netKg: input.netKg,
        weighedAt,
        photoFileId,
        createdBy: actor.userId,
        createdAt: now,
      });
      await addDeliveryProgress(tx, order.id, { loadedKg: input.netKg, loadedTrucks: 1 });
      await recordOrderEvent(tx, { orderId: order.id, action: '装车过磅', actor, note: `派车单 ${truck.dispatchNo}：磅单 ${input.ticketNo}，净重 ${formatTons(input.netKg)}`, at: now });
    }),
  );
  return truckView(db, actor, id);
}

/** 到货磅单 (the buyer): the truck 已装车 → 已到货; the transit loss is measured and the auto sign-for time set. */
export async function recordArrival(db: Db, clock: Clock, actor: Actor, id: number, input: WeighTicketInput): Promise<DispatchView> {
  const now = clock.now();
  const overloadPct = await parameterNumber(db, 'weigh_overload_pct');
  const autoSignDays = await parameterNumber(db, 'auto_sign_for_days');
  await requireImage(db, input.photo, '磅单照片');
  await withTicketNo(input.ticketNo, () =>
    db.transaction(async (tx) => {
      const { truck, order } = await truckForActor(tx, actor, id, true);
      deliveryPolicy.can(actor, 'actAs', { order, side: 'buyer' });
      requireShipping(order, '录入磅单');
      const weighedAt = new Date(input.weighedAt);
      const { lossKg, lossExceeded } = transitLoss(truck.loadedNetKg ?? 0, input.netKg, order.terms.transitLossPct);
      await transition(tx, DispatchStates, 'arrive', {
        table: dispatches,
        where: eq(dispatches.id, id),
        set: {
          arrivedNetKg: input.netKg,
          arrivedAt: weighedAt,
          lossKg,
          lossExceeded,
          autoSignAt: await workingDaysDeadline(tx, weighedAt, autoSignDays),
          updatedAt: now,
        },
        notFoundMessage: '派车单不存在',
      });
      await checkTicket(tx, actor, truck, input, now, overloadPct);
      const timeProblem = arrivalTimeProblem(truck.loadedAt!, weighedAt);
      if (timeProblem) throw businessRule(timeProblem);
      const photoFileId = await ownedFileId(tx, input.photo, actor.enterpriseId!);
      await tx.insert(weighTickets).values({
        dispatchId: id,
        orderId: order.id,
        stage: 'arrival',
        enterpriseId: actor.enterpriseId!,
        ticketNo: input.ticketNo,
        grossKg: input.grossKg,
        tareKg: input.tareKg,
        netKg: input.netKg,
        weighedAt,
        photoFileId,
        createdBy: actor.userId,
        createdAt: now,
      });
      await addDeliveryProgress(tx, order.id, { arrivedKg: input.netKg, arrivedTrucks: 1 });
      const lossNote = lossKg > 0 ? `，途损 ${formatTons(lossKg)}${lossExceeded ? `，超过合理途损 ${order.terms.transitLossPct}%` : ''}` : '';
      await recordOrderEvent(tx, {
        orderId: order.id,
        action: '到货过磅',
        actor,
        note: `派车单 ${truck.dispatchNo}：磅单 ${input.ticketNo}，净重 ${formatTons(input.netKg)}${lossNote}`,
        at: now,
      });
    }),
  );
  return truckView(db, actor, id);
}

// ---------- sign-for, disputes, rulings ----------

/** 签收 (the buyer): the weight on the contract's weighing basis counts. */
export async function signFor(db: Db, clock: Clock, actor: Actor, id: number, input: { note?: string } = {}): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'actAs', { order, side: 'buyer' });
    requireShipping(order, '签收');
    const signedKg = netOnBasis(order, truck);
    await transition(tx, DispatchStates, 'sign', {
      table: dispatches,
      where: eq(dispatches.id, id),
      set: { signedKg, signedAt: now, signedHow: 'buyer', updatedAt: now },
      notFoundMessage: '派车单不存在',
    });
    await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
    await recordOrderEvent(tx, { orderId: order.id, action: '收货签收', actor, note: `派车单 ${truck.dispatchNo}：签收 ${formatTons(signedKg)}${input.note ? `，${input.note}` : ''}`, at: now });
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}

export async function disputeTruck(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string; photos: string[] }): Promise<DispatchView> {
  const now = clock.now();
  const photos = [...new Set(input.photos)];
  for (const key of photos) await requireImage(db, key, '异议照片');
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'actAs', { order, side: 'buyer' });
    requireShipping(order, '提出异议');
    const fileIds: number[] = [];
    for (const key of photos) fileIds.push(await ownedFileId(tx, key, actor.enterpriseId!));
    await transition(tx, DispatchStates, 'dispute', {
      table: dispatches,
      where: eq(dispatches.id, id),
      set: { disputeReason: input.reason, disputeFileIds: fileIds, disputedAt: now, updatedAt: now },
      notFoundMessage: '派车单不存在',
    });
    await recordOrderEvent(tx, { orderId: order.id, action: '签收异议', actor, note: `派车单 ${truck.dispatchNo}：${input.reason}`, at: now });
  });
  return truckView(db, actor, id);
}

/** The seller's answer to a dispute (the truck stays 有异议 until the operator rules; a later answer replaces it). */
export async function answerDispute(db: Db, clock: Clock, actor: Actor, id: number, input: { answer: string }): Promise<DispatchView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    deliveryPolicy.can(actor, 'actAs', { order, side: 'seller' });
    if (truck.status !== 'disputed') throw appError('state_changed', `派车单当前状态为${stateLabel(DispatchStates, truck.status)}，没有待答复的异议`);
    await tx.update(dispatches).set({ sellerAnswer: input.answer, answeredAt: now, updatedAt: now }).where(and(eq(dispatches.id, id), eq(dispatches.status, 'disputed')));
    await recordOrderEvent(tx, { orderId: order.id, action: '答复异议', actor, note: `派车单 ${truck.dispatchNo}：${input.answer}`, at: now });
  });
  return truckView(db, actor, id);
}

/**
 * The operator rules on a dispute: signed with the weight ruled (at most the loading net), or refused. A refused
 * truck leaves the order's counts (its planned, loaded and arrived tons), so its tons may be sent again.
 */
export async function ruleDispute(
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  input: { decision: 'signed' | 'refused'; signedKg?: number; note: string },
): Promise<DispatchView> {
  const now = clock.now();
  deliveryPolicy.can(actor, 'operate');
  await db.transaction(async (tx) => {
    const { truck, order } = await truckForActor(tx, actor, id, true);
    requireShipping(order, '裁定');
    const common = { rulingNote: input.note, ruledBy: actor.userId, ruledAt: now, updatedAt: now };
    if (input.decision === 'signed') {
      const signedKg = input.signedKg!;
      if (truck.status === 'disputed' && signedKg > (truck.loadedNetKg ?? 0)) throw businessRule(`裁定签收量不能超过装车净重 ${formatTons(truck.loadedNetKg)}`);
      await transition(tx, DispatchStates, 'ruleSigned', {
        table: dispatches,
        where: eq(dispatches.id, id),
        set: { ...common, signedKg, signedAt: now, signedHow: 'ruling' },
        notFoundMessage: '派车单不存在',
      });
      await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
      await recordOrderEvent(tx, { orderId: order.id, action: '裁定签收', actor, note: `派车单 ${truck.dispatchNo}：按 ${formatTons(signedKg)} 签收。${input.note}`, at: now });
    } else {
      await transition(tx, DispatchStates, 'ruleRefused', { table: dispatches, where: eq(dispatches.id, id), set: common, notFoundMessage: '派车单不存在' });
      await addDeliveryProgress(tx, order.id, {
        plannedKg: -truck.plannedKg,
        dispatchedTrucks: -1,
        loadedKg: -(truck.loadedNetKg ?? 0),
        loadedTrucks: -1,
        arrivedKg: -(truck.arrivedNetKg ?? 0),
        arrivedTrucks: -1,
      });
      await recordOrderEvent(tx, { orderId: order.id, action: '裁定拒收', actor, note: `派车单 ${truck.dispatchNo}：${input.note}`, at: now });
    }
    await finishIfDelivered(tx, order.id, now);
  });
  return truckView(db, actor, id);
}

/**
 * The scheduler's auto sign-for: arrived trucks past their autoSignAt count as signed, each in its own short
 * transaction, by 系统. A truck signed, disputed or moved meanwhile is left alone, so a second run (or a second
 * process) changes nothing.
 */
export async function autoSignArrived(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ id: dispatches.id })
    .from(dispatches)
    .where(and(eq(dispatches.status, 'arrived'), lte(dispatches.autoSignAt, now)))
    .orderBy(dispatches.autoSignAt)
    .limit(200);
  let signed = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const truck = await findTruck(tx, id, true);
      if (truck.status !== 'arrived' || !truck.autoSignAt || truck.autoSignAt > now) return false;
      const order = await findOrder(tx, truck.orderId);
      if (order.status !== 'shipping') return false;
      const signedKg = netOnBasis(order, truck);
      const moved = await transition(tx, DispatchStates, 'autoSign', {
        table: dispatches,
        where: eq(dispatches.id, id),
        set: { signedKg, signedAt: now, signedHow: 'auto', updatedAt: now },
        idempotent: true,
      });
      if (!moved) return false;
      await addDeliveryProgress(tx, order.id, { signedKg, signedTrucks: 1 });
      await recordOrderEvent(tx, {
        orderId: order.id,
        action: '自动签收',
        actor: null,
        note: `派车单 ${truck.dispatchNo}：到货后期满未签收也未提出异议，按 ${formatTons(signedKg)} 视为签收`,
        at: now,
      });
      await finishIfDelivered(tx, order.id, now);
      return true;
    });
    if (done) signed++;
  }
  return signed;
}

// ---------- the end of delivery ----------

async function openTrucks(tx: Tx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(dispatches)
    .where(and(eq(dispatches.orderId, orderId), inArray(dispatches.status, [...OPEN_TRUCK_STATES])));
  return Number(row?.n ?? 0);
}

/**
 * The signed tons reached the contract quantity less its tolerance and no truck is still on its way: the order
 * goes to 待结算 by itself (a truck still on the road finishes first; its end calls this again).
 */
async function finishIfDelivered(tx: Tx, orderId: number, now: Date) {
  const order = await findOrder(tx, orderId);
  if (order.status !== 'shipping') return;
  const threshold = Math.ceil((order.quantityKg * (100 - order.terms.quantityTolerancePct)) / 100);
  if (order.signedKg < threshold) return;
  if ((await openTrucks(tx, orderId)) > 0) return;
  const moved = await moveOrderIfNeeded(tx, orderId, 'finishDelivery', { deliveredAt: now });
  if (moved) {
    await recordOrderEvent(tx, { orderId, action: '交货完成', actor: null, note: `签收量 ${formatTons(order.signedKg)} 已达合同数量，订单进入待结算`, at: now });
  }
}

/** 交货完毕 (the seller): no truck may still be on its way, and at least one was signed for. */
export async function finishDelivery(db: Db, clock: Clock, actor: Actor, orderId: number, input: { note?: string } = {}) {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { order } = await orderForActor(tx, actor, orderId, true);
    deliveryPolicy.can(actor, 'actAs', { order, side: 'seller' });
    requireShipping(order, '确认交货完毕');
    const open = await openTrucks(tx, orderId);
    if (open > 0) throw businessRule(`还有 ${open} 辆车未完成（已派车、已装车、已到货或有异议），须先处理完毕才能确认交货完毕`);
    if (order.signedKg <= 0) throw businessRule('尚无签收的车辆，不能确认交货完毕');
    await moveOrder(tx, orderId, 'finishDelivery', { deliveredAt: now });
    await recordOrderEvent(tx, {
      orderId,
      action: '交货完毕',
      actor,
      note: `卖方确认交货完毕，累计签收 ${formatTons(order.signedKg)}（${order.signedTrucks} 车）${input.note ? `：${input.note}` : ''}`,
      at: now,
    });
  });
  return orderDelivery(db, actor, orderId);
}

// ---------- quality reports ----------

const reportNoUsed = (reportNo: string) => businessRule(`化验单号 ${reportNo} 已提交过，不能重复使用`);

/**
 * 化验单: by the side whose lab the contract names (testing basis seller → the seller, buyer → the buyer, a third
 * party → either side uploads that institution's report); the file is a PDF or an image the side uploaded.
 */
export async function submitQualityReport(db: Db, clock: Clock, actor: Actor, orderId: number, input: QualityReportCreate): Promise<QualityReportView> {
  const now = clock.now();
  const file = await findStoredFile(db, input.file);
  if (!file) throw appError('attachment_invalid', '化验单文件无效，请重新上传');
  const id = await withReportNo(input.reportNo, () =>
    db.transaction(async (tx) => {
      const { order } = await orderForActor(tx, actor, orderId);
      const side = orderSideOf(actor, order);
      if (!side) deliveryPolicy.can(actor, 'actAs', { order, side: 'seller' }); // the trading centre: refused there
      const basis = order.terms.testingBasis;
      if (basis !== 'third_party' && side !== basis) throw forbidden(`合同约定${TESTING_BASES[basis]}，化验单由${sideName(basis)}上传`);
      if (input.lab !== basis) throw businessRule(`合同约定${TESTING_BASES[basis]}，化验机构类别须为「${LAB_KINDS[basis]}」`);
      if (order.status !== 'shipping' && order.status !== 'awaiting_settlement') {
        throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能上传化验单`);
      }
      const [used] = await tx
        .select({ id: qualityReports.id })
        .from(qualityReports)
        .where(and(eq(qualityReports.enterpriseId, actor.enterpriseId!), eq(qualityReports.reportNo, input.reportNo)))
        .limit(1);
      if (used) throw reportNoUsed(input.reportNo);
      const fileId = await ownedFileId(tx, input.file, actor.enterpriseId!);
      const [row] = await tx
        .insert(qualityReports)
        .values({
          orderId,
          side: side!,
          enterpriseId: actor.enterpriseId!,
          batch: input.batch,
          lab: input.lab,
          labName: input.labName,
          reportNo: input.reportNo,
          qnet: input.qnet,
          mt: input.mt,
          st: input.st,
          ad: input.ad,
          vdaf: input.vdaf,
          testedAt: input.testedAt,
          fileId,
          createdBy: actor.userId,
          createdAt: now,
        })
        .returning({ id: qualityReports.id });
      await recordOrderEvent(tx, {
        orderId,
        action: '上传化验单',
        actor,
        note: `化验单 ${input.reportNo}${input.batch ? `（${input.batch}）` : ''}：Qnet,ar ${input.qnet} kcal/kg，Mt ${input.mt}%，St,d ${input.st}%，Ad ${input.ad}%，Vdaf ${input.vdaf}%`,
        at: now,
      });
      return row!.id;
    }),
  );
  return reportView(db, actor, id);
}

async function withReportNo<T>(reportNo: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === 'quality_report_no_uq') throw reportNoUsed(reportNo);
    throw err;
  }
}

async function reportForActor(db: Db | Tx, actor: Actor, id: number) {
  const [report] = await db.select().from(qualityReports).where(eq(qualityReports.id, id)).limit(1);
  if (!report) throw notFound('化验单不存在');
  const order = await findOrder(db, report.orderId);
  if (!deliveryPolicy.allows(actor, 'view', order)) throw notFound('化验单不存在');
  return { report, order };
}

/** The other side accepts the report or disputes it with a reason. */
export async function answerQualityReport(db: Db, clock: Clock, actor: Actor, id: number, input: { accept: boolean; reason: string }): Promise<QualityReportView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { report, order } = await reportForActor(tx, actor, id);
    const other = report.side === 'seller' ? 'buyer' : 'seller';
    deliveryPolicy.can(actor, 'actAs', { order, side: other });
    await transition(tx, QualityReportStates, input.accept ? 'accept' : 'dispute', {
      table: qualityReports,
      where: eq(qualityReports.id, id),
      set: { answerNote: input.reason, answeredBy: actor.userId, answeredAt: now },
      notFoundMessage: '化验单不存在',
    });
    await recordOrderEvent(tx, {
      orderId: order.id,
      action: input.accept ? '确认化验单' : '化验单异议',
      actor,
      note: `化验单 ${report.reportNo}${input.reason ? `：${input.reason}` : ''}`,
      at: now,
    });
  });
  return reportView(db, actor, id);
}

// ---------- files of an order (ticket photos, dispute photos, lab report files) ----------

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

// ---------- presenting ----------

function truckActions(actor: Actor, order: Order, truck: Dispatch): DispatchAction[] {
  if (order.status !== 'shipping') return [];
  const as = (side: 'seller' | 'buyer') => deliveryPolicy.allows(actor, 'actAs', { order, side });
  const actions: DispatchAction[] = [];
  switch (truck.status) {
    case 'dispatched':
      if (deliveryPolicy.allows(actor, 'transport', order) && truck.enterpriseId === actor.enterpriseId) actions.push('cancel');
      if (as('seller')) actions.push('load');
      break;
    case 'loaded':
      if (as('buyer')) actions.push('arrive');
      break;
    case 'arrived':
      if (as('buyer')) actions.push('sign', 'dispute');
      break;
    case 'disputed':
      if (as('seller')) actions.push('answer');
      if (deliveryPolicy.allows(actor, 'operate')) actions.push('rule');
      break;
  }
  return actions;
}

const when = (d: Date | null) => (d ? formatDateTime(d) : null);

async function presentTrucks(db: Db, actor: Actor, rows: Dispatch[], known?: Map<number, Order>): Promise<DispatchView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const orderMap = known ?? (await ordersByIds(db, rows.map((r) => r.orderId)));
  const tickets = await db.select().from(weighTickets).where(inArray(weighTickets.dispatchId, ids)).orderBy(weighTickets.id);
  const photoIds = rows.flatMap((r) => r.disputeFileIds ?? []);
  const files = new Map((await filesByIds(db, photoIds)).map((f) => [f.id, f]));
  return rows.map((truck) => {
    const order = orderMap.get(truck.orderId)!;
    return {
      id: truck.id,
      dispatchNo: truck.dispatchNo,
      orderId: truck.orderId,
      orderNo: order.orderNo,
      productName: order.productName,
      sellerName: order.sellerName,
      buyerName: order.buyerName,
      senderSide: order.sellerEnterpriseId === truck.enterpriseId ? 'seller' : 'buyer',
      driverName: truck.driverName,
      driverMobile: truck.driverMobile,
      driverIdCardNo: truckPolicy.allows(actor, 'seeDriverIdentity', truck) ? truck.driverIdCardNo : maskIdCard(truck.driverIdCardNo),
      plateNo: truck.plateNo,
      vehicleType: truck.vehicleType,
      ratedLoadKg: truck.ratedLoadKg,
      plannedKg: truck.plannedKg,
      planDate: truck.planDate,
      status: truck.status,
      loadedNetKg: truck.loadedNetKg,
      arrivedNetKg: truck.arrivedNetKg,
      lossKg: truck.lossKg,
      lossExceeded: truck.lossExceeded,
      transitLossPct: order.terms.transitLossPct,
      weighingBasis: order.terms.weighingBasis,
      signedKg: truck.signedKg,
      signedHow: truck.signedHow,
      loadedAt: when(truck.loadedAt),
      arrivedAt: when(truck.arrivedAt),
      autoSignAt: when(truck.autoSignAt),
      signedAt: when(truck.signedAt),
      disputeReason: truck.disputeReason,
      disputePhotos: (truck.disputeFileIds ?? []).flatMap((id) => {
        const f = files.get(id);
        return f ? [{ id: f.id, name: f.originalName, contentType: f.contentType }] : [];
      }),
      disputedAt: when(truck.disputedAt),
      sellerAnswer: truck.sellerAnswer,
      answeredAt: when(truck.answeredAt),
      rulingNote: truck.rulingNote,
      ruledAt: when(truck.ruledAt),
      cancelReason: truck.cancelReason,
      gateToken: truckPolicy.allows(actor, 'seeGateToken', { order, truck }) ? truck.gateToken : null,
      createdAt: formatDateTime(truck.createdAt),
      tickets: tickets
        .filter((t) => t.dispatchId === truck.id)
        .map((t) => ({
          stage: t.stage as 'loading' | 'arrival',
          ticketNo: t.ticketNo,
          grossKg: t.grossKg,
          tareKg: t.tareKg,
          netKg: t.netKg,
          weighedAt: formatDateTime(t.weighedAt),
          photoFileId: t.photoFileId,
        })),
      actions: truckActions(actor, order, truck),
    };
  });
}

async function truckView(db: Db, actor: Actor, id: number): Promise<DispatchView> {
  const { truck, order } = await truckForActor(db, actor, id);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return view!;
}

function presentOrder(actor: Actor, order: Order, open: number): DeliveryOrder {
  const maxKg = maxDeliverableKg(order);
  const dispatchable = (ORDER_DISPATCHABLE_STATES as readonly string[]).includes(order.status);
  const side = orderSideOf(actor, order);
  const basis = order.terms.testingBasis;
  return {
    id: order.id,
    orderNo: order.orderNo,
    contractNo: order.contractNo,
    status: order.status,
    sellerName: order.sellerName,
    buyerName: order.buyerName,
    productName: order.productName,
    mySide: side,
    transportSide: order.transportSide as 'seller' | 'buyer',
    weighingBasis: order.terms.weighingBasis,
    testingBasis: basis,
    transitLossPct: order.terms.transitLossPct,
    quantityTolerancePct: order.terms.quantityTolerancePct,
    deliveryPlace: order.terms.deliveryPlace,
    deliveryDateStart: order.terms.deliveryDateStart,
    deliveryDateEnd: order.terms.deliveryDateEnd,
    quantityKg: order.quantityKg,
    maxKg,
    remainingKg: Math.max(0, maxKg - order.plannedKg),
    plannedKg: order.plannedKg,
    dispatchedTrucks: order.dispatchedTrucks,
    loadedKg: order.loadedKg,
    loadedTrucks: order.loadedTrucks,
    arrivedKg: order.arrivedKg,
    arrivedTrucks: order.arrivedTrucks,
    signedKg: order.signedKg,
    signedTrucks: order.signedTrucks,
    canDispatch: dispatchable && deliveryPolicy.allows(actor, 'transport', order),
    canFinish: order.status === 'shipping' && side === 'seller' && deliveryPolicy.allows(actor, 'actAs', { order, side: 'seller' }) && open === 0 && order.signedKg > 0,
    canReport:
      (order.status === 'shipping' || order.status === 'awaiting_settlement') &&
      side !== null &&
      deliveryPolicy.allows(actor, 'actAs', { order, side }) &&
      (basis === 'third_party' || basis === side),
  };
}

async function presentReports(db: Db, actor: Actor, rows: QualityReport[], order: Order): Promise<QualityReportView[]> {
  const files = new Map((await filesByIds(db, rows.map((r) => r.fileId))).map((f) => [f.id, f]));
  return rows.map((r) => {
    const f = files.get(r.fileId);
    const other = r.side === 'seller' ? 'buyer' : 'seller';
    return {
      id: r.id,
      orderId: r.orderId,
      side: r.side as 'seller' | 'buyer',
      enterpriseName: r.side === 'seller' ? order.sellerName : order.buyerName,
      batch: r.batch,
      lab: r.lab,
      labName: r.labName,
      reportNo: r.reportNo,
      qnet: r.qnet,
      mt: Number(r.mt),
      st: Number(r.st),
      ad: Number(r.ad),
      vdaf: Number(r.vdaf),
      testedAt: r.testedAt,
      file: { id: r.fileId, name: f?.originalName ?? '化验单', contentType: f?.contentType ?? 'application/octet-stream' },
      status: r.status,
      answerNote: r.answerNote,
      answeredAt: when(r.answeredAt),
      createdAt: formatDateTime(r.createdAt),
      canAnswer: r.status === 'submitted' && deliveryPolicy.allows(actor, 'actAs', { order, side: other }),
    };
  });
}

async function reportView(db: Db, actor: Actor, id: number): Promise<QualityReportView> {
  const { report, order } = await reportForActor(db, actor, id);
  const [view] = await presentReports(db, actor, [report], order);
  return view!;
}

/** One order's delivery: progress, trucks with tickets, lab reports (the order detail's 物流 part). */
export async function orderDelivery(db: Db, actor: Actor, orderId: number): Promise<OrderDelivery> {
  const { order } = await orderForActor(db, actor, orderId);
  const trucks = await db.select().from(dispatches).where(eq(dispatches.orderId, orderId)).orderBy(desc(dispatches.id));
  const reports = await db.select().from(qualityReports).where(eq(qualityReports.orderId, orderId)).orderBy(desc(qualityReports.id));
  const open = trucks.filter((t) => (OPEN_TRUCK_STATES as readonly string[]).includes(t.status)).length;
  return {
    order: presentOrder(actor, order, open),
    trucks: await presentTrucks(db, actor, trucks, new Map([[order.id, order]])),
    reports: await presentReports(db, actor, reports, order),
  };
}

/** The dispatch note (派车单) of one truck: for the order's parties and the trading centre. */
export async function dispatchNote(db: Db, actor: Actor, id: number) {
  const { truck, order } = await truckForActor(db, actor, id);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return { truck: view!, order: presentOrder(actor, order, 0) };
}

/** The mine gate opens the loading record from the QR code: the seller's users and the trading centre only. */
export async function truckAtGate(db: Db, actor: Actor, token: string) {
  const [truck] = await db.select().from(dispatches).where(eq(dispatches.gateToken, token)).limit(1);
  if (!truck) throw notFound('派车单不存在');
  const order = await findOrder(db, truck.orderId);
  truckPolicy.can(actor, 'openAtGate', order);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return { truck: view!, order: presentOrder(actor, order, 0) };
}

// ---------- lists ----------

function transportWhere(enterpriseId: number | null, query: Omit<TransportQuery, 'pageNo' | 'pageSize'>): SQL | undefined {
  const escape = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(
    enterpriseId === null ? undefined : orderOfEnterprise(dispatches.orderId, enterpriseId),
    query.orderNo ? orderNoContains(dispatches.orderId, query.orderNo) : undefined,
    query.dispatchNo ? ilike(dispatches.dispatchNo, escape(query.dispatchNo)) : undefined,
    query.plateNo ? ilike(dispatches.plateNo, escape(query.plateNo)) : undefined,
    query.driverName ? ilike(dispatches.driverName, escape(query.driverName)) : undefined,
    query.status ? eq(dispatches.status, query.status) : undefined,
    query.dateFrom ? gte(dispatches.createdAt, shanghaiDayStart(new Date(`${query.dateFrom}T12:00:00+08:00`))) : undefined,
    query.dateTo ? lt(dispatches.createdAt, shanghaiDayStart(new Date(`${query.dateTo}T12:00:00+08:00`), 1)) : undefined,
  );
}

/** 运输信息: every truck of the enterprise's orders, sent or received (the trading centre: all), newest first. */
export async function listTrucks(db: Db, actor: Actor, query: TransportQuery) {
  const enterpriseId = deliveryPolicy.can(actor, 'list');
  const where = transportWhere(enterpriseId, query);
  const [total] = await db.select({ n: count() }).from(dispatches).where(where);
  const rows = await db
    .select()
    .from(dispatches)
    .where(where)
    .orderBy(desc(dispatches.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: await presentTrucks(db, actor, rows), total: Number(total?.n ?? 0), current: query.pageNo, size: query.pageSize };
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
export async function signForQueue(db: Db, actor: Actor, page: { pageNo: number; pageSize: number }) {
  const who = truckPolicy.can(actor, 'queue');
  const where =
    who === 'operator'
      ? eq(dispatches.status, 'disputed')
      : or(
          and(inArray(dispatches.status, ['arrived', 'disputed']), orderWithBuyer(dispatches.orderId, actor.enterpriseId!)),
          and(eq(dispatches.status, 'disputed'), orderWithSeller(dispatches.orderId, actor.enterpriseId!)),
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
  return { records: rows.map((o) => presentOrder(actor, o, openOf.get(o.id) ?? 0)), total, current: query.pageNo, size: query.pageSize };
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
