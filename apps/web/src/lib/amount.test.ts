import { describe, expect, it } from 'vitest';
import { yuan } from '@/components/Money';
import { checkWithdrawAmount, fenToYuanInput, parseYuanAmount } from './amount';

describe('yuan → fen in the funds forms', () => {
  it('converts exactly, without float rounding', () => {
    expect(parseYuanAmount('1234.5')).toEqual({ fen: 123450 });
    expect(parseYuanAmount('0.01')).toEqual({ fen: 1 });
    expect(parseYuanAmount('0.29')).toEqual({ fen: 29 }); // 0.29 * 100 = 28.999999999999996 as a float
    expect(parseYuanAmount('1.1')).toEqual({ fen: 110 });
    expect(parseYuanAmount(' 100 ')).toEqual({ fen: 10000 });
    expect(parseYuanAmount(20000)).toEqual({ fen: 2000000 });
    expect(parseYuanAmount('99999999999.99')).toEqual({ fen: 9999999999999 });
  });

  it('refuses empty, zero, negative, fractional-fen and huge amounts with a clear message', () => {
    expect(parseYuanAmount('')).toEqual({ error: '请输入金额' });
    expect(parseYuanAmount(undefined)).toEqual({ error: '请输入金额' });
    expect(parseYuanAmount('0')).toEqual({ error: '金额须大于 0' });
    expect(parseYuanAmount('0.00')).toEqual({ error: '金额须大于 0' });
    expect(parseYuanAmount('-5')).toEqual({ error: '金额须大于 0' });
    expect(parseYuanAmount('1.005')).toEqual({ error: '金额最多保留两位小数' });
    expect(parseYuanAmount('1e5')).toEqual({ error: '请输入正确的金额' });
    expect(parseYuanAmount('abc')).toEqual({ error: '请输入正确的金额' });
    expect(parseYuanAmount('100000000000.01')).toEqual({ error: '金额过大，单笔不超过 1000 亿元' });
    expect(parseYuanAmount('99999999999999999')).toEqual({ error: '金额过大，单笔不超过 1000 亿元' });
  });

  it('caps a withdrawal at the available balance', () => {
    expect(checkWithdrawAmount('100', 10000)).toEqual({ fen: 10000 });
    expect(checkWithdrawAmount('100.01', 10000)).toEqual({ error: '出金金额不能超过可用余额 ¥100.00' });
    expect(checkWithdrawAmount('0', 10000)).toEqual({ error: '金额须大于 0' });
  });

  it('shows fen as ¥ with thousands separators and 2 decimals, and back as input text', () => {
    expect(yuan(480000000)).toBe('¥4,800,000.00');
    expect(yuan(1)).toBe('¥0.01');
    expect(yuan(-12345)).toBe('-¥123.45');
    expect(yuan(null)).toBe('-');
    expect(fenToYuanInput(480000005)).toBe('4800000.05');
    expect(parseYuanAmount(fenToYuanInput(480000005))).toEqual({ fen: 480000005 });
  });
});
