import { z } from 'zod';
import { safeString } from '../text';
import { deliveryFields, deliveryViewFields, instantField, pageFields, textField } from '../trade/fields';
import { EnrolmentStates } from './states';
import { PaymentAuthSchema, RequestIdSchema } from '../funds/schemas';
import { MAX_PRICE_FEN, MAX_QUANTITY_KG, QualitySchema } from '../listing/schemas';

/** Auction (竞价) vocabulary of DESIGN.md §6: type 2 sale (price goes up), 3 purchase (price goes down). */
export const AUCTION_RESULT = { deal: '成交', failed: '流拍' } as const;
export const ENROLMENT_STATUS = EnrolmentStates.states;
export const DEFAULT_EXTENSION_SECONDS = 120;
export const COUNTDOWN_TICK_MS = 1000;

/** Public alias of an enrolled enterprise in bid histories. */
export const bidderAlias = (bidderNo: number) => `竞买人${bidderNo}`;

const fen = (label: string) =>
  z.number({ error: `请输入${label}` }).int(`${label}最多两位小数`).min(0, `${label}不能为负`).max(MAX_PRICE_FEN, `${label}过大`);
const instant = instantField;
const text = textField;

export const AuctionApplySchema = z
  .strictObject({
    tradeId: safeString().max(20).optional(),
    tradeType: z.union([z.literal(2), z.literal(3)], { error: '交易类型须为 2 (竞价销售) 或 3 (竞价采购)' }),
    stockCode: text('产品', 32),
    quality: QualitySchema.default({}),
    quantity: z.number({ error: '请输入数量' }).int('数量最多精确到千克').positive('数量须大于 0').max(MAX_QUANTITY_KG, '数量过大'),
    startPrice: fen('起拍价').positive('起拍价须大于 0'),
    minStep: fen('最小加价幅度').positive('最小加价幅度须大于 0'),
    /** null: unlimited. */
    maxStep: fen('最大加价幅度').positive('最大加价幅度须大于 0').nullable().default(null),
    /** Sale: price cap; purchase: price floor; null: none. */
    limitPrice: fen('限价').positive('限价须大于 0').nullable().default(null),
    deposit: z.number({ error: '请输入保证金' }).int('保证金最多两位小数').min(0, '保证金不能为负').max(10_000_000_000_000, '保证金过大'),
    enrolDeadline: instant('报名截止时间'),
    bidStart: instant('竞价开始时间'),
    bidEnd: instant('竞价结束时间'),
    extensionSeconds: z.number({ error: '请输入延时周期' }).int().min(30, '延时周期不少于 30 秒').max(1800, '延时周期不超过 30 分钟').default(DEFAULT_EXTENSION_SECONDS),
    ...deliveryFields,
    remark: safeString().trim().max(500, '备注不超过 500 字').default(''),
    submit: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.maxStep !== null && v.maxStep < v.minStep) ctx.addIssue({ code: 'custom', path: ['maxStep'], message: '最大加价幅度不能小于最小加价幅度' });
    if (v.limitPrice !== null && v.tradeType === 2 && v.limitPrice < v.startPrice) ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: '出价上限不能低于起拍价' });
    if (v.limitPrice !== null && v.tradeType === 3 && v.limitPrice > v.startPrice) ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: '出价下限不能高于基价' });
    if (Date.parse(v.enrolDeadline) > Date.parse(v.bidStart)) ctx.addIssue({ code: 'custom', path: ['enrolDeadline'], message: '报名截止时间不能晚于竞价开始时间' });
    if (Date.parse(v.bidStart) >= Date.parse(v.bidEnd)) ctx.addIssue({ code: 'custom', path: ['bidEnd'], message: '竞价结束时间须晚于开始时间' });
    if (v.deliveryDateStart > v.deliveryDateEnd) ctx.addIssue({ code: 'custom', path: ['deliveryDateEnd'], message: '交收结束日期不能早于开始日期' });
  });
export type AuctionApply = z.infer<typeof AuctionApplySchema>;

export const EnrolSchema = z.strictObject({
  tradeId: safeString({ error: '缺少交易编号' }).min(1).max(20),
  acceptRules: z.literal(true, { error: '请阅读并同意竞价规则' }),
  requestId: RequestIdSchema,
  ...PaymentAuthSchema,
});

export const BidSchema = z.strictObject({
  tradeId: safeString({ error: '缺少交易编号' }).min(1).max(20),
  price: z.number({ error: '请输入出价' }).int('出价最多两位小数').positive('出价须大于 0').max(MAX_PRICE_FEN, '出价过高'),
});


export const BidTradeListSchema = z.object({
  ...pageFields,
  tradeType: z.coerce.number().int().min(2).max(3).optional(),
  /** spec §7: the enterprise clientId, to list one enterprise's auctions. */
  enterpriseId: safeString().max(20).optional(),
  tradeId: safeString().max(20).optional(),
  productName: safeString().max(40).optional(),
  hangState: z.coerce.number().int().min(0).max(3).optional(),
});
export const MyAuctionQuerySchema = z.object({
  ...pageFields,
  tradeType: z.number().int().min(2).max(3).optional(),
  tradeId: safeString().max(20).optional(),
  status: z.enum(['draft', 'submitted', 'approved', 'rejected']).optional(),
  hangState: z.number().int().min(0).max(3).optional(),
  /** '1': approved auctions whose bidding starts today (Asia/Shanghai), not yet decided */
  startsToday: z.enum(['1'], { error: '今日开始筛选只能是 1' }).optional(),
});
export const AuctionAuditQuerySchema = z.object({ ...pageFields, status: z.enum(['submitted', 'approved', 'rejected']).optional() });
export const AuctionTradeIdSchema = z.strictObject({ tradeId: safeString({ error: '缺少交易编号' }).min(1).max(20) });
export const AuctionPageQuerySchema = z.object({
  ...pageFields,
  tradeId: safeString().max(20).optional(),
  /** '1': enrolments (still enrolled) in auctions whose bidding starts today (Asia/Shanghai), not yet decided */
  startsToday: z.enum(['1'], { error: '今日开始筛选只能是 1' }).optional(),
});
export const BidHistoryQuerySchema = z.object({ ...pageFields, tradeId: safeString({ error: '缺少交易编号' }).min(1).max(20) });

