import { z } from 'zod';
import { pageSchema } from '../api';
import { safeString } from '../text';
import { dayField, instantField, textField } from '../trade/fields';
import { DispatchStates, QualityReportStates } from './states';

/**
 * Delivery by truck (DESIGN.md §8): dispatch notes (派车单), weigh tickets (磅单), sign-for (收货签收), lab reports
 * (化验单). Quantities in integer kg on the wire (the forms take tons), times ISO with offset, days yyyy-MM-dd.
 */
export const DISPATCH_STATUS = DispatchStates.states;
export type DispatchStatus = keyof typeof DISPATCH_STATUS;
export const QUALITY_REPORT_STATUS = QualityReportStates.states;
export const WEIGH_STAGES = { loading: '装车', arrival: '到货' } as const;
export type WeighStage = keyof typeof WEIGH_STAGES;
/** Whose lab did the test (the contract's testing basis names which one counts). */
export const LAB_KINDS = { seller: '卖方化验室', buyer: '买方化验室', third_party: '第三方检验机构' } as const;
export type LabKind = keyof typeof LAB_KINDS;
/** How a truck's weight came to count. */
export const SIGNED_HOW = { buyer: '买方签收', auto: '到期自动签收', ruling: '交易中心裁定' } as const;

/**
 * A truck may be planned for a day up to this many days outside the contract's delivery dates: trucks queue at the
 * mine the day before the window opens, and the last ones of the window arrive a day or two late.
 */
export const PLAN_DATE_SLACK_DAYS = 3;
/** A weigh time may be ahead of the server clock by this much (the weighbridge PC's clock drifts), no more. */
export const WEIGH_CLOCK_SKEW_MS = 10 * 60 * 1000;
/** Most a single weighbridge reading can be: 200 t. */
export const MAX_WEIGH_KG = 200_000;
export const MAX_DISPUTE_PHOTOS = 6;

const ID = (label: string) => z.number({ error: `请选择${label}` }).int(`${label}无效`).positive(`${label}无效`).max(Number.MAX_SAFE_INTEGER, `${label}无效`);
const kgField = (label: string, max = MAX_WEIGH_KG) =>
  z.number({ error: `请输入${label}` }).min(1, `${label}须大于 0`).max(max, `${label}不超过 ${max / 1000} 吨`).int(`${label}须为整数千克`);
const fileKey = (label: string) => safeString({ error: `请上传${label}` }).min(1, `请上传${label}`).max(200, `${label}无效，请重新上传`);
const reasonField = (label: string, min = 2, max = 300) =>
  safeString({ error: `请输入${label}` }).trim().min(min, `${label}至少 ${min} 个字`).max(max, `${label}不超过 ${max} 字`);
