import { describe, expect, it } from 'vitest';
import { numberTextProblem } from './number-text';

const tons = { decimals: 3, max: 10_000_000, maxText: '10,000,000 吨', positive: true };

describe('numberTextProblem: one message per rule, nothing clamped', () => {
  it('tells each mistake apart', () => {
    expect(numberTextProblem('', tons)).toBeNull();
    expect(numberTextProblem('20000.125', tons)).toBeNull();
    expect(numberTextProblem('abc', tons)).toBe('请输入数字');
    expect(numberTextProblem('1e5', tons)).toBe('请输入数字');
    expect(numberTextProblem('-100', tons)).toBe('不能为负数');
    expect(numberTextProblem('1.0001', tons)).toBe('最多 3 位小数');
    expect(numberTextProblem('99999999999999', tons)).toBe('不能超过 10,000,000 吨');
    expect(numberTextProblem('0', tons)).toBe('须大于 0');
  });

  it('whole numbers with a range: 延时周期 5 and 999999 are refused, not turned into 30 and 1800', () => {
    const seconds = { decimals: 0, min: 30, minText: '30 秒', max: 1800, maxText: '1800 秒' };
    expect(numberTextProblem(5, seconds)).toBe('不能少于 30 秒');
    expect(numberTextProblem(999999, seconds)).toBe('不能超过 1800 秒');
    expect(numberTextProblem('12.5', seconds)).toBe('请输入整数');
    expect(numberTextProblem(120, seconds)).toBeNull();
  });
});
