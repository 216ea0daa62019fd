import type { ListingApply } from '@coalx/shared';

/**
 * What the listing and auction publishing forms share: Shanghai wall-clock times and the product, quality and
 * delivery fields both request bodies carry. Typed amounts become integer kg / fen by the shared money-text
 * converters (`tonsTextToKg`, `yuanTextToFen` of @coalx/shared): no float multiplication ever touches money.
 */

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
