import { describe, expect, it } from 'vitest';
import { ellipsis, formatDateTime, formatFen, formatPrice, formatTons, maskName } from './format';
import { amountFen, tonsToKg, yuanToFen } from './money';

describe('display formats (spec §5)', () => {
  it('prices: thousands separators, 2 decimals, 元/吨', () => {
    expect(formatFen(123456789)).toBe('1,234,567.89');
    expect(formatFen(5)).toBe('0.05');
    expect(formatFen(-100)).toBe('-1.00');
    expect(formatFen(900719925474099312n)).toBe('9,007,199,254,740,993.12');
    expect(formatPrice(85000)).toBe('850.00 元/吨');
    expect(formatPrice(null)).toBe('-');
  });
  it('quantities: kilograms shown as tons with 2 decimals', () => {
    expect(formatTons(20_000_000)).toBe('20,000.00 吨');
    expect(formatTons(1_235)).toBe('1.24 吨');
    expect(formatTons(1_234, false)).toBe('1.23');
  });
  it('ellipsis at 16 by default, 14 for names, 40 for titles', () => {
    expect(ellipsis('一二三四五六七八九十一二三四五六七')).toBe('一二三四五六七八九十一二三四五六...');
    expect(ellipsis('晋北煤业集团有限公司晋北煤业集团', 14)).toBe('晋北煤业集团有限公司晋北煤业...');
    expect(ellipsis('短标题', 40)).toBe('短标题');
  });
  it('times in Asia/Shanghai', () => {
    expect(formatDateTime('2026-11-22T16:30:05Z')).toBe('2026-11-23 00:30:05');
    expect(formatDateTime(null)).toBe('-');
  });
  it('masks counterparty names', () => {
    expect(maskName('华东电力燃料有限公司')).toBe('华东******公司');
    expect(maskName('某公司')).toBe('某**');
  });
});

describe('money arithmetic (DESIGN.md §4)', () => {
  it('amount = price × weight, half up to the fen', () => {
    expect(amountFen(85000, 20_000_000)).toBe(1_700_000_000n); // 850 元/吨 × 20,000 t
    expect(amountFen(85001, 1)).toBe(85n); // 85.001 fen → 85
    expect(amountFen(500, 1)).toBe(1n); // 0.5 fen → 1 (half up)
    expect(amountFen(499, 1)).toBe(0n);
  });
  it('parses yuan and tons text exactly', () => {
    expect(yuanToFen('1234.5')).toBe(123450n);
    expect(yuanToFen('0.01')).toBe(1n);
    expect(yuanToFen('1.234')).toBeNull();
    expect(yuanToFen('abc')).toBeNull();
    expect(tonsToKg('20000.5')).toBe(20_000_500n);
    expect(tonsToKg('-1')).toBeNull();
  });
});
