import { z } from 'zod';
import { pageSchema } from '../api';
import { MAX_PRICE_FEN, QualitySchema } from '../listing/schemas';
import { PaymentAuthSchema } from '../funds/schemas';
import { safeString } from '../text';
import { dayField, deliveryFields, textField } from '../trade/fields';
import { isMonth, monthsBetween } from './pricing';
import { CallOffStates, LongTermApplicationStates, LongTermStates } from './states';

/** Long-term deals (长协交易), DESIGN.md §8. Money in integer fen, quantities in integer kg. */
export const LONG_TERM_STATUS = LongTermStates.states;
export type LongTermStatus = keyof typeof LONG_TERM_STATUS;
const LONG_TERM_STATUS_KEYS = Object.keys(LONG_TERM_STATUS) as [LongTermStatus, ...LongTermStatus[]];
export const LONG_TERM_APPLICATION_STATUS = LongTermApplicationStates.states;
export const CALL_OFF_STATUS = CallOffStates.states;
export type CallOffStatus = keyof typeof CALL_OFF_STATUS;
export const CALL_OFF_INITIATORS = { seller: '卖方发起', buyer: '买方申请' } as const;

/** The longest period one framework contract may cover. */
export const LONG_TERM_MAX_MONTHS = 36;
/** One month's plan: 1 million tons is far above any buyer's monthly need. */
export const LONG_TERM_MONTH_MAX_KG = 1_000_000_000;

const monthField = (label: string) =>
  safeString({ error: `请选择${label}` }).regex(/^\d{4}-\d{2}$/, `${label}格式应为 YYYY-MM`).refine(isMonth, `${label}不是有效月份`);
const kgField = (label: string) =>
  z.number({ error: `请输入${label}` }).int(`${label}最多精确到千克`).positive(`${label}须大于 0`).max(LONG_TERM_MONTH_MAX_KG, `${label}不超过 100 万吨`);
const fenField = (label: string) =>
  z.number({ error: `请输入${label}` }).int(`${label}最多两位小数`).min(1, `${label}须大于 0`).max(MAX_PRICE_FEN, `${label}过高`);
const idField = (label: string) => z.number({ error: `${label}无效` }).int(`${label}无效`).min(1, `${label}无效`).max(Number.MAX_SAFE_INTEGER, `${label}无效`);

export const LongTermPricingSchema = z
  .strictObject({
    mode: z.enum(['fixed', 'index'], { error: '请选择定价方式' }),
    /** 固定价格 or 基准价 */
    basePriceFen: fenField('基准价'),
    /** 浮动系数 × 10000 (0.5 → 5000) */
    coefficientE4: z.number({ error: '请输入浮动系数' }).int('浮动系数最多四位小数').min(0, '浮动系数不能为负').max(20_000, '浮动系数不超过 2').default(0),
    /** 基准参考值: the index level at which the float is 0 */
    referenceFen: z.number({ error: '请输入基准参考值' }).int('基准参考值最多两位小数').min(0, '基准参考值不能为负').max(MAX_PRICE_FEN, '基准参考值过高').default(0),
    /** the contract's own factor for the reasonable range × 10000; absent: Qnet,ar / 5500 */
    heatFactorE4: z.number({ error: '热值折算系数须为数字' }).int('热值折算系数最多四位小数').min(3_000, '热值折算系数不低于 0.3').max(15_000, '热值折算系数不高于 1.5').nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'index' && v.coefficientE4 === 0) ctx.addIssue({ code: 'custom', path: ['coefficientE4'], message: '浮动定价须填写大于 0 的浮动系数' });
    if (v.mode === 'index' && v.referenceFen === 0) ctx.addIssue({ code: 'custom', path: ['referenceFen'], message: '浮动定价须填写基准参考值' });
  });

/** A seller's long-term offer: saved as a draft or published (submit). */
export const LongTermOfferSchema = z
  .strictObject({
    /** edits one's own draft when given */
    id: idField('长协').optional(),
    stockCode: textField('产品', 32),
    quality: QualitySchema.default({}),
    priceType: deliveryFields.priceType,
    transport: deliveryFields.transport,
    deliveryProvince: deliveryFields.deliveryProvince,
    deliveryCity: deliveryFields.deliveryCity,
    deliveryDistrict: deliveryFields.deliveryDistrict,
    deliveryPlace: deliveryFields.deliveryPlace,
    periodStart: monthField('合同开始月份'),
    periodEnd: monthField('合同结束月份'),
    /** every month of the period, in order, with its planned quantity */
    months: z.array(z.strictObject({ month: monthField('月份'), plannedKg: kgField('月度计划量') }), { error: '请填写月度计划量' }).min(1, '请填写月度计划量').max(LONG_TERM_MAX_MONTHS, `合同期不超过 ${LONG_TERM_MAX_MONTHS} 个月`),
    pricing: LongTermPricingSchema,
    /** 定向: the named buyer's 统一社会信用代码; absent: open to every audited buyer */
    targetCreditCode: safeString().trim().regex(/^[0-9A-HJ-NPQRTUWXY]{18}$/, '统一社会信用代码应为 18 位').optional(),
    /** last day applications are taken */
    applyDeadline: dayField('申请截止日期'),
    remark: safeString().trim().max(500, '备注不超过 500 字').default(''),
    /** false: save as draft; true: publish */
    submit: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.periodEnd < v.periodStart) {
      ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: '合同结束月份不能早于开始月份' });
      return;
    }
    const period = monthsBetween(v.periodStart, v.periodEnd);
    if (period.length > LONG_TERM_MAX_MONTHS) {
      ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: `合同期不超过 ${LONG_TERM_MAX_MONTHS} 个月` });
      return;
    }
    if (v.months.map((m) => m.month).join() !== period.join()) {
      ctx.addIssue({ code: 'custom', path: ['months'], message: '月度计划须逐月覆盖合同期' });
    }
    if (v.applyDeadline >= `${v.periodEnd}-01`) ctx.addIssue({ code: 'custom', path: ['applyDeadline'], message: '申请截止日期须早于合同最后一个月' });
  });
