import {
  AUCTION_RESULT,
  AUCTION_STATE_LABELS,
  PRICE_LABEL,
  formatDateTime,
  AuctionState,
  AuctionStates,
  fenToYuanText,
  kgToTonsText,
  tonsTextToKg,
  TradeType,
  yuanTextToFen,
  type AuctionApply,
} from '@coalx/shared';
import { commonFormValues, deliveryApply, deliveryDateError, productApply, required, shanghaiIso, type CommonFormValues } from './trade-form';

/** The auction pages' rules, free of React so they are tested alone (money as integer fen, quantities as kg). */

/** 成交 / 流拍 of the server's result code ('deal' / 'failed'); null while not ended. */
export function resultText(result: string | null | undefined): string | null {
  if (!result) return null;
  return AUCTION_RESULT[result as keyof typeof AUCTION_RESULT] ?? result;
}

export const AUCTION_TYPE_TEXT: Record<number, string> = { [TradeType.auctionSale]: '竞价销售', [TradeType.auctionPurchase]: '竞价采购' };

/** Auction states of dictionary bid_hang_state_hp, with the colour of their tag. */
export const AUCTION_STATE_COLOR: Record<number, string> = {
  [AuctionState.enrolling]: 'blue',
  [AuctionState.waiting]: 'gold',
  [AuctionState.bidding]: 'red',
  [AuctionState.ended]: 'default',
  [AuctionState.paused]: 'orange',
  [AuctionState.cancelled]: 'default',
};
export const AUCTION_STATE_ENUM = Object.fromEntries(Object.entries(AUCTION_STATE_LABELS).map(([code, text]) => [code, { text }]));
/** Labels of the publishing workflow's states (AuctionStates in packages/shared). */
export const AUCTION_STATUS: Record<string, string> = AuctionStates.states;

export type AuctionButtonKey = 'signUp' | 'view' | 'join' | 'result' | 'details';
export interface AuctionButton {
  key: AuctionButtonKey;
  label: string;
  disabled: boolean;
  /** Highlighted (primary colour) or plain. */
  highlight: boolean;
}

/**
 * The auction table's button by state (spec §4, dictionary bid_hang_state_hp): 0 报名 (sign up), 1 查看竞价 (view
 * auction), 2 参与竞价 (join auction), 3 结果公告 (result notice); plain colour for 3, highlighted otherwise.
 */
export function auctionTableButton(hangState: number): AuctionButton | null {
  if (hangState === AuctionState.enrolling) return { key: 'signUp', label: '报名', disabled: false, highlight: true };
  if (hangState === AuctionState.waiting) return { key: 'view', label: '查看竞价', disabled: false, highlight: true };
  if (hangState === AuctionState.bidding) return { key: 'join', label: '参与竞价', disabled: false, highlight: true };
  if (hangState === AuctionState.ended) return { key: 'result', label: '结果公告', disabled: false, highlight: false };
  // held by the trading centre: the room shows why and the time left
  if (hangState === AuctionState.paused) return { key: 'join', label: '查看竞价', disabled: false, highlight: false };
  if (hangState === AuctionState.cancelled) return { key: 'details', label: '查看详情', disabled: false, highlight: false };
  return null;
}

/**
 * Recommended-list style rows (spec §4, types 2/3): state 0 shows join auction and view details with the result
 * notice disabled; state 3 shows the result notice with details disabled. States 1 and 2 show the table's button
 * and details (the spec does not say; the auction is open to watch).
 */
export function auctionRowButtons(hangState: number): AuctionButton[] {
  if (hangState === AuctionState.enrolling) {
    return [
      { key: 'signUp', label: '参与竞价', disabled: false, highlight: true },
      { key: 'details', label: '查看详情', disabled: false, highlight: false },
      { key: 'result', label: '结果公告', disabled: true, highlight: false },
    ];
  }
  if (hangState === AuctionState.ended) {
    return [
      { key: 'result', label: '结果公告', disabled: false, highlight: false },
      { key: 'details', label: '查看详情', disabled: true, highlight: false },
    ];
  }
  const main = auctionTableButton(hangState);
  return main ? [main, { key: 'details', label: '查看详情', disabled: false, highlight: false }] : [];
}

