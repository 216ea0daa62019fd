import { z } from 'zod';
import { safeString } from '../text';

/** Announcement types (spec §3): 0 weekly report, 1 market observation, a–d fixed rule documents. */
export const CONTENT_TYPES = {
  '0': '周报',
  '1': '市场观察',
  a: '煤炭现货交易规则',
  b: '交易商管理办法',
  c: '保证金管理办法',
  d: '交易中心章程',
} as const;
export type ContentType = keyof typeof CONTENT_TYPES;
/** The three rule links of the home page (spec §2). */
export const RULE_DOCUMENT_TYPES: ContentType[] = ['a', 'b', 'c'];
export const NEWS_PAGE_SIZE = 10;
/** 'view more' appears when an announcement total exceeds this (spec §9). */
export const VIEW_MORE_THRESHOLD = 10;
export const BANNER_INTERVAL_MS = 4000;
export const BANNER_INITIAL_DELAY_MS = 1000;
export const HOME_RECOMMEND_PAGE_SIZE = 4;

export const MarketIndexSchema = z.object({
  currentYear: z.number(),
  currentTerm: z.number(),
  totalTerm: z.number(),
  quoteDate: safeString(),
  /** fen per ton */
  price: z.number(),
  /** change from the previous term, fen per ton */
  rise: z.number(),
  dealCount: z.number(),
  dealTonnage: z.number().describe('kg'),
});
export type MarketIndex = z.infer<typeof MarketIndexSchema>;

export const MarketIndexProposalSchema = z.object({
  currentYear: z.number(),
  currentTerm: z.number(),
  from: safeString(),
  to: safeString(),
  /** tonnage-weighted average deal price of 5500 kcal thermal coal in the term, fen per ton; null without deals */
  price: z.number().nullable(),
  dealCount: z.number(),
  dealTonnage: z.number(),
  previousPrice: z.number().nullable(),
});

/** One deal of a published term's sample (指数样本), masked for the public: no enterprise names. */
export const IndexSampleSchema = z.object({
  /** partly hidden deal number */
  dealNo: safeString(),
  /** 挂牌 | 竞价 */
  tradeKind: safeString(),
  /** YYYY-MM-DD, Asia/Shanghai */
  dealDate: safeString(),
  /** fen per ton */
  price: z.number(),
  /** kg */
  quantity: z.number(),
  included: z.boolean(),
  exclusionReason: safeString().nullable(),
});
export type IndexSample = z.infer<typeof IndexSampleSchema>;

/** A published term with the deals it rests on and those left out (the index method page). */
export const IndexTermSamplesSchema = MarketIndexSchema.extend({
  weekFrom: safeString(),
  weekTo: safeString(),
  /** tonnage-weighted average of the included samples, fen per ton; null when the term has none */
  samplePrice: z.number().nullable(),
  samples: z.array(IndexSampleSchema),
});
export type IndexTermSamples = z.infer<typeof IndexTermSamplesSchema>;

export const MarketIndexTermQuerySchema = z.object({
  year: z.coerce.number({ error: '年份不正确' }).int('年份不正确').min(2000, '年份不正确').max(2100, '年份不正确'),
  term: z.coerce.number({ error: '期数为 1-53' }).int('期数为 1-53').min(1, '期数为 1-53').max(53, '期数为 1-53'),
});

export const MarketIndexPublishSchema = z.strictObject({
  currentYear: z.number().int().min(2000, '年份不正确').max(2100, '年份不正确'),
  currentTerm: z.number().int().min(1, '期数为 1-53').max(53, '期数为 1-53'),
  quoteDate: safeString().regex(/^\d{4}-\d{2}-\d{2}$/, '报价日期格式应为 YYYY-MM-DD'),
  price: z.number({ error: '请输入指数价格' }).int('价格最多两位小数').positive('价格须大于 0').max(10_000_000, '价格过高'),
});

export const BannerSchema = z.object({ id: z.number(), title: safeString(), listImage: safeString(), detailPageURL: safeString() });
export const BannerManageSchema = BannerSchema.extend({ imageUrl: safeString(), sort: z.number(), enabled: z.boolean() });
export const BannerSaveSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  title: safeString().trim().min(1, '请输入标题').max(40, '标题不超过 40 字'),
  imageUrl: safeString().min(1, '请上传图片').max(200),
  detailPageUrl: z
    .string()
    .trim()
    .max(300, '链接过长')
    .refine((v) => v === '' || v.startsWith('/') || /^https?:\/\//.test(v), '链接须以 / 或 http(s):// 开头')
    .default(''),
  sort: z.number().int().min(0).max(999).default(0),
  enabled: z.boolean().default(true),
});

export const ContentListQuerySchema = z.object({
  type: z.enum(['0', '1', 'a', 'b', 'c', 'd'], { error: '公告类型不正确' }),
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  /** capped at 50 whatever is asked */
  pageSize: z.coerce.number().int().min(1).transform((n) => Math.min(n, 50)).default(10),
  /** part of the title, for the announcement lists' search */
  title: safeString().trim().max(40, '搜索词不超过 40 字').optional(),
  _t: safeString().max(20).optional(),
});

export const ContentRecordSchema = z.object({
  id: z.number(),
  type: safeString(),
  title: safeString(),
  effectiveTime: safeString(),
  expirationTime: safeString().nullable(),
  enclosure: safeString().nullable(),
  publishedAt: safeString().nullable(),
});
export const ContentDetailSchema = ContentRecordSchema.extend({ body: safeString().describe('sanitised HTML') });
export const ContentManageSchema = ContentDetailSchema.extend({ status: safeString() });

