import {
  amountFen,
  fenToYuanText,
  formatTons,
  HangState,
  kgToTonsText,
  subscriptionDeposit,
  tonsTextToKg,
  TradeType,
  yuanTextToFen,
  type ListingApply,
} from '@coalx/shared';
import { commonFormValues, deliveryApply, deliveryDateError, productApply, required, shanghaiIso, type CommonFormValues } from './trade-form';

/** The listing pages' rules, kept free of React so they are tested alone (money as integer fen, quantities as kg). */

/** Amount (price × quantity, half up to the fen) and deposit the subscriber will see before submitting. */
export function subscriptionPreview(listing: { price: number; depositMode: string; depositValue: number }, quantityKg: number | null) {
  if (quantityKg === null || quantityKg <= 0) return null;
  return { amount: Number(amountFen(listing.price, quantityKg)), deposit: subscriptionDeposit(listing.depositMode, listing.depositValue, quantityKg) };
}

/** The quantity a subscriber may take: [min, max] and not above the remainder; the last lot may be below the minimum. */
export function subscribeBounds(listing: { minSubscribe: number; maxSubscribe: number; remainingQuantity: number }) {
  const remaining = Math.max(0, listing.remainingQuantity);
  if (remaining < listing.minSubscribe) return { min: remaining, max: remaining, onlyRemainder: true };
  return { min: listing.minSubscribe, max: Math.min(listing.maxSubscribe, remaining), onlyRemainder: false };
}

/** The refusal the server would give for this quantity, said before sending (null: acceptable). */
export function subscribeQuantityError(
  listing: { minSubscribe: number; maxSubscribe: number; remainingQuantity: number },
  quantityKg: number | null,
): string | null {
  if (quantityKg === null) return '请输入摘牌数量（吨，最多 3 位小数）';
  if (quantityKg <= 0) return '摘牌数量须大于 0';
  const remaining = listing.remainingQuantity;
  if (remaining <= 0) return '该挂牌已全部摘完';
  if (quantityKg > remaining) return `摘牌数量超过剩余可摘量 ${formatTons(remaining)}`;
  if (quantityKg > listing.maxSubscribe) return `摘牌数量不能大于最大摘牌量 ${formatTons(listing.maxSubscribe)}`;
  if (quantityKg < listing.minSubscribe && quantityKg !== remaining) {
    return remaining < listing.minSubscribe
      ? `剩余可摘量不足最小摘牌量，须一次摘完剩余的 ${formatTons(remaining)}`
      : `摘牌数量不能小于最小摘牌量 ${formatTons(listing.minSubscribe)}`;
  }
  return null;
}

export type ListingButtonKey = 'subscribe' | 'details' | 'result';
export interface ListingButton {
  key: ListingButtonKey;
  label: string;
  disabled: boolean;
}

/**
 * Per-row buttons by state (spec §4, trade types 0/1): state 1 shows subscribe and view details with the result
 * notice disabled; state 2 shows the result notice with details disabled. State 0 is never listed publicly.
 */
export function listingButtons(hangState: number): ListingButton[] {
  if (hangState === HangState.open) {
    return [
      { key: 'subscribe', label: '摘牌', disabled: false },
      { key: 'details', label: '查看详情', disabled: false },
      { key: 'result', label: '结果公告', disabled: true },
    ];
  }
  if (hangState === HangState.ended) {
    return [
      { key: 'result', label: '结果公告', disabled: false },
      { key: 'details', label: '查看详情', disabled: true },
    ];
  }
  return [];
}

export function listingButtonPath(key: ListingButtonKey, tradeId: string): string {
  const id = encodeURIComponent(tradeId);
  if (key === 'subscribe') return `/hang/hangSale?tradeId=${id}`;
  if (key === 'result') return `/listingResult?tradeId=${id}`;
  return `/listingSalesDetails?tradeId=${id}`;
}

/** What the publishing form holds: numbers as typed text, dates as Shanghai wall-clock texts. */
export interface ListingFormValues extends CommonFormValues {
  tradeType: 0 | 1;
  quantityTons?: string;
  priceYuan?: string;
  minTons?: string;
  maxTons?: string;
  depositMode?: 'per_ton' | 'fixed';
  depositYuan?: string;
  /** 'YYYY-MM-DD HH:mm:ss' in Shanghai time. */
  listedDateStart?: string;
  listedDateEnd?: string;
  autoConfirm?: boolean;
}

