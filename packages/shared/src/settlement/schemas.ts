import { z } from 'zod';
import { pageSchema } from '../api';
import { PaymentAuthSchema } from '../funds/schemas';
import { safeString } from '../text';
import { StatementStates } from './states';

/** Settlement statements (结算单, 余额结算; DESIGN.md §8). Money in integer fen, weights in integer kg. */
export const STATEMENT_STATUS = StatementStates.states;
export type StatementStatus = keyof typeof STATEMENT_STATUS;

const orderIdField = z.number({ error: '请选择订单' }).int('订单无效').positive('订单无效').max(Number.MAX_SAFE_INTEGER, '订单无效');
const reasonField = (label: string) =>
  safeString({ error: `请输入${label}` }).trim().min(2, `${label}至少 2 个字`).max(300, `${label}不超过 300 字`);

/** 开具结算单 (and its preview): the seller names the order; every figure comes from the order's own records. */
export const StatementIssueSchema = z.strictObject({ orderId: orderIdField });
export type StatementIssue = z.infer<typeof StatementIssueSchema>;
/** the preview reads only: a GET with the order in the query */
export const StatementPreviewQuerySchema = z.object({
  orderId: z.coerce.number({ error: '请选择订单' }).int('订单无效').positive('订单无效').max(Number.MAX_SAFE_INTEGER, '订单无效'),
});

export const StatementConfirmSchema = z.strictObject({ ...PaymentAuthSchema });
export type StatementConfirm = z.infer<typeof StatementConfirmSchema>;
export const StatementDisputeSchema = z.strictObject({ reason: reasonField('异议原因') });
export const StatementRuleSchema = z.strictObject({
  /** true: the statement stands and the money moves; false: back to the seller to issue a new one */
  uphold: z.boolean({ error: '请选择裁定结果' }),
  note: reasonField('裁定说明'),
});

export const StatementQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(Object.keys(STATEMENT_STATUS) as [StatementStatus, ...StatementStatus[]], { error: '结算单状态不正确' }).optional(),
  statementNo: safeString().trim().max(30).optional(),
  /** 'buyer': only statements where my enterprise is the buyer (the side that confirms) */
  side: z.enum(['buyer', 'seller'], { error: '买卖方筛选不正确' }).optional(),
});
export type StatementQuery = z.infer<typeof StatementQuerySchema>;

/** One truck that counts: its dispatch, both tickets and the weight on the contract's basis. */
export const StatementTruckSchema = z.object({
  dispatchNo: z.string(),
  plateNo: z.string(),
  loadingTicketNo: z.string(),
  loadedNetKg: z.number().int().nullable(),
  arrivalTicketNo: z.string(),
  arrivedNetKg: z.number().int().nullable(),
  signedKg: z.number().int(),
});
export const StatementQualityLineSchema = z.object({
  indicator: z.string(),
  label: z.string(),
  value: z.string(),
  basis: z.string(),
  tier: z.string(),
  steps: z.number(),
  fenPerTon: z.number().int(),
});
export const StatementLabSchema = z.object({
  reportNo: z.string(),
  labName: z.string(),
  testedAt: z.string(),
  qnet: z.number(),
  mt: z.number(),
  st: z.number(),
  ad: z.number(),
  vdaf: z.number(),
});

/** The figures of a statement (the preview shows the same before it is issued). */
export const StatementFiguresSchema = z.object({
  orderId: z.number().int(),
  orderNo: z.string(),
  contractNo: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  productName: z.string(),
  weighingBasis: z.string(),
  trucks: z.array(StatementTruckSchema),
  lab: StatementLabSchema,
  qualityLines: z.array(StatementQualityLineSchema),
  contractPriceFen: z.number().int(),
  unitPriceFen: z.number().int(),
  signedKg: z.number().int(),
  moistureDeductedKg: z.number().int(),
  moistureNote: z.string(),
  settledKg: z.number().int(),
  amountFen: z.number().int(),
  escrowFen: z.number().int(),
  /** amount − escrow: > 0 the buyer pays the rest, < 0 the rest of the escrow goes back to it */
  balanceFen: z.number().int(),
  feePerTonFen: z.number().int(),
  /** the platform's service fee, paid by the seller out of the settled amount */
  feeFen: z.number().int(),
  /** what reaches the seller: amount − fee */
  sellerReceivesFen: z.number().int(),
});
export type StatementFigures = z.infer<typeof StatementFiguresSchema>;

export const StatementViewSchema = StatementFiguresSchema.extend({
  id: z.number().int(),
  statementNo: z.string(),
  status: z.string(),
  statusText: z.string(),
  issuedAt: z.string(),
  issuedByName: z.string(),
  disputeReason: z.string(),
  rulingNote: z.string(),
  confirmedAt: z.string().nullable(),
  /** the viewer's side ('seller' | 'buyer'), null for the trading centre */
  side: z.string().nullable(),
  canConfirm: z.boolean(),
  canRule: z.boolean(),
});
export type StatementView = z.infer<typeof StatementViewSchema>;
export const StatementPageSchema = pageSchema(StatementViewSchema);

/** An order waiting for its statement (the seller's 开具结算单 list). */
export const SettleableOrderSchema = z.object({
  orderId: z.number().int(),
  orderNo: z.string(),
  buyerName: z.string(),
  productName: z.string(),
  signedKg: z.number().int(),
  escrowFen: z.number().int(),
});
export const SettleableOrderListSchema = z.array(SettleableOrderSchema);