export const ContentSaveSchema = z
  .strictObject({
    id: z.number().int().positive().optional(),
    type: z.enum(['0', '1', 'a', 'b', 'c', 'd'], { error: '请选择公告类型' }),
    title: safeString().trim().min(1, '请输入标题').max(100, '标题不超过 100 字'),
    body: safeString().max(200_000, '正文过长').default(''),
    enclosure: safeString().max(200).nullable().default(null),
    effectiveTime: z.iso.datetime({ offset: true, error: '生效时间格式不正确' }),
    expirationTime: z.iso.datetime({ offset: true, error: '失效时间格式不正确' }).nullable().default(null),
  })
  .refine((v) => !v.expirationTime || Date.parse(v.expirationTime) > Date.parse(v.effectiveTime), { message: '失效时间须晚于生效时间', path: ['expirationTime'] });

export const ContentIdSchema = z.strictObject({ id: z.number({ error: '缺少公告编号' }).int().positive() });

/** Recommended trades (spec §7): tradeType is a comma list; hangState uses hang_state_total_select (0 报名中, 1 进行中, 2 已结束). */
export const RecommendQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).transform((n) => Math.min(n, 50)).default(4),
  tradeId: safeString().max(20).optional(),
  /** Trades whose start day is within this many days of today (0: today). */
  preDayNum: z.coerce.number().int().min(0).max(365).optional(),
  tradeType: safeString().regex(/^[0-3](,[0-3])*$/, '交易类型格式不正确').optional(),
  hangState: z.union([z.coerce.number().int().min(0).max(2), safeString().regex(/^[0-2](,[0-2])*$/)]).optional(),
  productName: safeString().max(40).optional(),
  stockCode: safeString().max(32).optional(),
  category: safeString().max(20).optional(),
});

/** Quick filters of the recommended list (spec §2). */
export const RECOMMEND_QUICK_FILTERS = [
  { key: 'all', label: '综合', params: {} },
  { key: 'todayListing', label: '今日挂牌', params: { preDayNum: 0, tradeType: '0,1' } },
  { key: 'todayAuction', label: '今日竞价', params: { preDayNum: 0, tradeType: '2,3' } },
  { key: 'fiveDays', label: '5日内', params: { preDayNum: 5 } },
  { key: 'ended', label: '已结束', params: { hangState: 2 } },
] as const;

export const RecommendRecordSchema = z.object({
  tradeId: safeString(),
  tradeType: z.number(),
  stockCode: safeString(),
  productName: safeString(),
  category: safeString(),
  enterpriseName: safeString(),
  /** raw state of its kind: listing 0–2 (hang_state_total_trans), auction 0–3 (bid_hang_state_hp) */
  hangState: z.number(),
  price: z.number(),
  startPrice: z.number().nullable(),
  /** Auctions: the best accepted bid, null before any bid (and for listings). */
  bestPrice: z.number().nullable(),
  quantity: z.number(),
  listedDateStart: safeString().nullable(),
  listedDateEnd: safeString().nullable(),
  bidDateStart: safeString().nullable(),
  bidDateEnd: safeString().nullable(),
  auditTime: safeString().nullable(),
  deliveryProvince: safeString(),
  deliveryCity: safeString(),
  deliveryDistrict: safeString(),
  deliveryPlace: safeString(),
  deliveryDateStart: safeString(),
  deliveryDateEnd: safeString(),
});
export type RecommendRecord = z.infer<typeof RecommendRecordSchema>;

export const RecommendMarkSchema = z.strictObject({ tradeId: safeString().min(1).max(20), recommended: z.boolean() });

export const TradeSummarySchema = z.object({
  dealNo: safeString(),
  tradeId: safeString(),
  tradeType: z.number(),
  productName: safeString(),
  buyerName: safeString(),
  sellerName: safeString(),
  quantity: z.number(),
  price: z.number(),
  amount: z.number(),
  createdAt: safeString(),
});

/** 行情: which product, optionally which delivery province, over how many days up to today (Asia/Shanghai). */
export const MarketDataQuerySchema = z.object({
  stockCode: safeString().trim().max(30, '产品编码过长').optional(),
  province: safeString().trim().max(20, '省份名称过长').optional(),
  days: z.coerce.number({ error: '天数须为 1-366 的整数' }).int('天数须为 1-366 的整数').min(1, '天数须为 1-366 的整数').max(366, '天数须为 1-366 的整数').default(90),
});
export type MarketDataQuery = z.infer<typeof MarketDataQuerySchema>;

/** One trading day of one product (a candle): from the day's recorded deals only. */
export const MarketDaySchema = z.object({
  /** YYYY-MM-DD, Asia/Shanghai */
  date: safeString(),
  /** fen per ton: the first and last deal of the day, the highest and lowest deal price */
  open: z.number(),
  close: z.number(),
  high: z.number(),
  low: z.number(),
  /** 成交均价: Σ amount / Σ tonnage, fen per ton, half up */
  average: z.number(),
  /** kg */
  tonnage: z.number(),
  /** fen */
  amount: z.number(),
  dealCount: z.number(),
});
export type MarketDay = z.infer<typeof MarketDaySchema>;

export const MarketDataSchema = z.object({
  /** products with recorded deals, most traded first */
  products: z.array(z.object({ stockCode: safeString(), productName: safeString() })),
  /** the chosen product ('' when there are no deals at all) */
  stockCode: safeString(),
  productName: safeString(),
  /** delivery provinces the product was dealt in */
  provinces: z.array(safeString()),
  province: safeString().nullable(),
  from: safeString(),
  to: safeString(),
  days: z.array(MarketDaySchema),
});
export type MarketData = z.infer<typeof MarketDataSchema>;
