import { formatDateTime, formatFen, formatTons } from '@coalx/shared';
import { and, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { dispatches, orders, qualityReports, type Dispatch, type Order } from '../../db/schema/index';
import type { Grant } from '../../lib/policy';
import { deliveryPolicy } from '../../modules/delivery/delivery.policy';
import { orderPolicy } from '../../modules/order/order.policy';
import type { NoticePlan, NoticeRule, Reminder } from './types';
import { shortTime } from './text';

// who may act, as the routes ask (api/order.routes.ts, api/delivery.routes.ts)
const PAYERS = orderPolicy.grantOf('pay') ?? 'settlement-payment.edit';
const TERMINATORS = orderPolicy.grantOf('terminate') ?? 'order-info.edit';
/** anyone of a party who may open the order */
const ORDER_READERS = 'order-info';
const DISPATCHERS = deliveryPolicy.grantOf('dispatch') ?? 'logistics-transport.add';
const LOADERS = deliveryPolicy.grantOf('load') ?? 'order-info.add';
const RECEIVERS = deliveryPolicy.grantOf('arrive') ?? 'order-info.add';
const SIGNERS = deliveryPolicy.grantOf('signFor') ?? 'order-info.edit';
const ANSWERERS = deliveryPolicy.grantOf('answerDispute') ?? 'order-info.edit';
const RULERS = deliveryPolicy.grantOf('ruleDispute') ?? 'settlement-signFor.edit';
const REPORT_ANSWERERS = deliveryPolicy.grantOf('answerReport') ?? 'order-info.edit';
const REPORT_SUBMITTERS = deliveryPolicy.grantOf('submitReport') ?? 'order-info.add';

/** the operator's queues (queries/workbench-todo.ts) */
const OVERDUE_ORDERS_QUEUE = '/order/list?status=unpaid&overdue=1';
const SIGN_FOR_QUEUE = '/settlement/signFor';

/** Any of these grants (a notice to both sides, each acting under its own). */
function anyOf(...grants: Grant[]): string[] {
  return [...new Set(grants.flatMap((g) => (typeof g === 'string' ? [g] : [...g])))];
}

const HOUR_MS = 3600_000;
/** how long before the payment deadline the buyer is reminded */
export const PAYMENT_DUE_AHEAD_MS = 24 * HOUR_MS;
/** how long before the automatic sign-for the buyer is reminded */
export const AUTO_SIGN_AHEAD_MS = 24 * HOUR_MS;
/** an SQL interval of a constant number of milliseconds */
const ahead = (ms: number) => sql.raw(`interval '${Math.round(ms / 1000)} seconds'`);

async function orderOf(tx: Tx, id: number): Promise<Order | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row ?? null;
}

async function truckOf(tx: Tx, id: number): Promise<{ truck: Dispatch; order: Order } | null> {
  const [row] = await tx.select().from(dispatches).innerJoin(orders, eq(orders.id, dispatches.orderId)).where(eq(dispatches.id, id)).limit(1);
  return row ? { truck: row.dispatch, order: row.trade_order } : null;
}

const orderLink = (o: Order) => `/order/info?id=${o.id}`;
const parties = (o: Order) => [o.sellerEnterpriseId, o.buyerEnterpriseId];
/** 「订单 DD…（合同 HT…，5500大卡动力煤 500.00 吨）」 */
const describedOrder = (o: Order) => `订单 ${o.orderNo}（合同 ${o.contractNo}，${o.productName} ${formatTons(o.quantityKg)}）`;
const yuan = (fen: number) => `${formatFen(fen)} 元`;

function orderData(o: Order) {
  return {
    orderNo: o.orderNo,
    contractNo: o.contractNo,
    dealNo: o.dealNo,
    tradeNo: o.tradeNo,
    status: o.status,
    seller: o.sellerName,
    buyer: o.buyerName,
    productName: o.productName,
    quantityKg: o.quantityKg,
    amountFen: o.amountFen,
    prepaymentFen: o.prepaymentFen,
    paymentDeadline: o.paymentDeadline.toISOString(),
  };
}

