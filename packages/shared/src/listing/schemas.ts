import { z } from 'zod';
import { deliveryFields, deliveryViewFields, instantField, pageFields, textField } from '../trade/fields';
import { ListingStates, SubscriptionStates } from './states';
import { PaymentAuthSchema, RequestIdSchema } from '../funds/schemas';

/** Listing (挂牌) vocabulary of DESIGN.md §6. Money in integer fen, quantities in integer kg. */
export const PRICE_TYPES = { factory_tax: '含税出厂价', pithead: '坑口价', delivered: '到厂价' } as const;
export const TRANSPORTS = { road: '公路', rail: '铁路', water: '水路' } as const;
export const DEPOSIT_MODES = { per_ton: '按吨缴纳', fixed: '按笔固定金额' } as const;
/** Labels of the transition tables in ./states.ts. */
export const LISTING_STATUS = ListingStates.states;
export const SUBSCRIPTION_STATUS = SubscriptionStates.states;
export const QUALITY_FIELDS = {
  qnet: { label: '发热量 Qnet,ar', unit: 'kcal/kg' },
  mt: { label: '全水分 Mt', unit: '%' },
  st: { label: '全硫 St,d', unit: '%' },
  ad: { label: '灰分 Ad', unit: '%' },
  vdaf: { label: '挥发分 Vdaf', unit: '%' },
  ashFusion: { label: '灰熔点 ST', unit: '℃' },
} as const;

/** Price label per trade type (spec §4). */
export const PRICE_LABEL: Record<number, string> = { 0: '销售价格', 1: '采购价格', 2: '起拍价', 3: '基价' };

/** 10 million tons: far above any single coal listing. */
export const MAX_QUANTITY_KG = 10_000_000_000;
/** 100,000 元/吨: far above any coal price. */
export const MAX_PRICE_FEN = 10_000_000;

const percent = (label: string) =>
  z.number({ error: `${label}须为数字` }).min(0, `${label}不能为负`).max(100, `${label}不能超过 100%`).nullable().optional();

export const QualitySchema = z.strictObject({
  qnet: z.number({ error: '发热量须为数字' }).int('发热量须为整数').min(1000, '发热量不低于 1000 kcal/kg').max(8000, '发热量不高于 8000 kcal/kg').nullable().optional(),
  mt: percent('全水分'),
  st: percent('全硫'),
  ad: percent('灰分'),
  vdaf: percent('挥发分'),
  ashFusion: z.number({ error: '灰熔点须为数字' }).int().min(900, '灰熔点不低于 900 ℃').max(1700, '灰熔点不高于 1700 ℃').nullable().optional(),
});
export type Quality = z.infer<typeof QualitySchema>;

const kg = (label: string) =>
  z.number({ error: `请输入${label}` }).int(`${label}最多精确到千克`).positive(`${label}须大于 0`).max(MAX_QUANTITY_KG, `${label}过大`);
const fen = (label: string) =>
  z.number({ error: `请输入${label}` }).int(`${label}最多两位小数`).min(0, `${label}不能为负`).max(MAX_PRICE_FEN * 1000, `${label}过大`);
const instant = instantField;
const text = textField;

export const ListingApplySchema = z
  .strictObject({
    /** Edits a draft or rejected listing of one's own when given. */
    tradeId: z.string().max(20).optional(),
    tradeType: z.union([z.literal(0), z.literal(1)], { error: '交易类型须为 0 (挂牌销售) 或 1 (挂牌采购)' }),
    stockCode: text('产品', 32),
    quality: QualitySchema.default({}),
    quantity: kg('挂牌数量'),
    price: fen('价格').max(MAX_PRICE_FEN, '价格过高'),
    minSubscribe: kg('最小摘牌量'),
    maxSubscribe: kg('最大摘牌量'),
    depositMode: z.enum(['per_ton', 'fixed'], { error: '请选择保证金方式' }),
    depositValue: fen('保证金'),
    ...deliveryFields,
    listedDateStart: instant('挂牌开始时间'),
    listedDateEnd: instant('挂牌结束时间'),
    autoConfirm: z.boolean().default(false),
    remark: z.string().trim().max(500, '备注不超过 500 字').default(''),
    /** false: save as draft; true: submit for audit. */
    submit: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.minSubscribe > v.maxSubscribe) ctx.addIssue({ code: 'custom', path: ['minSubscribe'], message: '最小摘牌量不能大于最大摘牌量' });
    if (v.maxSubscribe > v.quantity) ctx.addIssue({ code: 'custom', path: ['maxSubscribe'], message: '最大摘牌量不能大于挂牌数量' });
    if (Date.parse(v.listedDateStart) >= Date.parse(v.listedDateEnd)) ctx.addIssue({ code: 'custom', path: ['listedDateEnd'], message: '挂牌结束时间须晚于开始时间' });
    if (v.deliveryDateStart > v.deliveryDateEnd) ctx.addIssue({ code: 'custom', path: ['deliveryDateEnd'], message: '交收结束日期不能早于开始日期' });
  });
export type ListingApply = z.infer<typeof ListingApplySchema>;

export const TradeIdSchema = z.strictObject({ tradeId: z.string({ error: '缺少交易编号' }).min(1).max(20) });
export const ListingRejectSchema = z.strictObject({
  tradeId: z.string({ error: '缺少交易编号' }).min(1).max(20),
  reason: z.string({ error: '请填写驳回原因' }).trim().min(2, '请填写驳回原因').max(200, '驳回原因不超过 200 字'),
});

