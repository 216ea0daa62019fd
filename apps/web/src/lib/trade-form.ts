import type { ListingApply } from '@coalx/shared';
import { tonsToKg, yuanToFen } from '@coalx/shared';

/**
 * What the listing and auction publishing forms share: typed texts turned into integer kg / fen by the shared
 * converters (no float multiplication ever touches money), Shanghai wall-clock times, and the product, quality and
 * delivery fields both request bodies carry.
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

/** A wall-clock time as the trader picked it ('YYYY-MM-DD HH:mm:ss', Shanghai) → ISO with offset. */
export function shanghaiIso(wall: string): string {
  return `${wall.replace(' ', 'T')}+08:00`;
}

export type QualityValues = Partial<Record<'qnet' | 'mt' | 'st' | 'ad' | 'vdaf' | 'ashFusion', number | null>>;
export type PriceType = 'factory_tax' | 'pithead' | 'delivered';
export type Transport = 'road' | 'rail' | 'water';

/** The form fields of product, quality and delivery, as typed. */
export interface CommonFormValues {
  tradeId?: string;
  stockCode?: string;
  quality?: QualityValues;
  priceType?: PriceType;
  transport?: Transport;
  /** Province, city and district names. */
  area?: string[];
  deliveryPlace?: string;
  /** 'YYYY-MM-DD'. */
  deliveryDateStart?: string;
  deliveryDateEnd?: string;
  remark?: string;
}

/** A field's value, or the message of the first field that is missing. */
export function required<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined || value === '') throw new Error(message);
  return value;
}

/** Product and the quality indicators that were filled in. */
export function productApply(v: CommonFormValues): Pick<ListingApply, 'stockCode' | 'quality'> {
  const quality = Object.fromEntries(
    Object.entries(v.quality ?? {}).filter(([, value]) => value !== null && value !== undefined && !Number.isNaN(value)),
  );
  return { stockCode: required(v.stockCode, '请选择产品'), quality };
}

type DeliveryKeys =
  | 'priceType'
  | 'transport'
  | 'deliveryProvince'
  | 'deliveryCity'
  | 'deliveryDistrict'
  | 'deliveryPlace'
  | 'deliveryDateStart'
  | 'deliveryDateEnd';

/** Price type, transport and the delivery place and dates of a request body. */
export function deliveryApply(v: CommonFormValues): Pick<ListingApply, DeliveryKeys> {
  const [province, city, district] = v.area ?? [];
  return {
    priceType: required(v.priceType, '请选择价格类型'),
    transport: required(v.transport, '请选择运输方式'),
    deliveryProvince: required(province, '请选择交收地区'),
    deliveryCity: required(city, '请选择交收城市'),
    deliveryDistrict: district ?? '',
    deliveryPlace: required(v.deliveryPlace?.trim(), '请输入交收地点'),
    deliveryDateStart: required(v.deliveryDateStart, '请选择交收日期'),
    deliveryDateEnd: required(v.deliveryDateEnd, '请选择交收日期'),
  };
}

/** The saved trade's product, quality and delivery fields → the form's values. */
export function commonFormValues(t: {
  tradeId: string;
  stockCode: string;
  quality: Record<string, number | null | undefined>;
  priceType: string;
  transport: string;
  deliveryProvince: string;
  deliveryCity: string;
  deliveryDistrict: string;
  deliveryPlace: string;
  deliveryDateStart: string;
  deliveryDateEnd: string;
  remark: string;
}): CommonFormValues {
  return {
    tradeId: t.tradeId,
    stockCode: t.stockCode,
    quality: t.quality as QualityValues,
    priceType: t.priceType as PriceType,
    transport: t.transport as Transport,
    area: [t.deliveryProvince, t.deliveryCity, t.deliveryDistrict].filter(Boolean),
    deliveryPlace: t.deliveryPlace,
    deliveryDateStart: t.deliveryDateStart,
    deliveryDateEnd: t.deliveryDateEnd,
    remark: t.remark,
  };
}

/** The delivery may not end before it starts. */
export function deliveryDateError(v: CommonFormValues): string | undefined {
  return v.deliveryDateStart && v.deliveryDateEnd && v.deliveryDateEnd < v.deliveryDateStart ? '交收结束日期不能早于开始日期' : undefined;
}