/** 「派车单 PC…（晋B12345，计划 40.00 吨）」 */
const describedTruck = (d: Dispatch) => `派车单 ${d.dispatchNo}（${d.plateNo}，计划 ${formatTons(d.plannedKg)}）`;

function truckData(d: Dispatch, o: Order) {
  return {
    dispatchNo: d.dispatchNo,
    orderNo: o.orderNo,
    contractNo: o.contractNo,
    status: d.status,
    plateNo: d.plateNo,
    driverName: d.driverName,
    plannedKg: d.plannedKg,
    planDate: d.planDate,
    loadedNetKg: d.loadedNetKg,
    arrivedNetKg: d.arrivedNetKg,
    signedKg: d.signedKg,
    signedHow: d.signedHow,
    autoSignAt: d.autoSignAt?.toISOString() ?? null,
    seller: o.sellerName,
    buyer: o.buyerName,
  };
}

// ── orders ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** An order is made: the buyer pays the prepayment before the deadline (no prepayment: it waits for shipment). */
const orderCreated: NoticeRule = async (tx, payload) => {
  const o = await orderOf(tx, Number(payload.id));
  if (!o) return null;
  if (o.prepaymentFen === 0) {
    return {
      notices: [
        {
          to: { enterpriseIds: [o.buyerEnterpriseId], grant: ORDER_READERS },
          kind: 'order.created',
          category: 'delivery',
          title: '订单已生成',
          content: `${describedOrder(o)}已生成，合同约定无需预付款，订单已进入待发货，请关注发运与到货。`,
          link: orderLink(o),
        },
      ],
    };
  }
  // paid before the dispatcher got to it: nothing left to ask
  if (o.status !== 'unpaid') return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.buyerEnterpriseId], grant: PAYERS },
        kind: 'order.to_pay',
        category: 'delivery',
        title: '订单待付款',
        content: `${describedOrder(o)}已生成，请在 ${formatDateTime(o.paymentDeadline)} 前支付预付款 ${yuan(o.prepaymentFen)}（货款总额 ${yuan(o.amountFen)}），款项冻结托管至结算；逾期未付，交易中心可终止订单。`,
        dueAt: o.paymentDeadline,
        link: orderLink(o),
        urgent: true,
        sms: `订单${o.orderNo}待付款${formatFen(o.prepaymentFen)}元，请于${shortTime(o.paymentDeadline)}前支付`,
      },
    ],
  };
};

/** Scheduled: some hours before the payment deadline, an order still unpaid. */
const paymentDueSoon: NoticeRule = async (tx, payload) => {
  const o = await orderOf(tx, Number(payload.id));
  if (!o || o.status !== 'unpaid') return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.buyerEnterpriseId], grant: PAYERS },
        kind: 'order.payment_due',
        category: 'delivery',
        title: '订单付款即将到期',
        content: `${describedOrder(o)}的预付款 ${yuan(o.prepaymentFen)} 尚未支付，付款期限为 ${formatDateTime(o.paymentDeadline)}，请尽快在「货款支付」完成支付；逾期未付，交易中心可终止订单。`,
        dueAt: o.paymentDeadline,
        link: orderLink(o),
        urgent: true,
        sms: `订单${o.orderNo}预付款将于${shortTime(o.paymentDeadline)}到期，请尽快支付`,
      },
    ],
  };
};