export type LongTermOffer = z.infer<typeof LongTermOfferSchema>;

export const LongTermApplySchema = z.strictObject({ note: safeString().trim().max(200, '申请说明不超过 200 字').default('') });
export const LongTermAcceptSchema = z.strictObject({ applicationId: idField('申请') });
export const LongTermTerminateSchema = z.strictObject({
  reason: safeString({ error: '请输入终止原因' }).trim().min(2, '终止原因至少 2 个字').max(200, '终止原因不超过 200 字'),
});

/** A month's call-off: issued by the seller, requested by the buyer. */
export const CallOffCreateSchema = z
  .strictObject({
    month: monthField('调运月份'),
    quantityKg: kgField('调运数量'),
    deliveryDateStart: dayField('交收开始日期'),
    deliveryDateEnd: dayField('交收结束日期'),
    note: safeString().trim().max(200, '说明不超过 200 字').default(''),
  })
  .superRefine((v, ctx) => {
    if (v.deliveryDateEnd < v.deliveryDateStart) ctx.addIssue({ code: 'custom', path: ['deliveryDateEnd'], message: '交收结束日期不能早于开始日期' });
    if (!v.deliveryDateStart.startsWith(v.month) || !v.deliveryDateEnd.startsWith(v.month)) {
      ctx.addIssue({ code: 'custom', path: ['deliveryDateEnd'], message: '交收日期须在调运月份内' });
    }
  });
export type CallOffCreate = z.infer<typeof CallOffCreateSchema>;
export const CallOffDecideSchema = z.strictObject({
  accept: z.boolean({ error: '请选择确认或拒绝' }),
  reason: safeString().trim().max(200, '原因不超过 200 字').default(''),
  /** Confirming makes a deal (a monthly contract to pay): the pay password / key when the switches ask for it. */
  ...PaymentAuthSchema,
});

export const LongTermQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(LONG_TERM_STATUS_KEYS, { error: '长协状态不正确' }).optional(),
  /** market: open offers this buyer may apply to; mine (default): my enterprise's long-term deals */
  scope: z.enum(['mine', 'market']).default('mine'),
  keyword: safeString().trim().max(40, '关键字不超过 40 个字').optional(),
  /** only those whose fulfilment is below the warning line */
  flagged: z.enum(['1']).optional(),
});
export type LongTermQuery = z.infer<typeof LongTermQuerySchema>;

// ---------- answers ----------

const TermPointSchema = z.object({ label: z.string(), quoteDate: z.string(), priceFen: z.number().int() });
export const MonthPriceSchema = z.object({
  month: z.string(),
  sourceMonth: z.string(),
  priceFen: z.number().int(),
  basePriceFen: z.number().int(),
  floatFen: z.number().int(),
  averageFen: z.number().int().nullable(),
  basis: z.enum(['fixed', 'month_average', 'last_known', 'no_index']),
  terms: z.array(TermPointSchema),
  rangeMinFen: z.number().int(),
  rangeMaxFen: z.number().int(),
  warning: z.string().nullable(),
});

/** Planned vs called off vs delivered (signed) vs settled, and the rate delivered / planned. */
export const FulfilmentSchema = z.object({
  plannedKg: z.number().int(),
  calledKg: z.number().int(),
  deliveredKg: z.number().int(),
  settledKg: z.number().int(),
  /** percent, one decimal; null when nothing was planned */
  rate: z.number().nullable(),
  /** a finished month (or year so far) below the warning line */
  flagged: z.boolean(),
});
export type Fulfilment = z.infer<typeof FulfilmentSchema>;

export const LongTermMonthSchema = FulfilmentSchema.extend({
  month: z.string(),
  /** null until the month begins */
  price: MonthPriceSchema.nullable(),
  /** before, current or past */
  phase: z.enum(['future', 'current', 'past']),
  /** still open for call-offs: planned − (pending + confirmed) */
  availableKg: z.number().int(),
});
export type LongTermMonth = z.infer<typeof LongTermMonthSchema>;

