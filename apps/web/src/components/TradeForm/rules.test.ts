import { describe, expect, it } from 'vitest';
import type { RuleObject } from 'antd/es/form';
import dayjs from 'dayjs';
import { DAY, WALL, pairTexts, pickedText, textPair } from './dates';
import { areaRules, tonsRule, wholeRule, yuanRule } from './rules';

/** The message a rule's validator gives for a value; null when it accepts it. */
async function verdict(rule: unknown, value: unknown): Promise<string | null> {
  try {
    await (rule as RuleObject).validator!({} as never, value, () => undefined);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('publishing form rules', () => {
  it('tons: up to 3 decimals and above 0; an empty field is left to "required"', async () => {
    expect(await verdict(tonsRule, '20000.125')).toBeNull();
    expect(await verdict(tonsRule, '')).toBeNull();
    expect(await verdict(tonsRule, '1.0001')).toBe('最多 3 位小数');
    expect(await verdict(tonsRule, '0')).toBe('须大于 0');
    // each mistake its own message (issue 11)
    expect(await verdict(tonsRule, '-100')).toBe('不能为负数');
    expect(await verdict(tonsRule, '99999999999999')).toBe('不能超过 10,000,000.00 吨');
    expect(await verdict(tonsRule, '十吨')).toBe('请输入数字');
  });

  it('yuan: 2 decimals, optionally above 0 and below a cap', async () => {
    expect(await verdict(yuanRule(), '0')).toBeNull();
    expect(await verdict(yuanRule({ positive: true }), '0')).toBe('须大于 0');
    expect(await verdict(yuanRule(), '1.234')).toBe('最多 2 位小数');
    expect(await verdict(yuanRule(), '-5')).toBe('不能为负数');
    expect(await verdict(yuanRule({ max: 1_000_000 }), '10000.01')).toBe('不能超过 10,000.00 元/吨');
    expect(await verdict(yuanRule({ max: 1_000_000 }), '10000')).toBeNull();
  });

  it('延时周期: out of range is refused, never clamped', async () => {
    expect(await verdict(wholeRule(30, 1800, '秒'), 5)).toBe('不能少于 30 秒');
    expect(await verdict(wholeRule(30, 1800, '秒'), 999999)).toBe('不能超过 1800 秒');
    expect(await verdict(wholeRule(30, 1800, '秒'), 120)).toBeNull();
  });

  it('area: at least down to the city', async () => {
    expect(await verdict(areaRules[1], ['山西省'])).toBe('请至少选择到城市');
    expect(await verdict(areaRules[1], ['山西省', '朔州市'])).toBeNull();
  });
});

describe('picker values', () => {
  it('turns picked days and times into Shanghai wall-clock texts and back', () => {
    const start = dayjs('2026-12-01 09:30:00');
    const end = dayjs('2026-12-31 17:00:00');
    expect(pairTexts([start, end], WALL)).toEqual(['2026-12-01 09:30:00', '2026-12-31 17:00:00']);
    expect(pairTexts([start, null], DAY)).toEqual(['2026-12-01', undefined]);
    expect(pairTexts(null, DAY)).toEqual([undefined, undefined]);
    expect(pickedText(null, WALL)).toBeUndefined();
    expect(textPair('2026-12-01', undefined)).toBeNull();
    expect(textPair('2026-12-01', '2026-12-31')!.map((d) => d.format(DAY))).toEqual(['2026-12-01', '2026-12-31']);
  });
});
