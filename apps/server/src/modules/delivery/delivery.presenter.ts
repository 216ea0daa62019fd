import {
  ORDER_DISPATCHABLE_STATES,
  formatDateTime,
  maskIdCard,
  type DeliveryOrder,
  type DispatchAction,
  type DispatchView,
  type QualityReportView,
} from '@coalx/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { weighTickets, type Dispatch, type Order, type QualityReport, type WeighTicket } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { allowedActions, type GrantCheck } from '../../lib/policy';
import { realnamesOf } from '../auth/accounts.service';
import { grantsHeld } from '../auth/grants.service';
import { filesByIds } from '../files/files.service';
import { maxDeliverableKg } from '../order/order.service';
import { ordersByIds } from '../order/order-delivery.service';
import { deliveryPolicy, orderSideOf } from './delivery.policy';
import { gatePassTexts } from './gate-pass';
import { reportForActor } from './lab-reports.service';
import { truckForActor } from './trucks.service';

/**
 * What the pages see of trucks, orders in delivery and lab reports: each with the actions the actor may take now,
 * answered by the delivery policy; a driver's ID card and the gate's QR token only for those who may see them.
 */

/** What the actor may do with a truck now: the policy's verdicts (rule, route grant, the truck's state). */
export function truckActions(actor: Actor, held: GrantCheck, order: Order, truck: Dispatch): DispatchAction[] {
  const shipping = order.status === 'shipping';
  const at = (status: string) => shipping && truck.status === status;
  return allowedActions(
    deliveryPolicy.verdicts(actor, held, order, {
      cancel: { rule: 'cancelTruck', on: { order, truck }, when: at('dispatched') },
      load: { rule: 'load', when: at('dispatched') },
      arrive: { rule: 'arrive', when: at('loaded') },
      sign: { rule: 'signFor', when: at('arrived') },
      dispute: { rule: 'signFor', when: at('arrived') },
      answer: { rule: 'answerDispute', when: at('disputed') },
      rule: { rule: 'ruleDispute', when: at('disputed') },
    }),
  );
}

export const when = (d: Date | null) => (d ? formatDateTime(d) : null);

export async function presentTrucks(db: Db, actor: Actor, rows: Dispatch[], known?: Map<number, Order>): Promise<DispatchView[]> {
  if (rows.length === 0) return [];
  const held = await grantsHeld(db, actor);
  const ids = rows.map((r) => r.id);
  const orderMap = known ?? (await ordersByIds(db, rows.map((r) => r.orderId)));
  const tickets = await db.select().from(weighTickets).where(inArray(weighTickets.dispatchId, ids)).orderBy(weighTickets.id);
  const recorders = await realnamesOf(db, tickets.map((t) => t.createdBy));
  const passes = await gatePassTexts(db, ids);
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
      driverIdCardNo: deliveryPolicy.allows(actor, 'seeDriverIdentity', truck) ? truck.driverIdCardNo : maskIdCard(truck.driverIdCardNo),
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
      gateToken: deliveryPolicy.allows(actor, 'seeGateToken', { order, truck }) ? truck.gateToken : null,
      gatePasses: {
        loading: deliveryPolicy.allows(actor, 'seeGatePass', { order, truck, stage: 'loading' }) ? (passes.get(truck.id)?.loading ?? null) : null,
        arrival: deliveryPolicy.allows(actor, 'seeGatePass', { order, truck, stage: 'arrival' }) ? (passes.get(truck.id)?.arrival ?? null) : null,
      },
      createdAt: formatDateTime(truck.createdAt),
      tickets: tickets
        .filter((ticket) => ticket.dispatchId === truck.id)
        .map((ticket) => ({ ...presentTicket(ticket, recorders.get(ticket.createdBy ?? 0) ?? null), photoFileId: ticket.photoFileId })),
      actions: truckActions(actor, held, order, truck),
    };
  });
}

/** A ticket as every viewer reads it; `recordedBy` names the user, or the clerk who used the QR pass. */
export function presentTicket(ticket: WeighTicket, userName: string | null) {
  return {
    stage: ticket.stage as 'loading' | 'arrival',
    ticketNo: ticket.ticketNo,
    grossKg: ticket.grossKg,
    tareKg: ticket.tareKg,
    netKg: ticket.netKg,
    weighedAt: formatDateTime(ticket.weighedAt),
    recordedBy: ticket.gatePassId !== null ? `${ticket.recorderName}（扫码录入）` : (userName ?? ''),
  };
}

export async function truckView(db: Db, actor: Actor, id: number): Promise<DispatchView> {
  const { truck, order } = await truckForActor(db, actor, id);
  const [view] = await presentTrucks(db, actor, [truck], new Map([[order.id, order]]));
  return view!;
}

export function presentOrder(actor: Actor, held: GrantCheck, order: Order, open: number): DeliveryOrder {
  const maxKg = maxDeliverableKg(order);
  const dispatchable = (ORDER_DISPATCHABLE_STATES as readonly string[]).includes(order.status);
  const side = orderSideOf(actor, order);
  const basis = order.terms.testingBasis;
  const can = deliveryPolicy.verdicts(actor, held, order, {
    dispatch: { rule: 'dispatch', when: dispatchable },
    finish: { rule: 'finish', when: order.status === 'shipping' && open === 0 && order.signedKg > 0 },
    report: { rule: 'submitReport', when: order.status === 'shipping' || order.status === 'awaiting_settlement' },
  });
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
    canDispatch: can.dispatch,
    canFinish: can.finish,
    canReport: can.report,
  };
}

export async function presentReports(db: Db, actor: Actor, rows: QualityReport[], order: Order): Promise<QualityReportView[]> {
  const files = new Map((await filesByIds(db, rows.map((r) => r.fileId))).map((f) => [f.id, f]));
  const held = await grantsHeld(db, actor);
  return rows.map((r) => {
    const f = files.get(r.fileId);
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
      canAnswer: deliveryPolicy.verdicts(actor, held, { order, report: r }, { answer: { rule: 'answerReport', when: r.status === 'submitted' } }).answer,
    };
  });
}

export async function reportView(db: Db, actor: Actor, id: number): Promise<QualityReportView> {
  const { report, order } = await reportForActor(db, actor, id);
  const [view] = await presentReports(db, actor, [report], order);
  return view!;
}