export function auctionButtonPath(key: AuctionButtonKey, tradeId: string): string {
  const id = encodeURIComponent(tradeId);
  if (key === 'signUp') return `/deal/biddRegistration?tradeId=${id}`;
  if (key === 'view') return `/waitingAuction?tradeId=${id}`;
  if (key === 'join') return `/deal/bidding?tradeId=${id}`;
  if (key === 'result') return `/biddingResults?tradeId=${id}`;
  return `/biddingDetails?tradeId=${id}`;
}

/** Words of a direction: a sale goes up (加价), a purchase down (降价). */
export function stepWords(tradeType: number) {
  return tradeType === TradeType.auctionPurchase
    ? { step: '降价幅度', minStep: '每次最小降价幅度', maxStep: '每次最大降价幅度', limit: '出价下限', bidder: '竞卖人' }
    : { step: '加价幅度', minStep: '每次最小加价幅度', maxStep: '每次最大加价幅度', limit: '出价上限', bidder: '竞买人' };
}

export const DEFAULTS = { minStepYuan: '1', maxStepYuan: '10', depositYuan: '200000', extensionSeconds: 120 } as const;

/** What the publishing form holds: amounts as typed text (yuan / tons), times as Shanghai wall-clock texts. */
export interface AuctionFormValues extends CommonFormValues {
  tradeType: 2 | 3;
  quantityTons?: string;
  startPriceYuan?: string;
  minStepYuan?: string;
  maxStepYuan?: string;
  /** 不限: no max step. */
  maxStepUnlimited?: boolean;
  /** Optional cap (sale) or floor (purchase). */
  limitYuan?: string;
  depositYuan?: string;
  /** 'YYYY-MM-DD HH:mm:ss' in Shanghai time. */
  enrolDeadline?: string;
  bidStart?: string;
  bidEnd?: string;
  extensionSeconds?: number;
}

/** Cross-field rules mirroring the server's (AuctionApplySchema) plus "in the future". Field → message. */
export function auctionCrossErrors(v: AuctionFormValues, now: number = Date.now()): Partial<Record<keyof AuctionFormValues, string>> {
  const errors: Partial<Record<keyof AuctionFormValues, string>> = {};
  const words = stepWords(v.tradeType);
  const start = yuanTextToFen(v.startPriceYuan);
  const min = yuanTextToFen(v.minStepYuan);
  const max = v.maxStepUnlimited ? null : yuanTextToFen(v.maxStepYuan);
  const limit = v.limitYuan ? yuanTextToFen(v.limitYuan) : null;
  if (min !== null && max !== null && max < min) errors.maxStepYuan = `${words.maxStep.replace('每次', '')}不能小于${words.minStep.replace('每次', '')}`;
  if (start !== null && limit !== null) {
    if (v.tradeType === TradeType.auctionSale && limit < start) errors.limitYuan = '出价上限不能低于起拍价';
    if (v.tradeType === TradeType.auctionPurchase && limit > start) errors.limitYuan = '出价下限不能高于基价';
  }
  const at = (wall?: string) => (wall ? Date.parse(shanghaiIso(wall)) : null);
  const deadline = at(v.enrolDeadline);
  const bidStart = at(v.bidStart);
  const bidEnd = at(v.bidEnd);
  if (deadline !== null && deadline <= now) errors.enrolDeadline = '报名截止时间须晚于当前时间';
  if (deadline !== null && bidStart !== null && deadline > bidStart) errors.enrolDeadline = '报名截止时间不能晚于竞价开始时间';
  if (bidStart !== null && bidEnd !== null && bidEnd <= bidStart) errors.bidEnd = '竞价结束时间须晚于开始时间';
  const deliveryEnd = deliveryDateError(v);
  if (deliveryEnd) errors.deliveryDateEnd = deliveryEnd;
  return errors;
}

