import { z } from 'zod';
import { safeString } from '../text';

/**
 * 运营统计 and 交易日报 (issue 29 items 1 and 2): one set of figures, read by the statistics page, its Excel export and
 * the daily report, so the three never differ. Days are Asia/Shanghai; tonnage in kg, money in fen.
 */
export const STATISTICS_GRANULARITIES = { day: '按日', week: '按周', month: '按月' } as const;
export type StatisticsGranularity = keyof typeof STATISTICS_GRANULARITIES;

/** The three ways a deal is made: 挂牌, 竞价 and a long-term deal's monthly call-off (长协调运). */
export const DEAL_KINDS = { listing: '挂牌', auction: '竞价', long_term: '长协调运' } as const;

/** The longest range one query may cover (a year and a bit): the page's quick ranges stay well inside it. */
export const STATISTICS_MAX_DAYS = 400;

const day = (label: string) => safeString().regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`);

export const StatisticsQuerySchema = z
  .object({
    from: day('开始日期'),
    to: day('结束日期'),
    granularity: z.enum(['day', 'week', 'month'], { message: '统计粒度只能是按日、按周或按月' }).default('day'),
  })
  .superRefine((v, ctx) => {
    if (v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
    const days = (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (Number.isNaN(days)) ctx.addIssue({ code: 'custom', path: ['from'], message: '日期无效' });
    else if (days > STATISTICS_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `统计区间不能超过 ${STATISTICS_MAX_DAYS} 天` });
  });
export type StatisticsQuery = z.infer<typeof StatisticsQuerySchema>;

/** Deals of one group (a period, a kind, a product, a province, a price type). */
export const DealFiguresSchema = z.object({
  key: z.string(),
  label: z.string(),
  dealCount: z.number(),
  quantityKg: z.number(),
  amountFen: z.number(),
  /** amount ÷ tons, fen per ton (0 without tonnage) */
  avgPriceFen: z.number(),
});
export type DealFigures = z.infer<typeof DealFiguresSchema>;

export const StatisticsSummarySchema = z.object({
  dealCount: z.number(),
  quantityKg: z.number(),
  amountFen: z.number(),
  avgPriceFen: z.number(),
  /** enterprises that were a party to a deal in the range */
  activeEnterprises: z.number(),
  /** auctions that ended in the range, and of them those without a deal (流拍) */
  auctionsHeld: z.number(),
  auctionsFailed: z.number(),
  /**
   * average of (成交价 − 起拍价) ÷ 起拍价 over the auctions that made a deal (a purchase auction: 起拍价 − 成交价, its
   * bids go down), in percent, two places; null without one
   */
  auctionPremiumPct: z.number().nullable(),
  /** average (成交价 − 起拍价) in fen per ton */
  auctionPremiumFen: z.number().nullable(),
  /** contracts both sides signed in the range, and of them those signed by their sign deadline */
  contractsSigned: z.number(),
  contractsSignedOnTime: z.number(),
  /** contracts whose sign deadline fell in the range without both signatures by then */
  contractsOverdue: z.number(),
  /** orders delivered (全部签收) in the range, and of them those delivered by the contract's delivery end date */
  ordersDelivered: z.number(),
  ordersDeliveredInWindow: z.number(),
  trucksSigned: z.number(),
  trucksSignedKg: z.number(),
  disputesOpened: z.number(),
  disputesRuled: z.number(),
  /** trade deposits (保证金) frozen and released in the range */
  depositsFrozenFen: z.number(),
  depositsReleasedFen: z.number(),
  /** 入金 confirmed and 出金 paid in the range */
  fundsInFen: z.number(),
  fundsOutFen: z.number(),
});
export type StatisticsSummary = z.infer<typeof StatisticsSummarySchema>;

export const DisputeFiguresSchema = z.object({ key: z.string(), label: z.string(), opened: z.number(), ruled: z.number() });

export const StatisticsAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(['day', 'week', 'month']),
  summary: StatisticsSummarySchema,
  /** one row per period of the range, empty periods included (a week is keyed by its Monday, a month by YYYY-MM) */
  trend: z.array(DealFiguresSchema),
  byKind: z.array(DealFiguresSchema),
  byProduct: z.array(DealFiguresSchema),
  byProvince: z.array(DealFiguresSchema),
  byPriceType: z.array(DealFiguresSchema),
  disputes: z.array(DisputeFiguresSchema),
});
export type StatisticsAnswer = z.infer<typeof StatisticsAnswerSchema>;

/** What a daily report printed: the day's statistics, the deals by kind and product, and the index if published. */
export const DailyReportFiguresSchema = StatisticsAnswerSchema.extend({
  byKindProduct: z.array(DealFiguresSchema.extend({ kind: z.string(), kindLabel: z.string(), productName: z.string() })),
  marketIndex: z.object({ term: z.string(), priceFen: z.number(), riseFen: z.number() }).nullable(),
});
export type DailyReportFigures = z.infer<typeof DailyReportFiguresSchema>;

export const DailyReportSchema = z.object({
  id: z.number(),
  reportDate: z.string(),
  madeAt: z.string(),
  /** 系统定时 or the operator's name */
  madeBy: z.string(),
  dealCount: z.number(),
  quantityKg: z.number(),
  amountFen: z.number(),
  pdfName: z.string(),
  xlsxName: z.string(),
});
export type DailyReport = z.infer<typeof DailyReportSchema>;

export const DailyReportListQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const DailyReportMakeSchema = z.object({ reportDate: day('日报日期') });
export type DailyReportMakeInput = z.infer<typeof DailyReportMakeSchema>;

/** The make's answer: the report, and whether it had been made before (the archive is the record: never re-made). */
export const DailyReportMadeSchema = z.object({ report: DailyReportSchema, alreadyMade: z.boolean() });
export type DailyReportMade = z.infer<typeof DailyReportMadeSchema>;
