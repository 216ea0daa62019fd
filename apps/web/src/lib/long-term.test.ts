import { describe, expect, it } from 'vitest';
import { LongTermOfferSchema, type LongTermDetail } from '@coalx/shared';
import {
  buyerText,
  callOffAmount,
  callOffDayAllowed,
  callOffQuantityError,
  coefficientProblem,
  creditCodeProblem,
  deadlineProblem,
  e4FromText,
  e4Text,
  e4ToText,
  heatFactorProblem,
  monthTonsProblem,
  periodProblem,
  planRows,
  planTotal,
  previewQuery,
  toOffer,
  type OfferFormValues,
  flagMessage,
} from './long-term';

const filled: OfferFormValues = {
  stockCode: 'DLM5500',
  quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28, ashFusion: null },
  priceType: 'factory_tax',
  transport: 'rail',
  area: ['山西省', '朔州市', '平鲁区'],
  deliveryPlace: ' 井坪镇储煤场 ',
  periodStart: '2026-11',
  periodEnd: '2027-01',
  months: [
    { month: '2026-11', tons: '10000' },
    { month: '2026-12', tons: '12000.5' },
    { month: '2027-01', tons: '0.001' },
  ],
  pricingMode: 'index',
  basePriceYuan: '680',
  coefficient: '0.5',
  referenceYuan: '700.10',
  targetCreditCode: ' 91140600ma0k12345x ',
  applyDeadline: '2026-11-20',
  remark: ' 按月调运 ',
};

describe('ten-thousandths from typed decimals', () => {
  it('converts by string arithmetic, never by float multiplication', () => {
    expect(e4FromText('0.5')).toBe(5000);
    expect(e4FromText('1.2345')).toBe(12345);
    // 0.29 × 10000 is 2899.9999999999995 in floats
    expect(e4FromText('0.29')).toBe(2900);
    expect(e4FromText('2')).toBe(20000);
    expect(e4FromText('0.12345')).toBeNull();
    expect(e4FromText('abc')).toBeNull();
    expect(e4ToText(5000)).toBe('0.5');
    expect(e4ToText(12345)).toBe('1.2345');
    expect(e4ToText(20000)).toBe('2');
    expect(e4Text(5000)).toBe('0.5000');
  });

  it('says what is wrong with a coefficient, a heat factor or a month’s tons, one rule at a time', () => {
    expect(coefficientProblem('0.5')).toBeNull();
    expect(coefficientProblem('0')).toBe('须大于 0');
    expect(coefficientProblem('2.5')).toBe('不能超过 2');
    expect(coefficientProblem('0.12345')).toBe('最多 4 位小数');
    expect(heatFactorProblem('')).toBeNull();
    expect(heatFactorProblem('0.2')).toBe('不能少于 0.3');
    expect(heatFactorProblem('1.6')).toBe('不能超过 1.5');
    expect(monthTonsProblem('1000000')).toBeNull();
    expect(monthTonsProblem('1000000.001')).toBe('不能超过 100 万吨');
    expect(monthTonsProblem('1.0001')).toBe('最多 3 位小数');
    expect(creditCodeProblem('91140600MA0K12345X')).toBeNull();
    expect(creditCodeProblem('')).toBeNull();
    expect(creditCodeProblem('9114060')).toBe('统一社会信用代码应为 18 位数字或大写字母');
  });
});

describe('the monthly plan', () => {
  it('has one row per month of the period and keeps the tons typed for months that stay', () => {
    expect(planRows('2026-11', '2027-02')!.map((r) => r.month)).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    const kept = planRows('2026-12', '2027-01', [
      { month: '2026-11', tons: '1' },
      { month: '2026-12', tons: '2' },
    ]);
    expect(kept).toEqual([
      { month: '2026-12', tons: '2' },
      { month: '2027-01', tons: undefined },
    ]);
    expect(planRows('2027-01', '2026-12')).toBeNull();
    expect(planRows('2026-01', '2028-12')).toHaveLength(36);
    expect(planRows('2026-01', '2029-01')).toBeNull();
    expect(periodProblem('2026-01', '2029-01')).toBe('合同期不超过 36 个月');
    expect(periodProblem('2027-01', '2026-12')).toBe('合同结束月份不能早于开始月份');
    expect(periodProblem('2026-01', '2026-01')).toBeNull();
  });

  it('totals the valid months in kg and counts the others', () => {
    expect(planTotal(filled.months)).toEqual({ kg: 10_000_000 + 12_000_500 + 1, missing: 0 });
    expect(planTotal([{ month: '2026-11', tons: '5' }, { month: '2026-12' }, { month: '2027-01', tons: 'x' }])).toEqual({ kg: 5000, missing: 2 });
  });

  it('closes applications before the last month', () => {
    expect(deadlineProblem('2027-01-01', '2027-01')).toBe('申请截止日期须早于合同最后一个月');
    expect(deadlineProblem('2026-12-31', '2027-01')).toBeNull();
  });
});

