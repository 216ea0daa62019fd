import { describe, expect, it } from 'vitest';
import { fenToCapitals } from './money-capitals';

describe('fenToCapitals (大写金额)', () => {
  it('writes the examples of the brief and of the payment-voucher rules', () => {
    const cases: Array<[number | bigint, string]> = [
      [0, '零元整'],
      [5, '伍分'],
      [50, '伍角'],
      [55, '伍角伍分'],
      [100, '壹元整'],
      [105, '壹元零伍分'],
      [150, '壹元伍角'],
      [1000, '壹拾元整'],
      [1050, '壹拾元伍角'],
      [10005, '壹佰元零伍分'],
      [140950, '壹仟肆佰零玖元伍角'],
      [600714, '陆仟零柒元壹角肆分'],
      [1000000, '壹万元整'],
      [1640902, '壹万陆仟肆佰零玖元零贰分'],
      [10700053, '壹拾万柒仟元伍角叁分'],
      [10001050, '壹拾万零壹拾元伍角'],
      [100010000, '壹佰万零壹佰元整'],
      [1000000001, '壹仟万元零壹分'],
      [2030000000, '贰仟零叁拾万元整'],
      [8455000000, '捌仟肆佰伍拾伍万元整'],
      [84550000000n, '捌亿肆仟伍佰伍拾万元整'],
      [100000000000, '壹拾亿元整'],
    ];
    for (const [fen, text] of cases) expect([fen, fenToCapitals(fen)]).toEqual([fen, text]);
  });

  it('writes one 零 for a run of zeros, also across sections, and none for zeros ending a section', () => {
    expect(fenToCapitals(10000000100)).toBe('壹亿零壹元整'); // 1,0000,0001
    expect(fenToCapitals(10001000000)).toBe('壹亿零壹万元整'); // 1,0001,0000
    expect(fenToCapitals(11000000000)).toBe('壹亿壹仟万元整'); // 1,1000,0000
    expect(fenToCapitals(1230567800)).toBe('壹仟贰佰叁拾万伍仟陆佰柒拾捌元整'); // 1230,5678
    expect(fenToCapitals(1001000)).toBe('壹万零壹拾元整'); // 1,0010
    expect(fenToCapitals(100100)).toBe('壹仟零壹元整');
    expect(fenToCapitals(1010100)).toBe('壹万零壹佰零壹元整');
    expect(fenToCapitals(1100000)).toBe('壹万壹仟元整');
    expect(fenToCapitals(100000000000000n)).toBe('壹万亿元整');
    expect(fenToCapitals(1000000000000000n)).toBe('壹拾万亿元整');
    expect(fenToCapitals(100000000000100n)).toBe('壹万亿零壹元整');
    expect(fenToCapitals(999999999999999999n)).toBe('玖仟玖佰玖拾玖万亿玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分');
  });

  it('always writes the digit before 拾', () => {
    expect(fenToCapitals(1500)).toBe('壹拾伍元整');
    expect(fenToCapitals(100001000)).toBe('壹佰万零壹拾元整');
    expect(fenToCapitals(1000000000)).toBe('壹仟万元整');
    expect(fenToCapitals(110000000000)).toBe('壹拾壹亿元整');
  });

  it('accepts bigint and number alike', () => {
    expect(fenToCapitals(84550000n)).toBe(fenToCapitals(84550000));
    expect(fenToCapitals(84550000)).toBe('捌拾肆万伍仟伍佰元整');
  });

  it('refuses negative, fractional and absurd amounts', () => {
    expect(() => fenToCapitals(-1)).toThrow('负数');
    expect(() => fenToCapitals(-1n)).toThrow('负数');
    expect(() => fenToCapitals(1.5)).toThrow('整数');
    expect(() => fenToCapitals(Number.NaN)).toThrow();
    expect(() => fenToCapitals(10n ** 18n)).toThrow('过大');
  });
});