/** Scheduled: past the payment deadline unpaid; the operator decides (no automatic termination). */
const paymentOverdue: NoticeRule = async (tx, payload) => {
  const o = await orderOf(tx, Number(payload.id));
  if (!o || o.status !== 'unpaid') return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.buyerEnterpriseId], grant: PAYERS },
        kind: 'order.payment_overdue',
        category: 'delivery',
        title: '订单逾期未付款',
        content: `${describedOrder(o)}已超过付款期限 ${formatDateTime(o.paymentDeadline)}，预付款 ${yuan(o.prepaymentFen)} 仍未支付。请立即支付或联系交易中心，交易中心可终止订单并按规则处理。`,
        link: orderLink(o),
        urgent: true,
        sms: `订单${o.orderNo}已逾期未付款，请立即支付或联系交易中心`,
      },
      {
        to: { staffGrant: TERMINATORS },
        kind: 'todo.order_overdue',
        category: 'todo',
        title: '逾期未付款订单',
        content: `${describedOrder(o)}的买方 ${o.buyerName} 超过付款期限 ${formatDateTime(o.paymentDeadline)} 未支付预付款 ${yuan(o.prepaymentFen)}，可联系买方或终止订单。`,
        link: OVERDUE_ORDERS_QUEUE,
      },
    ],
  };
};

/** Paid: the seller ships (its trucks, or loads the buyer's). */
const orderPaid: NoticeRule = async (tx, payload) => {
  const o = await orderOf(tx, Number(payload.id));
  if (!o) return null;
  const paid = o.prepaymentFen > 0 ? `买方 ${o.buyerName} 已支付预付款 ${yuan(o.prepaymentFen)}（冻结托管至结算）` : '合同约定无需预付款';
  const next =
    o.transportSide === 'seller'
      ? `请按合同约定的交货期 ${o.terms.deliveryDateStart} 至 ${o.terms.deliveryDateEnd} 派车发货。`
      : `本订单由买方派车提货，请按合同约定的交货期 ${o.terms.deliveryDateStart} 至 ${o.terms.deliveryDateEnd} 安排装车。`;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.sellerEnterpriseId], grant: o.transportSide === 'seller' ? DISPATCHERS : LOADERS },
        kind: 'order.paid',
        category: 'delivery',
        title: '订单已付款，请发货',
        content: `${describedOrder(o)}：${paid}，订单进入待发货。${next}`,
        link: orderLink(o),
      },
    ],
    webhook: { type: 'order.paid', enterpriseIds: parties(o), data: { ...orderData(o), paidAt: o.paidAt?.toISOString() ?? null } },
  };
};

const orderTerminated: NoticeRule = async (tx, payload) => {
  const o = await orderOf(tx, Number(payload.id));
  if (!o) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: parties(o), grant: ORDER_READERS },
        kind: 'order.terminated',
        category: 'delivery',
        title: '订单已终止',
        content: `${describedOrder(o)}已被交易中心终止${o.terminateReason ? `（原因：${o.terminateReason}）` : ''}。托管的货款已解冻退回买方，未完成的发运不再进行；如有疑问请联系交易中心。`,
        link: orderLink(o),
      },
    ],
  };
};

// ── trucks ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** A truck is sent: the other party hears it (the buyer receives it; the seller loads the buyer's own trucks). */
const truckDispatched: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found) return null;
  const { truck: d, order: o } = found;
  const toBuyer = d.enterpriseId !== o.buyerEnterpriseId;
  const sender = toBuyer ? `卖方 ${o.sellerName}` : `买方 ${o.buyerName}`;
  return {
    notices: [
      {
        to: toBuyer ? { enterpriseIds: [o.buyerEnterpriseId], grant: RECEIVERS } : { enterpriseIds: [o.sellerEnterpriseId], grant: LOADERS },
        kind: 'dispatch.dispatched',
        category: 'delivery',
        title: '车辆已派出',
        content: `${sender} 已为${describedOrder(o)}派出车辆：${describedTruck(d)}，司机 ${d.driverName}，计划 ${d.planDate} 装车。${toBuyer ? '车辆到货后请过磅登记到货磅单并签收。' : '车辆到矿后请扫描派车单二维码登记装车磅单。'}`,
        link: orderLink(o),
      },
    ],
    webhook: { type: 'dispatch.dispatched', enterpriseIds: parties(o), data: truckData(d, o) },
  };
};