/** a percent with at most two decimals, in [min, max] */
const percentField = (label: string, max: number) =>
  z
    .number({ error: `请输入${label}` })
    .min(0, `${label}不能为负`)
    .max(max, `${label}不超过 ${max}%`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${label}最多保留两位小数`);

export const DispatchCreateSchema = z.strictObject({
  orderId: ID('订单'),
  driverId: ID('司机'),
  plannedKg: kgField('计划装车量', 100_000),
  planDate: dayField('计划装车日期'),
});
export type DispatchCreate = z.infer<typeof DispatchCreateSchema>;

export const DispatchCancelSchema = z.strictObject({ reason: reasonField('取消原因', 2, 200) });

export const TICKET_NO_PATTERN = /^[A-Za-z0-9-]{4,30}$/;
export const WeighTicketSchema = z.strictObject({
  ticketNo: safeString({ error: '请输入磅单号' }).trim().regex(TICKET_NO_PATTERN, '磅单号为 4–30 位字母、数字或 -'),
  grossKg: kgField('毛重'),
  tareKg: kgField('皮重'),
  netKg: kgField('净重'),
  weighedAt: instantField('过磅时间'),
  photo: fileKey('磅单照片'),
});
export type WeighTicketInput = z.infer<typeof WeighTicketSchema>;

/** 签收: the buyer takes the truck's weight on the contract's weighing basis. */
export const SignForSchema = z.strictObject({ note: safeString().trim().max(200, '备注不超过 200 字').default('') });
export const DisputeSchema = z.strictObject({
  reason: reasonField('异议原因'),
  photos: z.array(fileKey('异议照片')).max(MAX_DISPUTE_PHOTOS, `异议照片最多 ${MAX_DISPUTE_PHOTOS} 张`).default([]),
});
export const DisputeAnswerSchema = z.strictObject({ answer: reasonField('答复内容') });
export const DisputeRulingSchema = z
  .strictObject({
    decision: z.enum(['signed', 'refused'], { error: '请选择裁定结果' }),
    /** the weight that counts when ruled signed (≤ the loading net) */
    signedKg: kgField('裁定签收量').optional(),
    note: reasonField('裁定说明', 2, 300),
  })
  .superRefine((v, ctx) => {
    if (v.decision === 'signed' && v.signedKg === undefined) ctx.addIssue({ code: 'custom', path: ['signedKg'], message: '裁定签收时须填写签收量' });
  });
export const FinishDeliverySchema = z.strictObject({ note: safeString().trim().max(200, '说明不超过 200 字').default('') });

export const QualityReportCreateSchema = z.strictObject({
  lab: z.enum(['seller', 'buyer', 'third_party'], { error: '请选择化验机构类别' }),
  labName: textField('化验机构名称', 60),
  reportNo: safeString({ error: '请输入化验单号' }).trim().regex(/^[A-Za-z0-9-]{2,40}$/, '化验单号为 2–40 位字母、数字或 -'),
  /** Qnet,ar kcal/kg */
  qnet: z.number({ error: '请输入发热量' }).min(3000, '发热量不低于 3000 kcal/kg').max(7500, '发热量不高于 7500 kcal/kg').int('发热量须为整数'),
  mt: percentField('全水分', 40),
  st: percentField('全硫', 10),
  ad: percentField('灰分', 60),
  vdaf: percentField('挥发分', 60),
  testedAt: dayField('化验日期'),
  batch: safeString().trim().max(40, '批次不超过 40 字').default(''),
  file: fileKey('化验单文件'),
});
export type QualityReportCreate = z.infer<typeof QualityReportCreateSchema>;
export const QualityReportAnswerSchema = z
  .strictObject({ accept: z.boolean({ error: '请选择确认或提出异议' }), reason: safeString().trim().max(300, '异议原因不超过 300 字').default('') })
  .superRefine((v, ctx) => {
    if (!v.accept && v.reason.length < 2) ctx.addIssue({ code: 'custom', path: ['reason'], message: '提出异议须填写原因（至少 2 个字）' });
  });

// ---------- answers ----------

export const WeighTicketViewSchema = z.object({
  stage: z.enum(['loading', 'arrival']),
  ticketNo: z.string(),
  grossKg: z.number().int(),
  tareKg: z.number().int(),
  netKg: z.number().int(),
  weighedAt: z.string(),
  /** the photo: GET {api}/api/delivery/order/{orderId}/files/{photoFileId} */
  photoFileId: z.number().int().nullable(),
  /** who recorded it: the signed-in user, or the gate clerk's name with the QR pass (扫码) */
  recordedBy: z.string(),
});
export type WeighTicketView = z.infer<typeof WeighTicketViewSchema>;

export const DeliveryFileSchema = z.object({ id: z.number().int(), name: z.string(), contentType: z.string() });

/** What the viewer may do with the truck now (the server decides; the page shows the buttons). */
export const DISPATCH_ACTIONS = ['cancel', 'load', 'arrive', 'sign', 'dispute', 'answer', 'rule'] as const;
export type DispatchAction = (typeof DISPATCH_ACTIONS)[number];

export const DispatchViewSchema = z.object({
  id: z.number().int(),
  dispatchNo: z.string(),
  orderId: z.number().int(),
  orderNo: z.string(),
  productName: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  /** the side that sent the truck */
  senderSide: z.enum(['seller', 'buyer']),
  driverName: z.string(),
  driverMobile: z.string(),
  /** whole for the transporting enterprise and the trading centre, else 1401**********1234 */
  driverIdCardNo: z.string(),
  plateNo: z.string(),
  vehicleType: z.string(),
  ratedLoadKg: z.number().int(),
  plannedKg: z.number().int(),
  planDate: z.string(),
  status: z.string(),
  loadedNetKg: z.number().int().nullable(),
  arrivedNetKg: z.number().int().nullable(),
  lossKg: z.number().int().nullable(),
  lossExceeded: z.boolean(),
  /** the order's transit-loss tolerance, percent */
  transitLossPct: z.number(),
  /** whose scale counts (the contract's weighing basis): the weight a sign-for takes */
  weighingBasis: z.string(),
  signedKg: z.number().int().nullable(),
  signedHow: z.string().nullable(),
  loadedAt: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  autoSignAt: z.string().nullable(),
  signedAt: z.string().nullable(),
  disputeReason: z.string().nullable(),
  disputePhotos: z.array(DeliveryFileSchema),
  disputedAt: z.string().nullable(),
  sellerAnswer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  rulingNote: z.string().nullable(),
  ruledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** what the gate's QR code carries: for the side that sent the truck, the seller (its gate) and the trading centre */
  gateToken: z.string().nullable(),
  /**
   * The QR passes a weighbridge clerk records the truck's tickets with, no account needed (issue 32): the loading
   * pass for the side that sent the truck and the seller, the arrival pass for the sender and the buyer; null where
   * the viewer may not see it or the truck has none.
   */
  gatePasses: z.object({ loading: z.string().nullable(), arrival: z.string().nullable() }),
  createdAt: z.string(),
  tickets: z.array(WeighTicketViewSchema),
  actions: z.array(z.enum(DISPATCH_ACTIONS)),
});
export type DispatchView = z.infer<typeof DispatchViewSchema>;

export const QualityReportViewSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  side: z.enum(['seller', 'buyer']),
  enterpriseName: z.string(),
  batch: z.string(),
  lab: z.string(),
  labName: z.string(),
  reportNo: z.string(),
  qnet: z.number().int(),
  mt: z.number(),
  st: z.number(),
  ad: z.number(),
  vdaf: z.number(),
  testedAt: z.string(),
  file: DeliveryFileSchema,
  status: z.string(),
  answerNote: z.string(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
  /** accept / dispute: for the other side while 待确认 */
  canAnswer: z.boolean(),
});
export type QualityReportView = z.infer<typeof QualityReportViewSchema>;

/** The order as delivery sees it: its progress and what the viewer may do. */
export const DeliveryOrderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  contractNo: z.string(),
  status: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  productName: z.string(),
  /** the viewer's side; null for the trading centre */
  mySide: z.enum(['seller', 'buyer']).nullable(),
  transportSide: z.enum(['seller', 'buyer']),
  weighingBasis: z.string(),
  testingBasis: z.string(),
  transitLossPct: z.number(),
  quantityTolerancePct: z.number(),
  deliveryPlace: z.string(),
  deliveryDateStart: z.string(),
  deliveryDateEnd: z.string(),
  quantityKg: z.number().int(),
  /** contract quantity + tolerance: the most that may be planned */
  maxKg: z.number().int(),
  /** what may still be planned */
  remainingKg: z.number().int(),
  plannedKg: z.number().int(),
  dispatchedTrucks: z.number().int(),
  loadedKg: z.number().int(),
  loadedTrucks: z.number().int(),
  arrivedKg: z.number().int(),
  arrivedTrucks: z.number().int(),
  signedKg: z.number().int(),
  signedTrucks: z.number().int(),
  canDispatch: z.boolean(),
  canFinish: z.boolean(),
  canReport: z.boolean(),
});
export type DeliveryOrder = z.infer<typeof DeliveryOrderSchema>;

export const OrderDeliverySchema = z.object({
  order: DeliveryOrderSchema,
  trucks: z.array(DispatchViewSchema),
  reports: z.array(QualityReportViewSchema),
});
export type OrderDelivery = z.infer<typeof OrderDeliverySchema>;

/** The dispatch note (派车单) and the gate's loading record: the truck with its order. */
export const DispatchNoteSchema = z.object({
  truck: DispatchViewSchema,
  order: DeliveryOrderSchema,
});
export type DispatchNote = z.infer<typeof DispatchNoteSchema>;

// ---------- the weighbridge by QR code (issue 32) ----------

export const GATE_PASS_STAGES = { loading: '装车过磅', arrival: '到货过磅' } as const;
export type GatePassStage = keyof typeof GATE_PASS_STAGES;
/** What a QR pass is, as text: {dispatchId}.{L|A}.{enterpriseId}.{tokenId}.{signature}, all base64url or digits. */
export const GATE_PASS_PATTERN = /^\d{1,15}\.[LA]\.\d{1,15}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/;

/**
 * What a clerk holding a truck's QR pass sees: the truck and its order, the driver masked, nothing else of the
 * enterprise; whether the pass still records, and the ticket once recorded.
 */
export const GatePassViewSchema = z.object({
  stage: z.enum(['loading', 'arrival']),
  /** who records with it: the seller (at the mine) or the buyer (at the plant) */
  enterpriseName: z.string(),
  dispatchNo: z.string(),
  status: z.string(),
  plateNo: z.string(),
  /** 张* */
  driverName: z.string(),
  /** 138****5678 */
  driverMobile: z.string(),
  vehicleType: z.string(),
  ratedLoadKg: z.number().int(),
  plannedKg: z.number().int(),
  planDate: z.string(),
  orderNo: z.string(),
  productName: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  deliveryPlace: z.string(),
  /** the loading net, shown at the plant */
  loadedNetKg: z.number().int().nullable(),
  expiresAt: z.string(),
  /** null while the pass records; else why not (已录入, 已过期, 已取消, 尚未装车) */
  closedReason: z.string().nullable(),
  ticket: WeighTicketViewSchema.omit({ photoFileId: true }).nullable(),
});
export type GatePassView = z.infer<typeof GatePassViewSchema>;

/** The clerk's ticket: the weigh ticket and the clerk's name (no account says who it is). */
export const GatePassTicketSchema = WeighTicketSchema.extend({
  recorderName: safeString({ error: '请输入过磅员姓名' }).trim().min(2, '请输入过磅员姓名').max(20, '过磅员姓名不超过 20 字'),
});
export type GatePassTicketInput = z.infer<typeof GatePassTicketSchema>;

/** An approved driver of the transporting enterprise, for the 派车 form. */
export const DispatchDriverSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  plateNo: z.string(),
  vehicleType: z.string(),
  ratedLoadKg: z.number().int(),
  /** the most one truck may be planned for: rated load × (1 + 超载容差) */
  maxPlannedKg: z.number().int(),
});
export const DispatchDriverListSchema = z.array(DispatchDriverSchema);
export type DispatchDriver = z.infer<typeof DispatchDriverSchema>;

const optionalText = (max: number) => safeString().trim().max(max).optional();
const optionalDay = (label: string) => dayField(label).optional();

/** 运输信息: every truck of the enterprise's orders (as sender or receiver); the trading centre all. */
export const TransportQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  orderNo: optionalText(30),
  dispatchNo: optionalText(30),
  plateNo: optionalText(12),
  driverName: optionalText(20),
  status: z.enum(Object.keys(DISPATCH_STATUS) as [DispatchStatus, ...DispatchStatus[]]).optional(),
  /** dispatched on or after this day (Asia/Shanghai) */
  dateFrom: optionalDay('开始日期'),
  dateTo: optionalDay('结束日期'),
});
export type TransportQuery = z.infer<typeof TransportQuerySchema>;
export const DispatchPageSchema = pageSchema(DispatchViewSchema);
export type DispatchPage = z.infer<typeof DispatchPageSchema>;

export const SignForQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  /** arrived: trucks to sign for; disputed: trucks under dispute */
  status: z.enum(['arrived', 'disputed'], { error: '车辆状态只能是已到货或有异议' }).optional(),
  /** 'pending': disputes the seller has not answered yet */
  answer: z.enum(['pending'], { error: '答复筛选不正确' }).optional(),
});
export type SignForQuery = z.infer<typeof SignForQuerySchema>;

/** 物流信息: the orders with delivery under way or done, with their progress. */
export const DeliveryProgressQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  orderNo: optionalText(30),
});
export const DeliveryOrderPageSchema = pageSchema(DeliveryOrderSchema);
export type DeliveryOrderPage = z.infer<typeof DeliveryOrderPageSchema>;

/** Tons by day (Asia/Shanghai) for the 物流信息 chart. */
export const DeliveryDaySchema = z.object({ day: z.string(), loadedKg: z.number().int(), arrivedKg: z.number().int(), signedKg: z.number().int(), trucks: z.number().int() });
export const DeliveryDailySchema = z.array(DeliveryDaySchema);
export type DeliveryDay = z.infer<typeof DeliveryDaySchema>;

// ---------- pure checks (the server runs them; the forms show the same words before sending) ----------

/** Why a weigh ticket cannot be taken, or null. `overloadPct` is weigh_overload_pct. */
export function weighTicketProblem(t: { grossKg: number; tareKg: number; netKg: number }, ratedLoadKg: number, overloadPct: number): string | null {
  if (t.tareKg >= t.grossKg) return '皮重须小于毛重';
  if (t.netKg !== t.grossKg - t.tareKg) return `净重须等于毛重减皮重（${formatKgAsTons(t.grossKg - t.tareKg)} 吨）`;
  if (t.netKg * 100 > ratedLoadKg * (100 + overloadPct)) {
    return `净重超过车辆核定载重 ${formatKgAsTons(ratedLoadKg)} 吨的 ${overloadPct}% 容差，请核实`;
  }
  return null;
}

/** The most one truck may carry: rated load × (1 + overload %), in kg. */
export function maxTruckKg(ratedLoadKg: number, overloadPct: number): number {
  return Math.floor((ratedLoadKg * (100 + overloadPct)) / 100);
}

/**
 * Why a loading net cannot be taken against the truck's plan, or null: a truck loads at most its planned tons plus
 * the same weighing tolerance (weigh_overload_pct), else trucks planned at 1 t could each load a full truck.
 */
export function loadingOverPlanProblem(netKg: number, plannedKg: number, overloadPct: number): string | null {
  const most = maxTruckKg(plannedKg, overloadPct);
  if (netKg <= most) return null;
  return `装车净重超过计划装车量 ${formatKgAsTons(plannedKg)} 吨加 ${overloadPct}% 容差（最多 ${formatKgAsTons(most)} 吨）`;
}

/** The arrival must be weighed after the loading. */
export function arrivalTimeProblem(loadedAt: Date, arrivedAt: Date): string | null {
  return arrivedAt.getTime() <= loadedAt.getTime() ? '到货过磅时间须晚于装车过磅时间' : null;
}

/**
 * Transit loss: loaded − arrived (a gain is negative, never a loss). Exceeded when the loss is above loaded ×
 * transitLossPct % (合理途损), compared in integers (the percent has at most two decimals).
 */
export function transitLoss(loadedNetKg: number, arrivedNetKg: number, transitLossPct: number): { lossKg: number; lossExceeded: boolean } {
  const lossKg = loadedNetKg - arrivedNetKg;
  const basisPoints = Math.round(transitLossPct * 100);
  return { lossKg, lossExceeded: lossKg > 0 && lossKg * 10_000 > loadedNetKg * basisPoints };
}

const DAY_MS = 24 * 3600 * 1000;
/** The plan date must be within the contract's delivery dates ± PLAN_DATE_SLACK_DAYS. */
export function planDateProblem(planDate: string, terms: { deliveryDateStart: string; deliveryDateEnd: string }): string | null {
  const day = Date.parse(`${planDate}T00:00:00Z`);
  if (Number.isNaN(day)) return '计划装车日期格式应为 YYYY-MM-DD';
  const start = Date.parse(`${terms.deliveryDateStart}T00:00:00Z`) - PLAN_DATE_SLACK_DAYS * DAY_MS;
  const end = Date.parse(`${terms.deliveryDateEnd}T00:00:00Z`) + PLAN_DATE_SLACK_DAYS * DAY_MS;
  if (day < start || day > end) {
    return `计划装车日期须在合同交收期 ${terms.deliveryDateStart} 至 ${terms.deliveryDateEnd} 前后 ${PLAN_DATE_SLACK_DAYS} 天内`;
  }
  return null;
}

function formatKgAsTons(kg: number): string {
  return (kg / 1000).toFixed(2);
}
