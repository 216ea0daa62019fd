import { z } from 'zod';
import { pageSchema } from '../api';
import { amountFen } from '../money';
import { safeString } from '../text';
import { FreightStatementStates } from './states';

/** Freight settlement (运费结算, 运费汇总, 物流结算), DESIGN.md §8. Money in integer fen, weights in integer kg. */
export const FREIGHT_STATUS = FreightStatementStates.states;
export type FreightStatus = keyof typeof FREIGHT_STATUS;
const FREIGHT_STATUS_KEYS = Object.keys(FREIGHT_STATUS) as [FreightStatus, ...FreightStatus[]];

/** Who hauled: a driver the enterprise registered, or a carrier company (承运公司) it names. */
export const FREIGHT_CARRIER_KINDS = { driver: '司机', company: '承运公司' } as const;
export type FreightCarrierKind = keyof typeof FREIGHT_CARRIER_KINDS;

/** Freight VAT (交通运输服务 9 %), shown on the statement. */
export const FREIGHT_VAT_PCT = 9;
/** A rate above 1000 元/t is a typing error, not a coal freight. */
export const FREIGHT_RATE_MAX_FEN = 100_000;
/** The longest period one statement may cover. */
export const FREIGHT_PERIOD_MAX_DAYS = 366;

const rateField = z
  .number({ error: '请输入运价 (元/吨)' })
  .min(1, '运价须大于 0')
  .max(FREIGHT_RATE_MAX_FEN, '运价不超过 1000 元/吨')
  .int('运价最多两位小数');
const dayField = (label: string) => safeString({ error: `请选择${label}` }).regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`);
const idField = (label: string) => z.number({ error: `${label}无效` }).min(1, `${label}无效`).max(Number.MAX_SAFE_INTEGER, `${label}无效`).int(`${label}无效`);
const fileKey = (label: string) => safeString({ error: `请上传${label}` }).min(1, `请上传${label}`).max(200, `${label}无效，请重新上传`);

const scopeFields = {
  carrierKind: z.enum(['driver', 'company'], { error: '请选择承运方类型' }),
  /** the registered driver (carrierKind driver) */
  driverId: idField('司机').optional(),
  /** the carrier company's name (carrierKind company) */
  carrierName: safeString().trim().max(60, '承运公司名称不超过 60 个字').optional(),
  periodFrom: dayField('结算开始日期'),
  periodTo: dayField('结算结束日期'),
};
function checkScope(value: { carrierKind: string; driverId?: number; carrierName?: string; periodFrom: string; periodTo: string }, ctx: z.RefinementCtx) {
  if (value.carrierKind === 'driver' && !value.driverId) ctx.addIssue({ code: 'custom', path: ['driverId'], message: '请选择司机' });
  if (value.carrierKind === 'company' && (!value.carrierName || value.carrierName.length < 2)) {
    ctx.addIssue({ code: 'custom', path: ['carrierName'], message: '请输入承运公司名称 (至少 2 个字)' });
  }
  const from = Date.parse(`${value.periodFrom}T00:00:00Z`);
  const to = Date.parse(`${value.periodTo}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) return;
  if (to < from) ctx.addIssue({ code: 'custom', path: ['periodTo'], message: '结算结束日期不能早于开始日期' });
  else if ((to - from) / 86_400_000 >= FREIGHT_PERIOD_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['periodTo'], message: '结算期间不超过 366 天' });
}

/** The carrier and period of a statement: what the eligible trucks are chosen by. */
export const FreightScopeSchema = z.object(scopeFields).superRefine(checkScope);
export type FreightScope = z.infer<typeof FreightScopeSchema>;

/** A draft: the scope, the statement's rate, and optionally which trucks with their own rates (default: all eligible). */
export const FreightDraftSchema = z
  .object({
    ...scopeFields,
    /** fen per ton, excluding VAT */
    rateFen: rateField,
    lines: z
      .array(z.object({ dispatchId: idField('派车单'), rateFen: rateField.optional() }), { error: '车辆列表格式不正确' })
      .max(500, '一张结算单最多 500 车')
      .optional(),
    note: safeString().trim().max(300, '备注不超过 300 字').optional(),
  })
  .superRefine(checkScope);
export type FreightDraftInput = z.infer<typeof FreightDraftSchema>;

export const FreightConfirmSchema = z.object({
  /** the carrier's signed copy of the statement */
  signedCopy: fileKey('承运方签字确认件'),
  /** who signed for the carrier */
  carrierSigner: safeString({ error: '请输入承运方签字人' }).trim().min(2, '承运方签字人至少 2 个字').max(20, '承运方签字人不超过 20 个字'),
});
export const FreightPaySchema = z.object({ voucher: fileKey('付款凭证'), note: safeString().trim().max(300, '备注不超过 300 字').optional() });

export const FreightQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(FREIGHT_STATUS_KEYS, { error: '运费结算单状态不正确' }).optional(),
  /** 物流结算: the statements waiting for payment and paid */
  payable: z.enum(['1']).optional(),
  statementNo: safeString().trim().max(30, '结算单号不超过 30 个字').optional(),
  carrierName: safeString().trim().max(60, '承运方名称不超过 60 个字').optional(),
  orderNo: safeString().trim().max(30, '订单号不超过 30 个字').optional(),
});
export type FreightQuery = z.infer<typeof FreightQuerySchema>;

export const FreightSummaryQuerySchema = z.object({
  /** yyyy-MM */
  monthFrom: safeString().regex(/^\d{4}-\d{2}$/, '月份格式应为 YYYY-MM').optional(),
  monthTo: safeString().regex(/^\d{4}-\d{2}$/, '月份格式应为 YYYY-MM').optional(),
  carrierName: safeString().trim().max(60, '承运方名称不超过 60 个字').optional(),
});
export type FreightSummaryQuery = z.infer<typeof FreightSummaryQuerySchema>;