export const LongTermYearSchema = FulfilmentSchema.extend({ year: z.string() });

export const CallOffSchema = z.object({
  id: z.number().int(),
  callOffNo: z.string(),
  month: z.string(),
  quantityKg: z.number().int(),
  priceFen: z.number().int(),
  amountFen: z.number().int(),
  deliveryDateStart: z.string(),
  deliveryDateEnd: z.string(),
  initiator: z.enum(['seller', 'buyer']),
  status: z.enum(Object.keys(CALL_OFF_STATUS) as [CallOffStatus, ...CallOffStatus[]]),
  statusText: z.string(),
  note: z.string(),
  reason: z.string(),
  dealNo: z.string().nullable(),
  contractId: z.number().int().nullable(),
  contractNo: z.string().nullable(),
  orderId: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  orderStatusText: z.string().nullable(),
  deliveredKg: z.number().int(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  actions: z.array(z.enum(['accept', 'decline', 'withdraw'])),
});
export type CallOff = z.infer<typeof CallOffSchema>;

export const LongTermApplicationSchema = z.object({
  id: z.number().int(),
  buyerName: z.string(),
  note: z.string(),
  status: z.enum(Object.keys(LONG_TERM_APPLICATION_STATUS) as ['pending', 'accepted', 'declined', 'withdrawn']),
  statusText: z.string(),
  createdAt: z.string(),
});

export const LONG_TERM_ACTIONS = ['edit', 'publish', 'withdraw', 'apply', 'withdrawApplication', 'accept', 'callOff', 'requestCallOff', 'terminate'] as const;
export type LongTermAction = (typeof LONG_TERM_ACTIONS)[number];

export const LongTermSummarySchema = z.object({
  id: z.number().int(),
  dealNo: z.string(),
  status: z.enum(LONG_TERM_STATUS_KEYS),
  statusText: z.string(),
  mySide: z.enum(['seller', 'buyer']).nullable(),
  sellerName: z.string(),
  buyerName: z.string().nullable(),
  /** 定向 offers: the named buyer */
  targetName: z.string().nullable(),
  stockCode: z.string(),
  productName: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  plannedKg: z.number().int(),
  pricingMode: z.enum(['fixed', 'index']),
  pricingText: z.string(),
  basePriceFen: z.number().int(),
  /** the current month's price, once fixed */
  currentPriceFen: z.number().int().nullable(),
  applyDeadline: z.string(),
  applicationCount: z.number().int(),
  myApplicationStatus: z.string().nullable(),
  contractId: z.number().int().nullable(),
  contractNo: z.string().nullable(),
  /** the year so far: delivered / planned over finished months */
  fulfilment: FulfilmentSchema,
  createdAt: z.string(),
  actions: z.array(z.enum(LONG_TERM_ACTIONS)),
});
export type LongTermSummary = z.infer<typeof LongTermSummarySchema>;
export const LongTermPageSchema = pageSchema(LongTermSummarySchema);

export const LongTermDetailSchema = LongTermSummarySchema.extend({
  quality: z.record(z.string(), z.number().nullable().optional()),
  priceType: z.string(),
  transport: z.string(),
  deliveryProvince: z.string(),
  deliveryCity: z.string(),
  deliveryDistrict: z.string(),
  deliveryPlace: z.string(),
  pricing: z.object({
    mode: z.enum(['fixed', 'index']),
    basePriceFen: z.number().int(),
    coefficientE4: z.number().int(),
    referenceFen: z.number().int(),
    heatFactorE4: z.number().int().nullable(),
  }),
  remark: z.string(),
  /** a 定向 offer's buyer, for the seller editing its draft (null for everyone else) */
  targetCreditCode: z.string().nullable(),
  terminateReason: z.string().nullable(),
  months: z.array(LongTermMonthSchema),
  years: z.array(LongTermYearSchema),
  callOffs: z.array(CallOffSchema),
  applications: z.array(LongTermApplicationSchema),
  /** the warning line in percent (system parameter) */
  warnPct: z.number(),
});
export type LongTermDetail = z.infer<typeof LongTermDetailSchema>;

/** The price a month would have today, for the offer form's preview: GET …/price-preview */
export const PricePreviewQuerySchema = z.object({
  mode: z.enum(['fixed', 'index']).default('index'),
  basePriceFen: z.coerce.number().int().min(0).max(MAX_PRICE_FEN).default(0),
  coefficientE4: z.coerce.number().int().min(0).max(20_000).default(0),
  referenceFen: z.coerce.number().int().min(0).max(MAX_PRICE_FEN).default(0),
  heatFactorE4: z.coerce.number().int().min(3_000).max(15_000).optional(),
  qnet: z.coerce.number().int().min(1000).max(8000).optional(),
  month: monthField('月份'),
});
