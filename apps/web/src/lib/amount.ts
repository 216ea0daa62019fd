import { MAX_AMOUNT_FEN, yuanToFen } from '@coalx/shared';
import { yuan } from '@/components/Money';

/**
 * The trader types yuan (at most 2 decimals); the server takes integer fen (DESIGN.md §4). The conversion is
 * string → bigint in shared/money.ts, so no float ever rounds a fen.
 */
export type AmountCheck = { fen: number; error?: undefined } | { fen?: undefined; error: string };

export function parseYuanAmount(value: string | number | null | undefined): AmountCheck {
  if (value === null || value === undefined || String(value).trim() === '') return { error: '请输入金额' };
  const text = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return { error: '请输入正确的金额' };
  if (/\.\d{3,}$/.test(text)) return { error: '金额最多保留两位小数' };
  const fen = yuanToFen(text);
  if (fen === null) return { error: '金额过大，单笔不超过 1000 亿元' };
  if (fen <= 0n) return { error: '金额须大于 0' };
  if (fen > BigInt(MAX_AMOUNT_FEN)) return { error: '金额过大，单笔不超过 1000 亿元' };
  return { fen: Number(fen) };
}

/** A withdrawal cannot exceed the available balance (the server checks again under a row lock). */
export function checkWithdrawAmount(value: string | number | null | undefined, availableFen: number | null | undefined): AmountCheck {
  const parsed = parseYuanAmount(value);
  if (parsed.error !== undefined) return parsed;
  if (availableFen !== null && availableFen !== undefined && parsed.fen > availableFen) {
    return { error: `出金金额不能超过可用余额 ${yuan(availableFen)}` };
  }
  return parsed;
}

/** Integer fen → the yuan text an amount input shows ('1234.5' style, no separators). */
export function fenToYuanInput(fen: number): string {
  const negative = fen < 0;
  const abs = Math.abs(fen);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** antd Form rule built on a check. */
export function amountRule(check: (value: string | number | null | undefined) => AmountCheck) {
  return {
    validator: async (_: unknown, value: string | number | null | undefined) => {
      const result = check(value);
      if (result.error !== undefined) throw new Error(result.error);
    },
  };
}
