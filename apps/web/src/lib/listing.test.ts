import { describe, expect, it } from 'vitest';
import {
  crossFieldErrors,
  listingButtonPath,
  listingButtons,
  subscribeBounds,
  subscribeQuantityError,
  subscriptionPreview,
  toListingApply,
  type ListingFormValues,
} from './listing';
import { shanghaiIso } from './trade-form';

describe('subscription preview', () => {
  const perTon = { price: 85_000, depositMode: 'per_ton', depositValue: 2_000 };
  it('amount is price × quantity rounded half up to the fen; per-ton deposit likewise', () => {
    expect(subscriptionPreview(perTon, 600_000)).toEqual({ amount: 51_000_000, deposit: 1_200_000 });
    // 0.001 t at 850.00 元/吨 = 0.85 元; at 8.55 元/吨 = 0.00855 → 0.01 元
    expect(subscriptionPreview(perTon, 1)).toEqual({ amount: 85, deposit: 2 });
    expect(subscriptionPreview({ price: 855, depositMode: 'per_ton', depositValue: 0 }, 1)).toEqual({ amount: 1, deposit: 0 });
  });
  it('a fixed deposit does not depend on the quantity', () => {
    expect(subscriptionPreview({ price: 85_000, depositMode: 'fixed', depositValue: 5_000_000 }, 600_000)?.deposit).toBe(5_000_000);
  });
  it('shows nothing without a positive quantity', () => {
    expect(subscriptionPreview(perTon, null)).toBeNull();
    expect(subscriptionPreview(perTon, 0)).toBeNull();
  });
});

describe('subscription quantity rules (mirroring the server)', () => {
  const l = { minSubscribe: 500_000, maxSubscribe: 5_000_000, remainingQuantity: 8_000_000 };
  it('accepts within [min, max] and the remainder', () => {
    expect(subscribeQuantityError(l, 500_000)).toBeNull();
    expect(subscribeQuantityError(l, 5_000_000)).toBeNull();
    expect(subscribeBounds(l)).toEqual({ min: 500_000, max: 5_000_000, onlyRemainder: false });
  });
  it('refuses below min, above max and above the remainder with the server\'s words', () => {
    expect(subscribeQuantityError(l, 499_999)).toBe('摘牌数量不能小于最小摘牌量 500.00 吨');
    expect(subscribeQuantityError(l, 5_000_001)).toBe('摘牌数量不能大于最大摘牌量 5,000.00 吨');
    expect(subscribeQuantityError({ ...l, remainingQuantity: 1_000_000 }, 2_000_000)).toBe('摘牌数量超过剩余可摘量 1,000.00 吨');
    expect(subscribeQuantityError(l, null)).toMatch(/请输入摘牌数量/);
    expect(subscribeQuantityError({ ...l, remainingQuantity: 0 }, 1)).toBe('该挂牌已全部摘完');
  });
  it('a remainder below the minimum must be taken exactly', () => {
    const tail = { ...l, remainingQuantity: 300_000 };
    expect(subscribeBounds(tail)).toEqual({ min: 300_000, max: 300_000, onlyRemainder: true });
    expect(subscribeQuantityError(tail, 300_000)).toBeNull();
    expect(subscribeQuantityError(tail, 200_000)).toMatch(/须一次摘完剩余的 300.00 吨/);
  });
});

describe('per-row buttons by state (spec §4)', () => {
  it('state 1: subscribe and view details, result notice disabled', () => {
    expect(listingButtons(1)).toEqual([
      { key: 'subscribe', label: '摘牌', disabled: false },
      { key: 'details', label: '查看详情', disabled: false },
      { key: 'result', label: '结果公告', disabled: true },
    ]);
  });
  it('state 2: result notice, details disabled', () => {
    expect(listingButtons(2)).toEqual([
      { key: 'result', label: '结果公告', disabled: false },
      { key: 'details', label: '查看详情', disabled: true },
    ]);
  });
  it('state 0 is never listed publicly: no buttons', () => {
    expect(listingButtons(0)).toEqual([]);
  });
  it('buttons lead to the spec §2 routes', () => {
    expect(listingButtonPath('subscribe', 'GP1')).toBe('/hang/hangSale?tradeId=GP1');
    expect(listingButtonPath('details', 'GP1')).toBe('/listingSalesDetails?tradeId=GP1');
    expect(listingButtonPath('result', 'GP1')).toBe('/listingResult?tradeId=GP1');
  });
});