/** Arrived and weighed: the buyer signs for it or disputes it before the automatic sign-for. */
const truckArrived: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found) return null;
  const { truck: d, order: o } = found;
  const notices: NoticePlan['notices'] = [];
  if (d.status === 'arrived') {
    const by = d.autoSignAt ? `请在 ${formatDateTime(d.autoSignAt)} 前` : '请及时';
    notices.push({
      to: { enterpriseIds: [o.buyerEnterpriseId], grant: SIGNERS },
      kind: 'dispatch.to_sign',
      category: 'delivery',
      title: '车辆已到货，待签收',
      content: `${describedTruck(d)}已到货，到货净重 ${formatTons(d.arrivedNetKg)}（装车净重 ${formatTons(d.loadedNetKg)}）${d.lossExceeded ? '，途损超出合同约定的合理途损' : ''}。${by}核对磅单后签收或提出异议，逾期未处理将自动签收。`,
      dueAt: d.autoSignAt,
      link: SIGN_FOR_QUEUE,
    });
  }
  return { notices, webhook: { type: 'dispatch.arrived', enterpriseIds: parties(o), data: truckData(d, o) } };
};

/** Signed by the buyer, automatically or by ruling: members' systems hear it. */
const truckSigned: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found) return null;
  return { notices: [], webhook: { type: 'dispatch.signed', enterpriseIds: parties(found.order), data: truckData(found.truck, found.order) } };
};

/** Scheduled: the day before an arrived truck is signed for by itself. */
const autoSignTomorrow: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found || found.truck.status !== 'arrived' || !found.truck.autoSignAt) return null;
  const { truck: d, order: o } = found;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.buyerEnterpriseId], grant: SIGNERS },
        kind: 'dispatch.auto_sign_tomorrow',
        category: 'delivery',
        title: '到货车辆即将自动签收',
        content: `${describedOrder(o)}的${describedTruck(d)}将于 ${formatDateTime(d.autoSignAt)} 按${o.terms.weighingBasis === 'seller' ? '装车' : '到货'}磅单自动签收。如有异议，请在此之前提出。`,
        dueAt: d.autoSignAt,
        link: SIGN_FOR_QUEUE,
      },
    ],
  };
};

/** The buyer disputes an arrival: the seller answers, the operator rules. */
const truckDisputed: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found) return null;
  const { truck: d, order: o } = found;
  const reason = d.disputeReason ? `，异议：${d.disputeReason}` : '';
  return {
    notices: [
      {
        to: { enterpriseIds: [o.sellerEnterpriseId], grant: ANSWERERS },
        kind: 'dispatch.disputed',
        category: 'delivery',
        title: '到货签收异议',
        content: `买方 ${o.buyerName} 对${describedTruck(d)}提出签收异议${reason}。请尽快在「收货签收」答复说明，交易中心将据此裁定。`,
        link: SIGN_FOR_QUEUE,
        urgent: true,
        sms: `派车单${d.dispatchNo}买方提出签收异议，请尽快答复`,
      },
      {
        to: { staffGrant: RULERS },
        kind: 'todo.dispatch_disputed',
        category: 'todo',
        title: '待裁定签收异议',
        content: `买方 ${o.buyerName} 对卖方 ${o.sellerName} 的${describedTruck(d)}提出签收异议${reason}。请核对双方磅单与说明后裁定。`,
        link: SIGN_FOR_QUEUE,
      },
    ],
    webhook: { type: 'dispatch.disputed', enterpriseIds: parties(o), data: { ...truckData(d, o), disputeReason: d.disputeReason } },
  };
};

/** The seller answered a dispute: the buyer reads it, the operator can rule. */
const disputeAnswered: NoticeRule = async (tx, payload) => {
  const found = await truckOf(tx, Number(payload.id));
  if (!found || found.truck.status !== 'disputed') return null;
  const { truck: d, order: o } = found;
  return {
    notices: [
      {
        to: { enterpriseIds: [o.buyerEnterpriseId], grant: SIGNERS },
        kind: 'dispatch.dispute_answered',
        category: 'delivery',
        title: '签收异议已答复',
        content: `卖方 ${o.sellerName} 已答复您对${describedTruck(d)}的签收异议：${d.sellerAnswer ?? ''}。交易中心将核对后裁定。`,
        link: SIGN_FOR_QUEUE,
      },
      {
        to: { staffGrant: RULERS },
        kind: 'todo.dispatch_dispute_answered',
        category: 'todo',
        title: '签收异议卖方已答复',
        content: `卖方 ${o.sellerName} 已答复${describedTruck(d)}的签收异议：${d.sellerAnswer ?? ''}。请核对双方磅单与说明后裁定。`,
        link: SIGN_FOR_QUEUE,
      },
    ],
  };
};