/** The request body of bidApply; throws the first message when a field cannot be converted. */
export function toAuctionApply(v: AuctionFormValues, submit: boolean): AuctionApply {
  const words = stepWords(v.tradeType);
  return {
    ...(v.tradeId ? { tradeId: v.tradeId } : {}),
    tradeType: v.tradeType,
    ...productApply(v),
    quantity: required(tonsTextToKg(v.quantityTons), '请输入竞价数量'),
    startPrice: required(yuanTextToFen(v.startPriceYuan), v.tradeType === TradeType.auctionPurchase ? '请输入基价' : '请输入起拍价'),
    minStep: required(yuanTextToFen(v.minStepYuan), `请输入${words.minStep}`),
    maxStep: v.maxStepUnlimited ? null : required(yuanTextToFen(v.maxStepYuan), `请输入${words.maxStep}`),
    limitPrice: v.limitYuan ? required(yuanTextToFen(v.limitYuan), `请输入正确的${words.limit}`) : null,
    deposit: required(yuanTextToFen(v.depositYuan), '请输入保证金'),
    enrolDeadline: shanghaiIso(required(v.enrolDeadline, '请选择报名截止时间')),
    bidStart: shanghaiIso(required(v.bidStart, '请选择竞价时间')),
    bidEnd: shanghaiIso(required(v.bidEnd, '请选择竞价时间')),
    extensionSeconds: v.extensionSeconds ?? DEFAULTS.extensionSeconds,
    ...deliveryApply(v),
    remark: v.remark?.trim() ?? '',
    submit,
  };
}

/** The form's values for editing a saved draft or rejected auction (times are Shanghai texts already). */
export function fromAuction(a: Parameters<typeof commonFormValues>[0] & {
  tradeType: number;
  quantity: number;
  startPrice: number;
  minStep: number;
  maxStep: number | null;
  limitPrice: number | null;
  deposit: number;
  enrolDeadline: string;
  bidDateStart: string;
  bidDateEnd: string;
  extensionSeconds: number;
}): AuctionFormValues {
  return {
    ...commonFormValues(a),
    tradeType: a.tradeType === TradeType.auctionPurchase ? TradeType.auctionPurchase : TradeType.auctionSale,
    quantityTons: kgToTonsText(a.quantity),
    startPriceYuan: fenToYuanText(a.startPrice),
    minStepYuan: fenToYuanText(a.minStep),
    maxStepYuan: a.maxStep === null ? '' : fenToYuanText(a.maxStep),
    maxStepUnlimited: a.maxStep === null,
    limitYuan: a.limitPrice === null ? '' : fenToYuanText(a.limitPrice),
    depositYuan: fenToYuanText(a.deposit),
    enrolDeadline: a.enrolDeadline,
    bidStart: a.bidDateStart,
    bidEnd: a.bidDateEnd,
    extensionSeconds: a.extensionSeconds,
  };
}

/** '2 分钟' / '90 秒' of an extension period. */
export function secondsText(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} 分钟` : `${seconds} 秒`;
}

/**
 * The one truth about an auction's time (DESIGN.md §3: the server decides): the regular window as published, and the
 * deadline in force, which bids move past the regular end (延时竞价). Both come from the same snapshot the countdown
 * runs to, so the rules box and the countdown can never disagree. Times are Shanghai wall-clock text.
 */
export function auctionTimes(s: { bidStart: number; bidEnd: number; currentEnd: number; hangState: number }) {
  const start = formatDateTime(s.bidStart);
  const end = formatDateTime(s.bidEnd);
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return {
    regular: `${start.slice(5, 16)} – ${sameDay ? end.slice(11, 16) : end.slice(5, 16)}`,
    start: start.slice(sameDay ? 11 : 5),
    deadline: formatDateTime(s.currentEnd).slice(sameDay ? 11 : 5),
    extended: s.currentEnd > s.bidEnd,
    deadlineLabel: s.hangState === AuctionState.ended ? '结束时间' : '当前截止时间',
  };
}

/** The headline price's label: 成交价 once a deal is made, the best bid while live, the start price before any bid. */
export function headlinePriceLabel(a: { tradeType: number; hangState: number; result: string | null; bestPrice: number | null }): string {
  if (a.bestPrice === null) return PRICE_LABEL[a.tradeType] ?? '起拍价';
  if (a.hangState === AuctionState.ended) return a.result === 'deal' ? '成交价' : '最终出价';
  return a.tradeType === TradeType.auctionPurchase ? '当前最低价' : '当前最高价';
}
