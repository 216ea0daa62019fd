import type { Rule } from 'antd/es/form';
import { formatFen, TONS_PATTERN, tonsTextToKg, YUAN_PATTERN, yuanTextToFen } from '@coalx/shared';

/** Field rules of the listing and auction publishing forms, saying what the server would refuse before sending. */

/** A quantity in tons: up to 3 decimals, above 0. */
export const tonsRule: Rule = {
  validator: (_, value: string | undefined) => {
    if (!value) return Promise.resolve();
    if (!TONS_PATTERN.test(value)) return Promise.reject(new Error('请输入数字，最多 3 位小数'));
    if ((tonsTextToKg(value) ?? 0) <= 0) return Promise.reject(new Error('须大于 0'));
    return Promise.resolve();
  },
};

/** An amount in yuan: ≥ 0 with up to 2 decimals; `positive` refuses 0, `max` (fen per ton) caps it. */
export function yuanRule({ positive = false, max }: { positive?: boolean; max?: number } = {}): Rule {
  return {
    validator: (_, value: string | undefined) => {
      if (!value) return Promise.resolve();
      if (!YUAN_PATTERN.test(value)) return Promise.reject(new Error('金额须 ≥ 0，最多 2 位小数'));
      const fen = yuanTextToFen(value) ?? 0;
      if (positive && fen <= 0) return Promise.reject(new Error('须大于 0'));
      if (max !== undefined && fen > max) return Promise.reject(new Error(`不能超过 ${formatFen(max)} 元/吨`));
      return Promise.resolve();
    },
  };
}

/** The delivery area: chosen, and at least down to the city. */
export const areaRules: Rule[] = [
  { required: true, message: '请选择交收地区' },
  { validator: (_, v: string[] | undefined) => (!v || v.length >= 2 ? Promise.resolve() : Promise.reject(new Error('请至少选择到城市'))) },
];