/** The operator ruled: signed with a weight, or refused. */
function ruled(outcome: 'signed' | 'refused'): NoticeRule {
  return async (tx, payload) => {
    const found = await truckOf(tx, Number(payload.id));
    if (!found) return null;
    const { truck: d, order: o } = found;
    const verdict = outcome === 'signed' ? `按 ${formatTons(d.signedKg)}签收` : '准予拒收，该车计划量退回订单可再派车';
    return {
      notices: [
        {
          to: { enterpriseIds: parties(o), grant: anyOf(SIGNERS, ANSWERERS) },
          kind: outcome === 'signed' ? 'dispatch.ruled' : 'dispatch.refused',
          category: 'delivery',
          title: outcome === 'signed' ? '签收异议已裁定：签收' : '签收异议已裁定：拒收',
          content: `交易中心已裁定${describedTruck(d)}的签收异议：${verdict}${d.rulingNote ? `（${d.rulingNote}）` : ''}。`,
          link: orderLink(o),
          urgent: true,
          sms: `派车单${d.dispatchNo}异议已裁定：${outcome === 'signed' ? `签收${formatTons(d.signedKg, false)}吨` : '拒收'}`,
        },
      ],
      ...(outcome === 'signed' ? { webhook: { type: 'dispatch.signed' as const, enterpriseIds: parties(o), data: truckData(d, o) } } : {}),
    };
  };
}

// ── lab reports ─────────────────────────────────────────────────────────────────────────────────────────────────

async function reportOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(qualityReports).innerJoin(orders, eq(orders.id, qualityReports.orderId)).where(eq(qualityReports.id, id)).limit(1);
  return row ? { report: row.quality_report, order: row.trade_order } : null;
}
type ReportRow = NonNullable<Awaited<ReturnType<typeof reportOf>>>['report'];
const describedReport = (r: ReportRow) =>
  `化验单 ${r.reportNo}${r.batch ? `（${r.batch}）` : ''}：${r.labName}，Qnet,ar ${r.qnet} kcal/kg，Mt ${r.mt}%，St,d ${r.st}%，Ad ${r.ad}%`;
const sideName = (side: string) => (side === 'seller' ? '卖方' : '买方');

/** A lab report is in: the other side accepts or disputes it. */
const reportSubmitted: NoticeRule = async (tx, payload) => {
  const found = await reportOf(tx, Number(payload.id));
  if (!found || found.report.status !== 'submitted') return null;
  const { report: r, order: o } = found;
  const other = r.side === 'seller' ? o.buyerEnterpriseId : o.sellerEnterpriseId;
  const by = r.side === 'seller' ? `卖方 ${o.sellerName}` : `买方 ${o.buyerName}`;
  return {
    notices: [
      {
        to: { enterpriseIds: [other], grant: REPORT_ANSWERERS },
        kind: 'qualityreport.to_answer',
        category: 'delivery',
        title: '化验单待确认',
        content: `${by} 上传了${describedOrder(o)}的${describedReport(r)}。请核对后确认或提出异议，确认后作为结算的质量依据。`,
        link: orderLink(o),
      },
    ],
  };
};

