import { describe, expect, it } from 'vitest';
import { addMonths, fulfilmentRate, monthDays, monthPrice, monthsBetween, reasonableRange, type IndexTermPoint, type LongTermPricing } from './pricing';

const range = { minFen: 57_000, maxFen: 77_000 };
const indexed = (basePriceFen: number, coefficientE4: number, referenceFen: number, heatFactorE4: number | null = null): LongTermPricing => ({
  mode: 'index',
  basePriceFen,
  coefficientE4,
  referenceFen,
  heatFactorE4,
});
const term = (quoteDate: string, priceFen: number): IndexTermPoint => ({ label: quoteDate, quoteDate, priceFen });

describe('monthPrice', () => {
  it('averages the five terms of a five-week month before: 680 + 0.5 × (703.20 − 690) = 686.60', () => {
    const terms = [term('2027-03-01', 70_000), term('2027-03-08', 70_500), term('2027-03-15', 71_000), term('2027-03-22', 69_800), term('2027-03-29', 70_300)];
    const p = monthPrice(indexed(68_000, 5_000, 69_000), '2027-04', terms, 5500, range);
    expect(p).toMatchObject({ sourceMonth: '2027-03', basis: 'month_average', averageFen: 70_320, floatFen: 660, priceFen: 68_660, warning: null });
    expect(p.terms).toHaveLength(5);
  });

  it('takes a single term of the month before: 680 + 0.8 × (723.45 − 700) = 698.76', () => {
    const terms = [term('2026-12-28', 99_999), term('2027-01-04', 72_345)];
    const p = monthPrice(indexed(68_000, 8_000, 70_000), '2027-02', terms, 5500, range);
    expect(p).toMatchObject({ basis: 'month_average', floatFen: 1_876, priceFen: 69_876 });
    expect(p.terms.map((t) => t.quoteDate)).toEqual(['2027-01-04']);
  });

  it('falls back to the last term known before the month when the month before has none', () => {
    const terms = [term('2026-11-23', 65_000), term('2026-11-30', 71_000), term('2027-01-04', 80_000)];
    const p = monthPrice(indexed(68_000, 10_000, 70_000), '2027-01', terms, 5500, range);
    expect(p).toMatchObject({ sourceMonth: '2026-12', basis: 'last_known', averageFen: 71_000, floatFen: 1_000, priceFen: 69_000 });
    expect(p.terms.map((t) => t.quoteDate)).toEqual(['2026-11-30']);
  });

  it('ignores terms quoted on or after the month’s first day (not published when the price is fixed)', () => {
    const terms = [term('2027-01-25', 70_000), term('2027-02-01', 90_000)];
    expect(monthPrice(indexed(68_000, 10_000, 70_000), '2027-02', terms, 5500, range).priceFen).toBe(68_000);
  });

  it('gives a zero float when no term was ever published', () => {
    expect(monthPrice(indexed(68_000, 10_000, 70_000), '2027-01', [], 5500, range)).toMatchObject({ basis: 'no_index', floatFen: 0, priceFen: 68_000, averageFen: null });
  });

  it('rounds the float half away from zero to the fen on the exact average', () => {
    const month = '2027-02';
    const jan = (a: number) => [term('2027-01-04', a), term('2027-01-11', 70_000), term('2027-01-18', 70_000)];
    // 0.5 × 1/3 fen = 0.17 → 0
    expect(monthPrice(indexed(68_000, 5_000, 70_000), month, jan(70_001), 5500, range).floatFen).toBe(0);
    // 0.75 × 2/3 = 0.5 → 1; and −0.5 → −1
    expect(monthPrice(indexed(68_000, 7_500, 70_000), month, jan(70_002), 5500, range).floatFen).toBe(1);
    expect(monthPrice(indexed(68_000, 7_500, 70_000), month, jan(69_998), 5500, range).floatFen).toBe(-1);
    // a falling index lowers the price: 1.2345 × (650 − 700) = −61.725 元 → −61.73
    expect(monthPrice(indexed(68_000, 12_345, 70_000), month, [term('2027-01-04', 65_000)], 5500, range)).toMatchObject({ floatFen: -6_173, priceFen: 61_827 });
  });

  it('keeps a fixed price whatever the index did', () => {
    const p = monthPrice({ ...indexed(66_000, 5_000, 70_000), mode: 'fixed' }, '2027-02', [term('2027-01-04', 90_000)], 5500, range);
    expect(p).toMatchObject({ basis: 'fixed', floatFen: 0, priceFen: 66_000, terms: [] });
  });

  it('warns outside the reasonable range, scaled by Qnet,ar / 5500 or the contract’s factor', () => {
    expect(monthPrice({ ...indexed(78_000, 0, 0), mode: 'fixed' }, '2027-02', [], 5500, range).warning).toBe('月度价格 780.00 元/吨超出合理区间 570.00–770.00 元/吨');
    expect(monthPrice({ ...indexed(56_999, 0, 0), mode: 'fixed' }, '2027-02', [], 5500, range).warning).not.toBeNull();
    expect(monthPrice({ ...indexed(57_000, 0, 0), mode: 'fixed' }, '2027-02', [], 5500, range).warning).toBeNull();
    // 5000 kcal: 518.18–700.00
    expect(reasonableRange(range, 5000, null)).toEqual({ minFen: 51_818, maxFen: 70_000 });
    expect(monthPrice({ ...indexed(71_000, 0, 0), mode: 'fixed' }, '2027-02', [], 5000, range).warning).toBe('月度价格 710.00 元/吨超出合理区间 518.18–700.00 元/吨');
    // the contract's own factor wins over the heat value
    expect(reasonableRange(range, 5000, 9_500)).toEqual({ minFen: 54_150, maxFen: 73_150 });
    expect(reasonableRange(range, null, null)).toEqual(range);
  });
});

describe('months', () => {
  it('steps across years and lists a period', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2027-01', -1)).toBe('2026-12');
    expect(monthsBetween('2026-11', '2027-02')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(monthsBetween('2027-02', '2027-01')).toEqual([]);
    expect(monthDays('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
  });

  it('computes the fulfilment rate to one decimal', () => {
    expect(fulfilmentRate(8_950_000, 10_000_000)).toBe(89.5);
    expect(fulfilmentRate(1, 3)).toBe(33.3);
    expect(fulfilmentRate(0, 0)).toBeNull();
  });
});
