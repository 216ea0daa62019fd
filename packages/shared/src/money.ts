/**
 * All money arithmetic (DESIGN.md §4): fen and kilograms are integers, amounts are computed in bigint and rounded
 * half up to the fen in this one place.
 */
export const KG_PER_TON = 1000n;

/** price (fen per ton) × weight (kg) → amount in fen, half up. */
export function amountFen(priceFenPerTon: bigint | number, weightKg: bigint | number): bigint {
  const product = BigInt(priceFenPerTon) * BigInt(weightKg);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + KG_PER_TON / 2n) / KG_PER_TON;
  return negative ? -rounded : rounded;
}

/** '1234.5' yuan (at most 2 decimals) → 123450 fen; null when the text is not such a number. */
export function yuanToFen(text: string): bigint | null {
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const fen = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -fen : fen;
}

/** '20000.5' tons (at most 3 decimals) → kilograms; null when the text is not such a number. */
export function tonsToKg(text: string): bigint | null {
  const match = /^(\d{1,10})(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * KG_PER_TON + BigInt((match[2] ?? '').padEnd(3, '0'));
}

/** Tons as typed (up to 3 decimals) → integer kg as a number; null when it is not such a number. */
export function tonsTextToKg(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const kg = tonsToKg(String(text));
  return kg === null ? null : Number(kg);
}

/** Yuan as typed (≥ 0, up to 2 decimals) → integer fen as a number; null when it is not such a number. */
export function yuanTextToFen(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const fen = yuanToFen(String(text));
  if (fen === null || fen < 0n) return null;
  return Number(fen);
}

/** Integer kg → plain tons text for an input ('5000', '1.5'), the inverse of tonsTextToKg. */
export function kgToTonsText(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = String(kg % 1000).padStart(3, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

/** Integer fen → plain yuan text for an input ('780', '780.5'), the inverse of yuanTextToFen. */
export function fenToYuanText(fen: number): string {
  const whole = Math.trunc(fen / 100);
  const rest = String(fen % 100).padStart(2, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

export const TONS_PATTERN = /^\d{1,10}(\.\d{1,3})?$/;
export const YUAN_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;
