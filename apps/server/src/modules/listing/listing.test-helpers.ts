import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { products } from '../../db/schema/index';
import type { ListingApply } from '@coalx/shared';

let productSeq = 0;
export async function createProduct(db: Db) {
  const stockCode = `P5500-${process.pid}-${++productSeq}`;
  await db.insert(products).values({ stockCode, stockName: '动力煤 5500', category: '动力煤', quality: { qnet: 5500, st: 0.8 } });
  return stockCode;
}

const hours = (n: number) => n * 3600 * 1000;
const isoDate = (t: number) => new Date(t + hours(8)).toISOString().slice(0, 10);

/** A valid listing request starting `startsInMs` after `now` and open for a day. */
export function listingInput(stockCode: string, now: Date, overrides: Partial<ListingApply> = {}): ListingApply {
  const start = now.getTime() + (overrides.listedDateStart ? 0 : 60_000);
  return {
    tradeType: 0,
    stockCode,
    quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 },
    quantity: 10_000_000, // 10,000 t
    price: 85_000, // ¥850.00 / t
    minSubscribe: 100_000,
    maxSubscribe: 500_000,
    depositMode: 'per_ton',
    depositValue: 2_000, // ¥20.00 / t
    priceType: 'factory_tax',
    transport: 'road',
    deliveryProvince: '山西省',
    deliveryCity: '朔州市',
    deliveryDistrict: '朔城区',
    deliveryPlace: '晋北煤业一号煤场',
    deliveryDateStart: isoDate(start + hours(48)),
    deliveryDateEnd: isoDate(start + hours(24 * 30)),
    listedDateStart: new Date(start).toISOString(),
    listedDateEnd: new Date(start + hours(24)).toISOString(),
    autoConfirm: false,
    remark: '',
    submit: true,
    ...overrides,
  };
}

export async function post(app: FastifyInstance, url: string, token: string | null, payload: object) {
  return app.inject({ method: 'POST', url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, payload });
}