describe('the offer body', () => {
  it('is what the server’s schema accepts: integer kg, fen and ten-thousandths, the credit code in upper case', () => {
    const offer = toOffer(filled, true);
    expect(offer).toMatchObject({
      stockCode: 'DLM5500',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '平鲁区',
      deliveryPlace: '井坪镇储煤场',
      months: [
        { month: '2026-11', plannedKg: 10_000_000 },
        { month: '2026-12', plannedKg: 12_000_500 },
        { month: '2027-01', plannedKg: 1 },
      ],
      pricing: { mode: 'index', basePriceFen: 68_000, coefficientE4: 5000, referenceFen: 70_010, heatFactorE4: null },
      targetCreditCode: '91140600MA0K12345X',
      remark: '按月调运',
      submit: true,
    });
    expect(offer.quality).toEqual({ qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 });
    expect(offer).not.toHaveProperty('id');
    expect(LongTermOfferSchema.safeParse(offer).success).toBe(true);
  });

  it('edits a draft by id; a fixed price carries no float; an open offer names no buyer', () => {
    const offer = toOffer({ ...filled, pricingMode: 'fixed', basePriceYuan: '705.5', targetCreditCode: '  ', heatFactor: '0.9091' }, false, 7);
    expect(offer).toMatchObject({ id: 7, submit: false, pricing: { mode: 'fixed', basePriceFen: 70_550, coefficientE4: 0, referenceFen: 0, heatFactorE4: 9091 } });
    expect(offer).not.toHaveProperty('targetCreditCode');
    expect(LongTermOfferSchema.safeParse(offer).success).toBe(true);
  });

  it('names the first missing field', () => {
    expect(() => toOffer({ ...filled, stockCode: undefined }, true)).toThrow('请选择产品');
    expect(() => toOffer({ ...filled, months: [{ month: '2026-11', tons: '1' }] }, true)).toThrow('请填写 2026-12 的计划量');
    expect(() => toOffer({ ...filled, coefficient: '' }, true)).toThrow('请输入浮动系数');
    expect(() => toOffer({ ...filled, applyDeadline: undefined }, true)).toThrow('请选择申请截止日期');
  });

  it('previews the first month once the pricing is complete', () => {
    expect(previewQuery(filled)).toEqual({ mode: 'index', basePriceFen: 68_000, coefficientE4: 5000, referenceFen: 70_010, qnet: 5500, month: '2026-11' });
    expect(previewQuery({ ...filled, coefficient: '3' })).toBeNull();
    expect(previewQuery({ ...filled, basePriceYuan: '' })).toBeNull();
    expect(previewQuery({ ...filled, pricingMode: 'fixed', heatFactor: '1.1' })).toMatchObject({ mode: 'fixed', coefficientE4: 0, referenceFen: 0, heatFactorE4: 11_000 });
  });
});

describe('reading a deal', () => {
  it('names the buyer, the named buyer of a 定向 offer, or 公开征集', () => {
    expect(buyerText({ buyerName: '华东电力燃料有限公司', targetName: null })).toBe('华东电力燃料有限公司');
    expect(buyerText({ buyerName: null, targetName: '华东电力燃料有限公司' })).toBe('定向：华东电力燃料有限公司');
    expect(buyerText({ buyerName: null, targetName: null })).toBe('公开征集');
  });

  it('checks a call-off against the month’s remainder and days, and prices it half up to the fen', () => {
    expect(callOffAmount(68_750, 1_001)).toBe(68_819);
    expect(callOffAmount(68_750, 10_000_000)).toBe(687_500_000);
    expect(callOffQuantityError(null, 5000)).toBe('请输入调运数量（吨，最多 3 位小数）');
    expect(callOffQuantityError(0, 5000)).toBe('调运数量须大于 0');
    expect(callOffQuantityError(5001, 5000)).toBe('调运数量不能超过本月剩余可调运量 5.00 吨');
    expect(callOffQuantityError(5000, 5000)).toBeNull();
    expect(callOffDayAllowed('2026-11-30', '2026-11', '2026-11-24')).toBe(true);
    expect(callOffDayAllowed('2026-11-23', '2026-11', '2026-11-24')).toBe(false);
    expect(callOffDayAllowed('2026-12-01', '2026-11', '2026-11-24')).toBe(false);
  });
});

describe('flagMessage', () => {
  const month = (m: string, rate: number, flagged: boolean) => ({ month: m, rate, flagged }) as LongTermDetail['months'][number];
  it('names the short months when the total is above the line', () => {
    const months = [month('2026-08', 98.1, false), month('2026-09', 83.1, true)];
    expect(flagMessage({ months, fulfilment: { rate: 93.1 } as LongTermDetail['fulfilment'], warnPct: 90 })).toBe('履约预警：2026年09月 83.1% 的履约率低于预警线 90%（已结束月份累计 93.1%）');
    expect(flagMessage({ months, fulfilment: { rate: 85 } as LongTermDetail['fulfilment'], warnPct: 90 })).toBe('履约预警：已结束月份累计履约率 85.0%，低于预警线 90%');
  });
});