describe('publishing form cross-field rules', () => {
  const now = Date.parse('2026-11-22T10:00:00+08:00');
  const valid: ListingFormValues = {
    tradeType: 0,
    stockCode: 'DLM5500',
    quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28, ashFusion: null },
    quantityTons: '20000',
    priceYuan: '850.5',
    minTons: '500',
    maxTons: '5000',
    depositMode: 'per_ton',
    depositYuan: '20',
    priceType: 'factory_tax',
    transport: 'rail',
    area: ['山西省', '朔州市', '朔城区'],
    deliveryPlace: ' 一号储煤场 ',
    deliveryDateStart: '2026-11-23',
    deliveryDateEnd: '2026-12-23',
    listedDateStart: '2026-11-23 09:00:00',
    listedDateEnd: '2026-11-26 17:00:00',
    autoConfirm: false,
    remark: '',
  };

  it('a sound form has no errors', () => {
    expect(crossFieldErrors(valid, now)).toEqual({});
  });
  it('min ≤ max ≤ quantity', () => {
    expect(crossFieldErrors({ ...valid, minTons: '6000' }, now).minTons).toBe('最小摘牌量不能大于最大摘牌量');
    expect(crossFieldErrors({ ...valid, maxTons: '20000.001' }, now).maxTons).toBe('最大摘牌量不能大于挂牌数量');
    expect(crossFieldErrors({ ...valid, minTons: '5000', maxTons: '5000' }, now)).toEqual({});
  });
  it('the window lies in the future and starts before it ends', () => {
    expect(crossFieldErrors({ ...valid, listedDateStart: '2026-11-22 09:59:59' }, now).listedDateStart).toBe('挂牌开始时间须晚于当前时间');
    expect(crossFieldErrors({ ...valid, listedDateEnd: '2026-11-23 09:00:00' }, now).listedDateEnd).toBe('挂牌结束时间须晚于开始时间');
  });
  it('delivery starts no earlier than the listing and ends after it starts', () => {
    expect(crossFieldErrors({ ...valid, deliveryDateStart: '2026-11-22' }, now).deliveryDateStart).toBe('交收开始日期不能早于挂牌开始日期');
    expect(crossFieldErrors({ ...valid, deliveryDateEnd: '2026-11-22', deliveryDateStart: '2026-11-23' }, now).deliveryDateEnd).toBe(
      '交收结束日期不能早于开始日期',
    );
  });
  it('window times are Shanghai wall-clock times', () => {
    expect(shanghaiIso('2026-11-23 09:00:00')).toBe('2026-11-23T09:00:00+08:00');
    expect(Date.parse(shanghaiIso('2026-11-23 09:00:00'))).toBe(Date.parse('2026-11-23T01:00:00Z'));
  });
  it('builds the addListedApply body in fen and kg', () => {
    expect(toListingApply(valid, true)).toEqual({
      tradeType: 0,
      stockCode: 'DLM5500',
      quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 },
      quantity: 20_000_000,
      price: 85_050,
      minSubscribe: 500_000,
      maxSubscribe: 5_000_000,
      depositMode: 'per_ton',
      depositValue: 2_000,
      priceType: 'factory_tax',
      transport: 'rail',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '朔城区',
      deliveryPlace: '一号储煤场',
      deliveryDateStart: '2026-11-23',
      deliveryDateEnd: '2026-12-23',
      listedDateStart: '2026-11-23T09:00:00+08:00',
      listedDateEnd: '2026-11-26T17:00:00+08:00',
      autoConfirm: false,
      remark: '',
      submit: true,
    });
    expect(toListingApply({ ...valid, tradeId: 'GP1' }, false)).toMatchObject({ tradeId: 'GP1', submit: false });
    expect(() => toListingApply({ ...valid, stockCode: undefined }, true)).toThrow('请选择产品');
  });
});
