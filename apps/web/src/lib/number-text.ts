/**
 * What is wrong with a number a user typed, one rule at a time, each with its own message (issue 11): not a number,
 * negative, too many decimals, too large, not above zero. An empty field is left to the field's "请输入…" rule, and
 * a value out of range is refused, never clamped.
 */
export interface NumberTextRules {
  decimals: number;
  /** The largest value allowed, in the unit typed. */
  max: number;
  /** How the largest value reads in the message, e.g. '10,000,000 吨'. */
  maxText: string;
  /** The smallest value allowed (default 0); with `positive`, 0 itself is refused. */
  min?: number;
  minText?: string;
  positive?: boolean;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function numberTextProblem(text: string | number | null | undefined, rules: NumberTextRules): string | null {
  const value = text === null || text === undefined ? '' : String(text).trim();
  if (value === '') return null;
  if (!NUMBER.test(value)) return '请输入数字';
  const number = Number(value);
  if (number < 0) return '不能为负数';
  const decimals = value.split('.')[1] ?? '';
  if (decimals.length > rules.decimals) return rules.decimals === 0 ? '请输入整数' : `最多 ${rules.decimals} 位小数`;
  if (number > rules.max) return `不能超过 ${rules.maxText}`;
  if (rules.positive && number === 0) return '须大于 0';
  if (rules.min !== undefined && number < rules.min) return `不能少于 ${rules.minText ?? rules.min}`;
  return null;
}
