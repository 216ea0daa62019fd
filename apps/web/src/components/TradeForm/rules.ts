import type { Rule } from 'antd/es/form';
import { formatFen, formatTons, MAX_QUANTITY_KG } from '@coalx/shared';
import { numberTextProblem } from '@/lib/number-text';

/** Field rules of the listing and auction publishing forms, saying what the server would refuse before sending. */

const refuse = (problem: string | null) => (problem ? Promise.reject(new Error(problem)) : Promise.resolve());

/** A quantity in tons: a number, not negative, up to 3 decimals, not above the platform's limit, above 0. */
export const tonsRule: Rule = {
  validator: (_, value: string | undefined) =>
    refuse(numberTextProblem(value, { decimals: 3, max: MAX_QUANTITY_KG / 1000, maxText: `${formatTons(MAX_QUANTITY_KG, false)} 吨`, positive: true })),
};

/** The largest amount of money one field may hold (¥100 billion, as the server's schemas). */
const MAX_AMOUNT_FEN = 10_000_000_000_000;

/** An amount in yuan: ≥ 0 with up to 2 decimals; `positive` refuses 0, `max` (fen per ton) caps a price. */
export function yuanRule({ positive = false, max }: { positive?: boolean; max?: number } = {}): Rule {
  const maxText = max === undefined ? `${formatFen(MAX_AMOUNT_FEN)} 元` : `${formatFen(max)} 元/吨`;
  return {
    validator: (_, value: string | undefined) =>
      refuse(numberTextProblem(value, { decimals: 2, max: (max ?? MAX_AMOUNT_FEN) / 100, maxText, positive })),
  };
}

/** A whole number within [min, max], refused with a message outside it rather than clamped (e.g. 延时周期 in seconds). */
export function wholeRule(min: number, max: number, unit: string): Rule {
  return { validator: (_, value: string | number | undefined) => refuse(numberTextProblem(value, { decimals: 0, min, minText: `${min} ${unit}`, max, maxText: `${max} ${unit}` })) };
}

/** The delivery area: chosen, and at least down to the city. */
export const areaRules: Rule[] = [
  { required: true, message: '请选择交收地区' },
  { validator: (_, v: string[] | undefined) => (!v || v.length >= 2 ? Promise.resolve() : Promise.reject(new Error('请至少选择到城市'))) },
];
