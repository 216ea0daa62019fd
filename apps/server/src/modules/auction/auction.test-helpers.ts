import type { AuctionApply } from '@coalx/shared';

const S = 1000;
const isoDate = (t: number) => new Date(t + 8 * 3600 * S).toISOString().slice(0, 10);

/** A valid auction request: enrolment for 1 min, bidding 10 min after that, 120 s extension. */
export function auctionInput(stockCode: string, now: Date, overrides: Partial<AuctionApply> = {}): AuctionApply {
  const t = now.getTime();
  return {
    tradeType: 2,
    stockCode,
    quality: { qnet: 5500 },
    quantity: 5_000_000, // 5,000 t
    startPrice: 80_000, // ¥800.00 / t
    minStep: 100, // ¥1.00
    maxStep: 1_000, // ¥10.00
    limitPrice: null,
    deposit: 20_000_000, // ¥200,000.00
    enrolDeadline: new Date(t + 60 * S).toISOString(),
    bidStart: new Date(t + 120 * S).toISOString(),
    bidEnd: new Date(t + 720 * S).toISOString(),
    extensionSeconds: 120,
    priceType: 'factory_tax',
    transport: 'rail',
    deliveryProvince: '内蒙古自治区',
    deliveryCity: '鄂尔多斯市',
    deliveryDistrict: '东胜区',
    deliveryPlace: '东胜煤炭集运站',
    deliveryDateStart: isoDate(t + 3 * 86400 * S),
    deliveryDateEnd: isoDate(t + 30 * 86400 * S),
    remark: '',
    submit: true,
    ...overrides,
  };
}