/**
 * Cross-field rules, mirroring the server: min ≤ max ≤ quantity, the window in the future with start < end, delivery
 * not before the listing starts and not ending before it begins. Returns field → message.
 */
export function crossFieldErrors(v: ListingFormValues, now: number = Date.now()): Partial<Record<keyof ListingFormValues, string>> {
  const errors: Partial<Record<keyof ListingFormValues, string>> = {};
  const quantity = tonsTextToKg(v.quantityTons);
  const min = tonsTextToKg(v.minTons);
  const max = tonsTextToKg(v.maxTons);
  if (min !== null && max !== null && min > max) errors.minTons = '最小摘牌量不能大于最大摘牌量';
  if (max !== null && quantity !== null && max > quantity) errors.maxTons = '最大摘牌量不能大于挂牌数量';
  if (min !== null && quantity !== null && min > quantity && !errors.minTons) errors.minTons = '最小摘牌量不能大于挂牌数量';
  if (v.listedDateStart) {
    const start = Date.parse(shanghaiIso(v.listedDateStart));
    if (start <= now) errors.listedDateStart = '挂牌开始时间须晚于当前时间';
    if (v.listedDateEnd && Date.parse(shanghaiIso(v.listedDateEnd)) <= start) errors.listedDateEnd = '挂牌结束时间须晚于开始时间';
    if (v.deliveryDateStart && v.deliveryDateStart < v.listedDateStart.slice(0, 10)) {
      errors.deliveryDateStart = '交收开始日期不能早于挂牌开始日期';
    }
  }
  const deliveryEnd = deliveryDateError(v);
  if (deliveryEnd) errors.deliveryDateEnd = deliveryEnd;
  return errors;
}

/** The request body of addListedApply; throws the first message when a field cannot be converted. */
export function toListingApply(v: ListingFormValues, submit: boolean): ListingApply {
  return {
    ...(v.tradeId ? { tradeId: v.tradeId } : {}),
    tradeType: v.tradeType,
    ...productApply(v),
    quantity: required(tonsTextToKg(v.quantityTons), '请输入挂牌数量'),
    price: required(yuanTextToFen(v.priceYuan), '请输入价格'),
    minSubscribe: required(tonsTextToKg(v.minTons), '请输入最小摘牌量'),
    maxSubscribe: required(tonsTextToKg(v.maxTons), '请输入最大摘牌量'),
    depositMode: required(v.depositMode, '请选择保证金方式'),
    depositValue: required(yuanTextToFen(v.depositYuan), '请输入保证金'),
    ...deliveryApply(v),
    listedDateStart: shanghaiIso(required(v.listedDateStart, '请选择挂牌时间')),
    listedDateEnd: shanghaiIso(required(v.listedDateEnd, '请选择挂牌时间')),
    autoConfirm: Boolean(v.autoConfirm),
    remark: v.remark?.trim() ?? '',
    submit,
  };
}

/** The form's values for editing a saved draft or rejected listing. */
export function fromListing(l: Parameters<typeof commonFormValues>[0] & {
  tradeType: number;
  quantity: number;
  price: number;
  minSubscribe: number;
  maxSubscribe: number;
  depositMode: string;
  depositValue: number;
  listedDateStart: string;
  listedDateEnd: string;
  autoConfirm: boolean;
}): ListingFormValues {
  return {
    ...commonFormValues(l),
    tradeType: l.tradeType === TradeType.listingPurchase ? TradeType.listingPurchase : TradeType.listingSale,
    quantityTons: kgToTonsText(l.quantity),
    priceYuan: fenToYuanText(l.price),
    minTons: kgToTonsText(l.minSubscribe),
    maxTons: kgToTonsText(l.maxSubscribe),
    depositMode: l.depositMode as ListingFormValues['depositMode'],
    depositYuan: fenToYuanText(l.depositValue),
    listedDateStart: l.listedDateStart,
    listedDateEnd: l.listedDateEnd,
    autoConfirm: l.autoConfirm,
  };
}

/** Label of the trade's direction for page titles and tags. */
export const TRADE_TYPE_TEXT: Record<number, string> = { [TradeType.listingSale]: '挂牌销售', [TradeType.listingPurchase]: '挂牌采购' };