export const SubscribeSchema = z.strictObject({
  tradeId: z.string({ error: '缺少交易编号' }).min(1).max(20),
  quantity: kg('摘牌数量'),
  requestId: RequestIdSchema,
  ...PaymentAuthSchema,
});

export const AnswerDealSchema = z.strictObject({
  id: z.number({ error: '缺少摘牌记录编号' }).int().positive(),
  action: z.enum(['confirm', 'decline'], { error: '操作须为 confirm 或 decline' }),
  reason: z.string().trim().max(200, '原因不超过 200 字').optional(),
});


/** Home tables (spec §7: pageSize 5, pageNo, tradeType) and more-listings page. */
export const ListedTradeListSchema = z.object({
  ...pageFields,
  tradeType: z.coerce.number().int().min(0).max(1).optional(),
  tradeId: z.string().max(20).optional(),
  productName: z.string().max(40).optional(),
  hangState: z.coerce.number().int().min(1).max(2).optional(),
});

export const MyListingQuerySchema = z.object({
  ...pageFields,
  tradeType: z.number().int().min(0).max(1).optional(),
  tradeId: z.string().max(20).optional(),
  status: z.enum(['draft', 'submitted', 'approved', 'rejected']).optional(),
  hangState: z.number().int().min(0).max(2).optional(),
});

export const SubscriptionQuerySchema = z.object({
  ...pageFields,
  tradeId: z.string().max(20).optional(),
  status: z.enum(['pending', 'confirmed', 'declined']).optional(),
});

export const ListingAuditQuerySchema = z.object({
  ...pageFields,
  status: z.enum(['submitted', 'approved', 'rejected']).optional(),
});

export const ProductSchema = z.object({
  stockCode: z.string(),
  stockName: z.string(),
  category: z.string(),
  quality: z.record(z.string(), z.number().nullable().optional()),
  enabled: z.boolean(),
});
export const ProductSaveSchema = z.strictObject({
  stockCode: z.string({ error: '请输入产品编码' }).trim().regex(/^[A-Za-z0-9_-]{2,32}$/, '产品编码为 2-32 位字母、数字、下划线或连字符'),
  stockName: z.string({ error: '请输入产品名称' }).trim().min(1, '请输入产品名称').max(40, '产品名称不超过 40 字'),
  category: z.string({ error: '请输入产品类别' }).trim().min(1, '请输入产品类别').max(20, '产品类别不超过 20 字'),
  quality: QualitySchema.default({}),
  enabled: z.boolean().default(true),
});

/** A listing as served (spec §3 trade fields): price and deposit in fen, quantities in kg, times Asia/Shanghai. */
export const ListingViewSchema = z.object({
  tradeId: z.string(),
  tradeType: z.number(),
  stockCode: z.string(),
  productName: z.string(),
  category: z.string(),
  enterpriseName: z.string(),
  status: z.string(),
  rejectReason: z.string().nullable(),
  hangState: z.number(),
  price: z.number(),
  quantity: z.number(),
  subscribedQuantity: z.number(),
  remainingQuantity: z.number(),
  minSubscribe: z.number(),
  maxSubscribe: z.number(),
  depositMode: z.string(),
  depositValue: z.number(),
  quality: z.record(z.string(), z.number().nullable().optional()),
  ...deliveryViewFields,
  listedDateStart: z.string(),
  listedDateEnd: z.string(),
  auditTime: z.string().nullable(),
  autoConfirm: z.boolean(),
  remark: z.string(),
  createdAt: z.string(),
});
export type ListingView = z.infer<typeof ListingViewSchema>;

export const SubscriptionViewSchema = z.object({
  id: z.number(),
  /** The deal a confirmed subscription became (for queryOppositeCompanyInfo). */
  dealId: z.number().nullable(),
  tradeId: z.string(),
  tradeType: z.number(),
  productName: z.string(),
  publisherName: z.string(),
  subscriberName: z.string(),
  quantity: z.number(),
  price: z.number(),
  amount: z.number(),
  deposit: z.number(),
  status: z.string(),
  declineReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionViewSchema>;

export const DealViewSchema = z.object({
  id: z.number(),
  dealNo: z.string(),
  tradeId: z.string(),
  tradeType: z.number(),
  stockCode: z.string(),
  productName: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  quantity: z.number(),
  price: z.number(),
  amount: z.number(),
  deposit: z.number(),
  createdAt: z.string(),
});
export type DealView = z.infer<typeof DealViewSchema>;

export const ListingResultSchema = z.object({
  listing: ListingViewSchema,
  dealQuantity: z.number(),
  dealAmount: z.number(),
  deals: z.object({ records: z.array(DealViewSchema), total: z.number(), current: z.number(), size: z.number() }),
});

export const OppositeCompanySchema = z.object({
  organName: z.string(),
  contactName: z.string(),
  contactMobile: z.string(),
  address: z.string(),
  role: z.string(),
});
export const DealIdSchema = z.strictObject({ id: z.number({ error: '缺少成交记录编号' }).int().positive() });
export const DealQuerySchema = z.object({ ...pageFields, tradeId: z.string().max(20).optional() });
export const ListingResultQuerySchema = z.object({ ...pageFields, tradeId: z.string({ error: '缺少交易编号' }).min(1).max(20) });
