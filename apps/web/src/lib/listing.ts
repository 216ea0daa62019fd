import { amountFen, formatTons, tonsToKg, yuanToFen, type ListingApply } from '@coalx/shared';

/**
 * The listing pages' rules, kept free of React so they are tested alone. What the trader types stays text until it
 * is turned into integer kg / fen by the shared converters: no float multiplication ever touches money.
 */

/** Tons typed by the trader (up to 3 decimals) → integer kg; null when it is not such a number. */
export function tonsTextToKg(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const kg = tonsToKg(String(text));
  return kg === null ? null : Number(kg);
}

/** Yuan typed by the trader (≥ 0, up to 2 decimals) → integer fen; null when it is not such a number. */
export function yuanTextToFen(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const fen = yuanToFen(String(text));
  if (fen === null || fen < 0n) return null;
  return Number(fen);
}

/** Integer kg → plain tons text for an input ('5000', '1.5'), the inverse of tonsTextToKg. */
export function kgToTonsText(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = String(kg % 1000).padStart(3, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

/** Integer fen → plain yuan text for an input ('780', '780.5'), the inverse of yuanTextToFen. */
export function fenToYuanText(fen: number): string {
  const whole = Math.trunc(fen / 100);
  const rest = String(fen % 100).padStart(2, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

export const TONS_PATTERN = /^\d{1,10}(\.\d{1,3})?$/;
export const YUAN_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** Deposit of a subscription, as the server computes it: per ton subscribed, or a fixed sum per subscription. */
export function subscriptionDeposit(listing: { depositMode: string; depositValue: number }, quantityKg: number): number {
  return listing.depositMode === 'per_ton' ? Number(amountFen(listing.depositValue, quantityKg)) : listing.depositValue;
}

/** Amount (price × quantity, half up to the fen) and deposit the subscriber will see before submitting. */
export function subscriptionPreview(listing: { price: number; depositMode: string; depositValue: number }, quantityKg: number | null) {
  if (quantityKg === null || quantityKg <= 0) return null;
  return { amount: Number(amountFen(listing.price, quantityKg)), deposit: subscriptionDeposit(listing, quantityKg) };
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
  if (hangState === 1) {
    return [
      { key: 'subscribe', label: '摘牌', disabled: false },
      { key: 'details', label: '查看详情', disabled: false },
      { key: 'result', label: '结果公告', disabled: true },
    ];
  }
  if (hangState === 2) {
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

/** A wall-clock time as the trader picked it ('YYYY-MM-DD HH:mm:ss', Shanghai) → ISO with offset. */
export function shanghaiIso(wall: string): string {
  return `${wall.replace(' ', 'T')}+08:00`;
}

/** What the publishing form holds: numbers as typed text, dates as Shanghai wall-clock texts. */
export interface ListingFormValues {
  tradeId?: string;
  tradeType: 0 | 1;
  stockCode?: string;
  quality?: Partial<Record<'qnet' | 'mt' | 'st' | 'ad' | 'vdaf' | 'ashFusion', number | null>>;
  quantityTons?: string;
  priceYuan?: string;
  minTons?: string;
  maxTons?: string;
  depositMode?: 'per_ton' | 'fixed';
  depositYuan?: string;
  priceType?: 'factory_tax' | 'pithead' | 'delivered';
  transport?: 'road' | 'rail' | 'water';
  area?: string[];
  deliveryPlace?: string;
  /** 'YYYY-MM-DD'. */
  deliveryDateStart?: string;
  deliveryDateEnd?: string;
  /** 'YYYY-MM-DD HH:mm:ss' in Shanghai time. */
  listedDateStart?: string;
  listedDateEnd?: string;
  autoConfirm?: boolean;
  remark?: string;
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
  if (v.deliveryDateStart && v.deliveryDateEnd && v.deliveryDateEnd < v.deliveryDateStart) {
    errors.deliveryDateEnd = '交收结束日期不能早于开始日期';
  }
  return errors;
}

/** The request body of addListedApply; throws the first message when a field cannot be converted. */
export function toListingApply(v: ListingFormValues, submit: boolean): ListingApply {
  const need = <T>(value: T | null | undefined, message: string): T => {
    if (value === null || value === undefined || value === '') throw new Error(message);
    return value;
  };
  const quality = Object.fromEntries(
    Object.entries(v.quality ?? {}).filter(([, value]) => value !== null && value !== undefined && !Number.isNaN(value)),
  );
  const [province, city, district] = v.area ?? [];
  return {
    ...(v.tradeId ? { tradeId: v.tradeId } : {}),
    tradeType: v.tradeType,
    stockCode: need(v.stockCode, '请选择产品'),
    quality,
    quantity: need(tonsTextToKg(v.quantityTons), '请输入挂牌数量'),
    price: need(yuanTextToFen(v.priceYuan), '请输入价格'),
    minSubscribe: need(tonsTextToKg(v.minTons), '请输入最小摘牌量'),
    maxSubscribe: need(tonsTextToKg(v.maxTons), '请输入最大摘牌量'),
    depositMode: need(v.depositMode, '请选择保证金方式'),
    depositValue: need(yuanTextToFen(v.depositYuan), '请输入保证金'),
    priceType: need(v.priceType, '请选择价格类型'),
    transport: need(v.transport, '请选择运输方式'),
    deliveryProvince: need(province, '请选择交收地区'),
    deliveryCity: need(city, '请选择交收城市'),
    deliveryDistrict: district ?? '',
    deliveryPlace: need(v.deliveryPlace?.trim(), '请输入交收地点'),
    deliveryDateStart: need(v.deliveryDateStart, '请选择交收日期'),
    deliveryDateEnd: need(v.deliveryDateEnd, '请选择交收日期'),
    listedDateStart: shanghaiIso(need(v.listedDateStart, '请选择挂牌时间')),
    listedDateEnd: shanghaiIso(need(v.listedDateEnd, '请选择挂牌时间')),
    autoConfirm: Boolean(v.autoConfirm),
    remark: v.remark?.trim() ?? '',
    submit,
  };
}

/** The form's values for editing a saved draft or rejected listing. */
export function fromListing(l: {
  tradeId: string;
  tradeType: number;
  stockCode: string;
  quality: Record<string, number | null | undefined>;
  quantity: number;
  price: number;
  minSubscribe: number;
  maxSubscribe: number;
  depositMode: string;
  depositValue: number;
  priceType: string;
  transport: string;
  deliveryProvince: string;
  deliveryCity: string;
  deliveryDistrict: string;
  deliveryPlace: string;
  deliveryDateStart: string;
  deliveryDateEnd: string;
  listedDateStart: string;
  listedDateEnd: string;
  autoConfirm: boolean;
  remark: string;
}): ListingFormValues {
  return {
    tradeId: l.tradeId,
    tradeType: l.tradeType === 1 ? 1 : 0,
    stockCode: l.stockCode,
    quality: l.quality as ListingFormValues['quality'],
    quantityTons: kgToTonsText(l.quantity),
    priceYuan: fenToYuanText(l.price),
    minTons: kgToTonsText(l.minSubscribe),
    maxTons: kgToTonsText(l.maxSubscribe),
    depositMode: l.depositMode as ListingFormValues['depositMode'],
    depositYuan: fenToYuanText(l.depositValue),
    priceType: l.priceType as ListingFormValues['priceType'],
    transport: l.transport as ListingFormValues['transport'],
    area: [l.deliveryProvince, l.deliveryCity, l.deliveryDistrict].filter(Boolean),
    deliveryPlace: l.deliveryPlace,
    deliveryDateStart: l.deliveryDateStart,
    deliveryDateEnd: l.deliveryDateEnd,
    listedDateStart: l.listedDateStart,
    listedDateEnd: l.listedDateEnd,
    autoConfirm: l.autoConfirm,
    remark: l.remark,
  };
}

/** Label of the trade's direction for page titles and tags. */
export const TRADE_TYPE_TEXT: Record<number, string> = { 0: '挂牌销售', 1: '挂牌采购' };