function reportAnswered(accepted: boolean): NoticeRule {
  return async (tx, payload) => {
    const found = await reportOf(tx, Number(payload.id));
    if (!found) return null;
    const { report: r, order: o } = found;
    const other = r.side === 'seller' ? o.buyerName : o.sellerName;
    return {
      notices: [
        {
          to: { enterpriseIds: [r.enterpriseId], grant: REPORT_SUBMITTERS },
          kind: accepted ? 'qualityreport.accepted' : 'qualityreport.disputed',
          category: 'delivery',
          title: accepted ? '化验单已确认' : '化验单有异议',
          content: accepted
            ? `${sideName(r.side === 'seller' ? 'buyer' : 'seller')} ${other} 已确认${describedOrder(o)}的化验单 ${r.reportNo}，可据此开具结算单。`
            : `${sideName(r.side === 'seller' ? 'buyer' : 'seller')} ${other} 对${describedOrder(o)}的化验单 ${r.reportNo} 提出异议：${r.answerNote}。请与对方协商，必要时重新化验并上传新的化验单。`,
          link: orderLink(o),
        },
      ],
    };
  };
}

export const DELIVERY_RULES: Record<string, NoticeRule> = {
  'order.created': orderCreated,
  'order.payment_due': paymentDueSoon,
  'order.payment_overdue': paymentOverdue,
  'order.paid': orderPaid,
  'order.terminated': orderTerminated,
  'dispatch.created': truckDispatched,
  'dispatch.arrived': truckArrived,
  'dispatch.signed': truckSigned,
  'dispatch.auto_signed': truckSigned,
  'dispatch.auto_sign_tomorrow': autoSignTomorrow,
  'dispatch.disputed': truckDisputed,
  'dispatch.dispute_answered': disputeAnswered,
  'dispatch.ruled': ruled('signed'),
  'dispatch.refused': ruled('refused'),
  'qualityreport.submitted': reportSubmitted,
  'qualityreport.accepted': reportAnswered(true),
  'qualityreport.disputed': reportAnswered(false),
};

/**
 * An order still unpaid a day before its deadline (when it was made more than a day before it: otherwise the
 * order's own notice said so), then once past it; an arrived truck a day before its automatic sign-for. Each keyed
 * with its deadline, so a moved deadline is a new reminder.
 */
export const DELIVERY_REMINDERS: Reminder[] = [
  {
    name: 'order.payment_due',
    async due(db, now) {
      const rows = await db
        .select({ id: orders.id, deadline: orders.paymentDeadline })
        .from(orders)
        .where(
          and(
            eq(orders.status, 'unpaid'),
            gt(orders.paymentDeadline, now),
            lte(orders.paymentDeadline, new Date(now.getTime() + PAYMENT_DUE_AHEAD_MS)),
            lte(orders.createdAt, sql`${orders.paymentDeadline} - ${ahead(PAYMENT_DUE_AHEAD_MS)}`),
          ),
        );
      return rows.map((r) => ({ key: `order.payment_due:${r.id}:${r.deadline.toISOString()}`, payload: { id: r.id } }));
    },
  },
  {
    name: 'order.payment_overdue',
    async due(db, now) {
      const rows = await db
        .select({ id: orders.id, deadline: orders.paymentDeadline })
        .from(orders)
        .where(and(eq(orders.status, 'unpaid'), lt(orders.paymentDeadline, now)));
      return rows.map((r) => ({ key: `order.payment_overdue:${r.id}:${r.deadline.toISOString()}`, payload: { id: r.id } }));
    },
  },
  {
    name: 'dispatch.auto_sign_tomorrow',
    async due(db, now) {
      const rows = await db
        .select({ id: dispatches.id, autoSignAt: dispatches.autoSignAt })
        .from(dispatches)
        .where(
          and(
            eq(dispatches.status, 'arrived'),
            gt(dispatches.autoSignAt, now),
            lte(dispatches.autoSignAt, new Date(now.getTime() + AUTO_SIGN_AHEAD_MS)),
            lte(dispatches.arrivedAt, sql`${dispatches.autoSignAt} - ${ahead(AUTO_SIGN_AHEAD_MS)}`),
          ),
        );
      return rows.map((r) => ({ key: `dispatch.auto_sign_tomorrow:${r.id}:${r.autoSignAt!.toISOString()}`, payload: { id: r.id } }));
    },
  },
];
