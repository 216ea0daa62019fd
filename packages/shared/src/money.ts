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