/** One truck's line and where each number came from. */
export const FreightLineSchema = z.object({
  dispatchId: z.number().int(),
  dispatchNo: z.string(),
  orderId: z.number().int(),
  orderNo: z.string(),
  driverName: z.string(),
  plateNo: z.string(),
  signedAt: z.string(),
  loadedNetKg: z.number().int(),
  arrivedNetKg: z.number().int(),
  signedKg: z.number().int(),
  lossKg: z.number().int(),
  transitLossPct: z.number(),
  /** loss beyond the contract's tolerance, kg */
  excessLossKg: z.number().int(),
  /** the order's price: what the excess loss is valued at */
  orderPriceFen: z.number().int(),
  rateFen: z.number().int(),
  freightFen: z.number().int(),
  lossDeductionFen: z.number().int(),
  lineFen: z.number().int(),
});
export type FreightLine = z.infer<typeof FreightLineSchema>;

export const FreightMoneySchema = z.object({
  trucks: z.number().int(),
  signedKg: z.number().int(),
  freightFen: z.number().int(),
  lossDeductionFen: z.number().int(),
  subtotalFen: z.number().int(),
  taxFen: z.number().int(),
  totalFen: z.number().int(),
});
export type FreightMoney = z.infer<typeof FreightMoneySchema>;

export const FreightPreviewSchema = FreightMoneySchema.extend({ carrierName: z.string(), lines: z.array(FreightLineSchema) });
export type FreightPreview = z.infer<typeof FreightPreviewSchema>;

const fileRef = z.object({ url: z.string(), name: z.string() }).nullable();
export const FreightSummarySchema = FreightMoneySchema.extend({
  id: z.number().int(),
  statementNo: z.string(),
  enterpriseId: z.number().int(),
  enterpriseName: z.string(),
  carrierKind: z.enum(['driver', 'company']),
  carrierKindText: z.string(),
  carrierName: z.string(),
  driverId: z.number().int().nullable(),
  periodFrom: z.string(),
  periodTo: z.string(),
  rateFen: z.number().int(),
  status: z.enum(FREIGHT_STATUS_KEYS),
  statusText: z.string(),
  orderNos: z.array(z.string()),
  note: z.string(),
  carrierSigner: z.string(),
  confirmedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  /** what the actor may do now */
  actions: z.array(z.enum(['confirm', 'pay', 'cancel'])),
});
export type FreightStatementSummary = z.infer<typeof FreightSummarySchema>;
export const FreightDetailSchema = FreightSummarySchema.extend({
  lines: z.array(FreightLineSchema),
  signedCopy: fileRef,
  voucher: fileRef,
  createdBy: z.string(),
});
export type FreightDetail = z.infer<typeof FreightDetailSchema>;
export const FreightPageSchema = pageSchema(FreightSummarySchema);

/** The enterprise's carriers to choose from: its registered drivers and the companies it has named before. */
export const FreightCarriersSchema = z.object({
  drivers: z.array(z.object({ id: z.number().int(), name: z.string(), plateNo: z.string() })),
  companies: z.array(z.string()),
});

export const FreightSummaryRowSchema = FreightMoneySchema.extend({ carrierName: z.string(), month: z.string(), paidFen: z.number().int() });
export const FreightSummaryAnswerSchema = z.object({ rows: z.array(FreightSummaryRowSchema), total: FreightMoneySchema.extend({ paidFen: z.number().int() }) });
export type FreightSummaryAnswer = z.infer<typeof FreightSummaryAnswerSchema>;

/** The kg lost beyond the contract's tolerance (合理途损): whole kg, > 0 exactly when the truck's loss is "exceeded". */
export function excessLossKg(loadedNetKg: number, lossKg: number, transitLossPct: number): number {
  if (lossKg <= 0) return 0;
  const basisPoints = Math.round(transitLossPct * 100);
  const toleranceKg = Math.floor((loadedNetKg * basisPoints) / 10_000);
  return Math.max(0, lossKg - toleranceKg);
}

/** One truck's money: rate × signed weight, less the excess loss valued at the order's price, each half up to the fen. */
export function freightLineMoney(truck: { signedKg: number; loadedNetKg: number; lossKg: number; transitLossPct: number; orderPriceFen: number }, rateFen: number) {
  const excess = excessLossKg(truck.loadedNetKg, truck.lossKg, truck.transitLossPct);
  const freightFen = Number(amountFen(rateFen, truck.signedKg));
  const lossDeductionFen = Number(amountFen(truck.orderPriceFen, excess));
  return { excessLossKg: excess, rateFen, freightFen, lossDeductionFen, lineFen: freightFen - lossDeductionFen };
}

/** VAT at 9 % of the subtotal, half up to the fen. */
export function freightTaxFen(subtotalFen: number): number {
  const product = BigInt(subtotalFen) * BigInt(FREIGHT_VAT_PCT);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + 50n) / 100n;
  return Number(negative ? -rounded : rounded);
}

/** The statement's totals from its lines. */
export function freightTotals(lines: readonly Pick<FreightLine, 'signedKg' | 'freightFen' | 'lossDeductionFen' | 'lineFen'>[]): FreightMoney {
  const sum = (pick: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + pick(l), 0);
  const subtotalFen = sum((l) => l.lineFen);
  const taxFen = freightTaxFen(subtotalFen);
  return { trucks: lines.length, signedKg: sum((l) => l.signedKg), freightFen: sum((l) => l.freightFen), lossDeductionFen: sum((l) => l.lossDeductionFen), subtotalFen, taxFen, totalFen: subtotalFen + taxFen };
}
