import { describe, expect, it } from 'vitest';
import { commonFormValues, deliveryApply, deliveryDateError, productApply, type CommonFormValues } from './trade-form';

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