export const AuctionViewSchema = z.object({
  tradeId: safeString(),
  tradeType: z.number(),
  stockCode: safeString(),
  productName: safeString(),
  category: safeString(),
  enterpriseName: safeString(),
  status: safeString(),
  rejectReason: safeString().nullable(),
  hangState: z.number(),
  result: safeString().nullable(),
  startPrice: z.number(),
  price: z.number().describe('current best price, or the start price before any bid'),
  bestPrice: z.number().nullable(),
  minStep: z.number(),
  maxStep: z.number().nullable(),
  limitPrice: z.number().nullable(),
  deposit: z.number(),
  quantity: z.number(),
  quality: z.record(safeString(), z.number().nullable().optional()),
  enrolDeadline: safeString(),
  bidDateStart: safeString(),
  bidDateEnd: safeString(),
  currentEnd: safeString(),
  extensionSeconds: z.number(),
  bidCount: z.number(),
  enrolCount: z.number(),
  ...deliveryViewFields,
  auditTime: safeString().nullable(),
  remark: safeString(),
  createdAt: safeString(),
});
export type AuctionView = z.infer<typeof AuctionViewSchema>;

export const BidViewSchema = z.object({
  seq: z.number(),
  bidder: safeString(),
  price: z.number(),
  inExtension: z.boolean(),
  time: safeString(),
  /** Epoch ms, for ordering and countdown arithmetic. */
  at: z.number(),
});
export type BidView = z.infer<typeof BidViewSchema>;

/** Everything a bidding screen needs, sent on connect, with each event, and by plain GET after a reconnect. */
export const AuctionSnapshotSchema = z.object({
  tradeId: safeString(),
  tradeType: z.number(),
  hangState: z.number(),
  result: safeString().nullable(),
  startPrice: z.number(),
  bestPrice: z.number().nullable(),
  minStep: z.number(),
  maxStep: z.number().nullable(),
  limitPrice: z.number().nullable(),
  bidStart: z.number(),
  bidEnd: z.number(),
  currentEnd: z.number(),
  inExtension: z.boolean(),
  extensionSeconds: z.number(),
  bidCount: z.number(),
  enrolCount: z.number(),
  /** Best price of each bidder, best first (price, then time). */
  ranking: z.array(z.object({ bidder: safeString(), price: z.number(), at: z.number() })),
  bids: z.array(BidViewSchema).describe('latest accepted bids, newest first'),
  serverTime: z.number(),
  /** The trading centre's reason while paused (暂停) or once cancelled (已撤销), else null. */
  operatorReason: safeString().nullable().optional(),
  /** While paused: the bidding time left, frozen until resumed (milliseconds). */
  pausedRemainingMs: z.number().nullable().optional(),
  /** The viewer's alias when its enterprise is enrolled, else null. */
  me: z.object({ bidder: safeString(), enrolled: z.boolean() }).nullable(),
});
export type AuctionSnapshot = z.infer<typeof AuctionSnapshotSchema>;

export const AuctionResultSchema = z.object({
  auction: AuctionViewSchema,
  dealPrice: z.number().nullable(),
  winner: safeString().nullable(),
  bidCount: z.number(),
  bidderCount: z.number(),
  amount: z.number().nullable(),
});

export const EnrolmentViewSchema = z.object({
  id: z.number(),
  tradeId: safeString(),
  tradeType: z.number(),
  productName: safeString(),
  hangState: z.number(),
  bidder: safeString(),
  deposit: z.number(),
  status: safeString(),
  createdAt: safeString(),
});

/** A snapshot as broadcast to every watcher of an auction: the same bytes for all, so without the viewer's `me`. */
export type AuctionBroadcastSnapshot = Omit<AuctionSnapshot, 'me'>;

/**
 * WebSocket messages (server → client). The personalised snapshot (with `me`) comes once on connect; events carry
 * the shared snapshot, and `me` comes by itself when it changes (the viewer's enterprise enrolled meanwhile, or the
 * socket signed in after its snapshot). `auth` answers the sign-in message: `ok: false` leaves a visitor's socket.
 */
export type AuctionEvent =
  | { type: 'auth'; ok: boolean }
  | { type: 'snapshot'; snapshot: AuctionSnapshot }
  | { type: 'bid'; snapshot: AuctionBroadcastSnapshot }
  | { type: 'state'; snapshot: AuctionBroadcastSnapshot }
  | { type: 'ended'; snapshot: AuctionBroadcastSnapshot }
  | { type: 'me'; me: AuctionSnapshot['me'] }
  | { type: 'error'; message: string };

/**
 * WebSocket messages (client → server): only the first counts. A signed-in viewer sends its token this way, never
 * in the address; a socket that sends nothing watches as a visitor.
 */
export type AuctionClientMessage = { type: 'auth'; token: string };
