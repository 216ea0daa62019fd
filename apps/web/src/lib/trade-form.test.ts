import { describe, expect, it } from 'vitest';
import {
  commonFormValues,
  deliveryApply,
  deliveryDateError,
  fenToYuanText,
  kgToTonsText,
  productApply,
  tonsTextToKg,
  yuanTextToFen,
  type CommonFormValues,
} from './trade-form';

describe('tons and yuan typed by the trader', () => {
  it('converts tons with up to 3 decimals to integer kg without float error', () => {
    expect(tonsTextToKg('20000')).toBe(20_000_000);
    expect(tonsTextToKg('0.001')).toBe(1);
    expect(tonsTextToKg('1.005')).toBe(1005);
    expect(tonsTextToKg(' 12.5 ')).toBe(12_500);
    expect(tonsTextToKg('1.0001')).toBeNull();
    expect(tonsTextToKg('-1')).toBeNull();
    expect(tonsTextToKg('abc')).toBeNull();
    expect(tonsTextToKg('')).toBeNull();
    expect(tonsTextToKg(undefined)).toBeNull();
  });

  it('converts yuan with up to 2 decimals to integer fen, refusing negatives', () => {
    expect(yuanTextToFen('780')).toBe(78_000);
    expect(yuanTextToFen('0.1')).toBe(10);
    expect(yuanTextToFen('1.13')).toBe(113); // 1.13 * 100 is 112.99999999999999 in floats
    expect(yuanTextToFen('0')).toBe(0);
    expect(yuanTextToFen('1.234')).toBeNull();
    expect(yuanTextToFen('-5')).toBeNull();
    expect(yuanTextToFen('1e3')).toBeNull();
  });

  it('turns kg and fen back into input texts', () => {
    expect(kgToTonsText(20_000_000)).toBe('20000');
    expect(kgToTonsText(1_500)).toBe('1.5');
    expect(kgToTonsText(1_005)).toBe('1.005');
    expect(fenToYuanText(78_000)).toBe('780');
    expect(fenToYuanText(78_050)).toBe('780.5');
    expect(fenToYuanText(113)).toBe('1.13');
    for (const t of ['0.001', '7', '123.45']) expect(kgToTonsText(tonsTextToKg(t)!)).toBe(t);
  });
});

describe('product, quality and delivery of both publishing forms', () => {
  const form: CommonFormValues = {
    stockCode: 'DLM5500',
    quality: { qnet: 5500, mt: 12, ashFusion: null },
    priceType: 'pithead',
    transport: 'rail',
    area: ['山西省', '朔州市', '平鲁区'],
    deliveryPlace: '  井坪镇储煤场 ',
    deliveryDateStart: '2026-12-01',
    deliveryDateEnd: '2026-12-31',
  };

  it('keeps only the quality indicators filled in', () => {
    expect(productApply(form)).toEqual({ stockCode: 'DLM5500', quality: { qnet: 5500, mt: 12 } });
    expect(() => productApply({ ...form, stockCode: '' })).toThrow('请选择产品');
  });

  it('splits the area into province, city and district and trims the place', () => {
    expect(deliveryApply(form)).toEqual({
      priceType: 'pithead',
      transport: 'rail',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '平鲁区',
      deliveryPlace: '井坪镇储煤场',
      deliveryDateStart: '2026-12-01',
      deliveryDateEnd: '2026-12-31',
    });
    expect(deliveryApply({ ...form, area: ['北京市', '北京市'] }).deliveryDistrict).toBe('');
    expect(() => deliveryApply({ ...form, area: ['山西省'] })).toThrow('请选择交收城市');
    expect(() => deliveryApply({ ...form, deliveryPlace: '   ' })).toThrow('请输入交收地点');
  });

  it('reads a saved trade back into the same form values', () => {
    const saved = { tradeId: 'GP1', remark: '备注', ...deliveryApply(form), ...productApply(form) };
    expect(commonFormValues(saved)).toEqual({ ...form, tradeId: 'GP1', remark: '备注', deliveryPlace: '井坪镇储煤场', quality: { qnet: 5500, mt: 12 } });
  });

  it('refuses a delivery that ends before it starts', () => {
    expect(deliveryDateError(form)).toBeUndefined();
    expect(deliveryDateError({ ...form, deliveryDateEnd: '2026-11-30' })).toBe('交收结束日期不能早于开始日期');
  });
});
