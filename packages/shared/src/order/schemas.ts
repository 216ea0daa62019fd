import { z } from 'zod';
import { pageSchema } from '../api';
import { PaymentAuthSchema, RequestIdSchema } from '../funds/schemas';
import { safeString } from '../text';
import { dayField } from '../trade/fields';
import { OrderStates } from './states';

/** Order vocabulary of DESIGN.md §8 "Orders, payment and delivery". Money in integer fen, quantities in integer kg. */
export const ORDER_STATUS = OrderStates.states;
export type OrderStatus = keyof typeof ORDER_STATUS;
const ORDER_STATUS_KEYS = Object.keys(ORDER_STATUS) as [OrderStatus, ...OrderStatus[]];

export const ORDER_SIDES = { seller: '卖方', buyer: '买方' } as const;
export type OrderSideKey = keyof typeof ORDER_SIDES;

/** The list's state tabs (订单管理), in the order a trader works through them; 'all' is no filter. */
export const ORDER_TABS = ['all', 'unpaid', 'awaiting_shipment', 'shipping', 'awaiting_settlement', 'settled', 'completed', 'terminated'] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

const filterText = (max: number, label: string) => safeString().trim().max(max, `${label}过长`).optional();

/** 订单管理 search: every filter optional; created dates are Asia/Shanghai days, both ends included. */
export const OrderFilterSchema = z
  .object({
    status: z.enum(ORDER_STATUS_KEYS, { error: '订单状态不正确' }).optional(),
    /** '1': only unpaid orders past their payment deadline (the operator's 逾期未付款订单) */
    overdue: z.enum(['0', '1'], { error: '逾期筛选只能是 0 或 1' }).optional(),
    /** '1': orders still to ship or shipping after their delivery window ended (Asia/Shanghai day) */
    late: z.enum(['0', '1'], { error: '交收逾期筛选只能是 0 或 1' }).optional(),
    /** lab reports: 'disputed' orders with a disputed report; 'toConfirm' a report from the other side waiting for mine */
    labReport: z.enum(['disputed', 'toConfirm'], { error: '化验单筛选不正确' }).optional(),
    orderNo: filterText(30, '订单编号'),
    contractNo: filterText(30, '合同编号'),
    counterparty: filterText(60, '企业名称'),
    productName: filterText(60, '产品名称'),
    dateFrom: dayField('开始日期').optional(),
    dateTo: dayField('结束日期').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.dateFrom && v.dateTo && v.dateFrom > v.dateTo) ctx.addIssue({ code: 'custom', path: ['dateTo'], message: '结束日期不能早于开始日期' });
  });
export type OrderFilter = z.infer<typeof OrderFilterSchema>;

export const OrderQuerySchema = OrderFilterSchema.safeExtend({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type OrderQuery = z.infer<typeof OrderQuerySchema>;

/** Delivery progress kept on the order (planned = dispatched trucks' planned tons). */
export const OrderProgressSchema = z.object({
  plannedKg: z.number().int(),
  dispatchedTrucks: z.number().int(),
  loadedKg: z.number().int(),
  loadedTrucks: z.number().int(),
  arrivedKg: z.number().int(),
  arrivedTrucks: z.number().int(),
  signedKg: z.number().int(),
  signedTrucks: z.number().int(),
});
export type OrderProgress = z.infer<typeof OrderProgressSchema>;

export const OrderSummarySchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  contractId: z.number().int(),
  contractNo: z.string(),
  /** the viewer's side; null for the trading centre */
  mySide: z.enum(['seller', 'buyer']).nullable(),
  sellerName: z.string(),
  buyerName: z.string(),
  productName: z.string(),
  /** kg */
  quantity: z.number().int(),
  /** fen per ton */
  price: z.number().int(),
  amount: z.number().int(),
  /** what the buyer pays into escrow (contract amount × prepayment ratio) */
  prepayment: z.number().int(),
  /** frozen in the buyer's account for this order now */
  escrow: z.number().int(),
  /** yyyy-MM-dd HH:mm:ss, Asia/Shanghai; null until paid */
  paidAt: z.string().nullable(),
  status: z.string(),
  paymentDeadline: z.string(),
  /** still unpaid past the payment deadline */
  overdue: z.boolean(),
  progress: OrderProgressSchema,
  /** which side arranges the trucks */
  transportSide: z.enum(['seller', 'buyer']),
  createdAt: z.string(),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

/** A page of orders with the count per state for the tabs (same filters, state aside). */
export const OrderPageSchema = pageSchema(OrderSummarySchema).extend({
  counts: z.record(z.string(), z.number().int()),
});
export type OrderPage = z.infer<typeof OrderPageSchema>;

export const OrderEventSchema = z.object({
  at: z.string(),
  action: z.string(),
  actorName: z.string(),
  note: z.string(),
});
export type OrderEventView = z.infer<typeof OrderEventSchema>;

/** The contract terms delivery works by, as copied onto the order when it was made. */
export const OrderTermsSchema = z.object({
  quantityTolerancePct: z.number(),
  transitLossPct: z.number(),
  weighingBasis: z.enum(['seller', 'buyer', 'third_party']),
  testingBasis: z.enum(['seller', 'buyer', 'third_party']),
  transportArranger: z.enum(['seller', 'buyer']),
  deliveryPlace: z.string(),
  deliveryDateStart: z.string(),
  deliveryDateEnd: z.string(),
  prepaymentPct: z.number(),
  paymentWorkingDays: z.number().int(),
});

export const OrderDetailSchema = OrderSummarySchema.extend({
  dealNo: z.string(),
  tradeNo: z.string(),
  /** PRICE_TYPES key */
  priceType: z.string(),
  quality: z.record(z.string(), z.number().nullable()),
  terms: OrderTermsSchema,
  /** contract quantity plus its tolerance: the most trucks may be planned for, kg */
  maxDeliverable: z.number().int(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  terminatedAt: z.string().nullable(),
  terminateReason: z.string().nullable(),
  /** what the viewer may do now (the server checks again) */
  canPay: z.boolean(),
  canTerminate: z.boolean(),
  timeline: z.array(OrderEventSchema),
});
export type OrderDetail = z.infer<typeof OrderDetailSchema>;

/** 支付货款: the prepayment is frozen into escrow; the request id makes a double click pay once. */
export const OrderPaySchema = z.strictObject({
  requestId: RequestIdSchema,
  ...PaymentAuthSchema,
});
export type OrderPay = z.infer<typeof OrderPaySchema>;

export const OrderTerminateSchema = z.strictObject({
  reason: safeString({ error: '请输入终止原因' }).trim().min(2, '终止原因至少 2 个字').max(200, '终止原因不超过 200 字'),
});
export type OrderTerminate = z.infer<typeof OrderTerminateSchema>;

/** 货款支付: orders waiting for payment, or the payment history. */
export const ORDER_PAYMENT_TABS = { due: '待付款', paid: '付款记录' } as const;
export const OrderPaymentQuerySchema = z.object({
  tab: z.enum(['due', 'paid'], { error: '请选择待付款或付款记录' }).default('due'),
  /** 'buyer': only the orders my enterprise pays (the to-do 待付款订单) */
  side: z.enum(['buyer', 'seller'], { error: '买卖方筛选不正确' }).optional(),
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type OrderPaymentQuery = z.infer<typeof OrderPaymentQuerySchema>;
export const OrderPaymentPageSchema = pageSchema(OrderSummarySchema);
