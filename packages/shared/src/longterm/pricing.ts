/**
 * A long-term deal's monthly price (DESIGN.md §8 "Long-term deals"), pure so the server, the offer form's preview
 * and the tests compute it the same way. Money in integer fen; the coefficient and the heat factor in ten-thousandths
 * (0.5 → 5000) so no float ever touches money.
 *
 * The price of month M is fixed on M's first day from what is published by then: the average of the index terms
 * quoted in the month before (取价月, four or five weekly terms). A month before which no term was quoted in the
 * month before takes the last term known before M (the contract's rule); with no term at all the float is 0.
 *   float = coefficient × (average − base reference), half away from zero to the fen
 *   price = base price + float
 */
export type PricingMode = 'fixed' | 'index';
export const PRICING_MODES: Record<PricingMode, string> = { fixed: '固定价格', index: '基准价 + 浮动价' };

export interface LongTermPricing {
  mode: PricingMode;
  /** 固定价格 or 基准价, fen per ton */
  basePriceFen: number;
  /** 浮动系数 × 10000 (index mode) */
  coefficientE4: number;
  /** 基准参考值: the index level at which the float is 0, fen per ton (index mode) */
  referenceFen: number;
  /** the contract's own factor for the reasonable range × 10000; null: Qnet,ar / 5500 */
  heatFactorE4: number | null;
}

/** One published index term as the price uses it. */
export interface IndexTermPoint {
  /** 2026年第45期 */
  label: string;
  /** YYYY-MM-DD */
  quoteDate: string;
  priceFen: number;
}

export type PriceBasis = 'fixed' | 'month_average' | 'last_known' | 'no_index';
export const PRICE_BASIS_TEXT: Record<PriceBasis, string> = {
  fixed: '固定价格',
  month_average: '取价月指数均值',
  last_known: '取价月无指数，取最近一期',
  no_index: '尚无指数，浮动价为 0',
};

export interface MonthPrice {
  /** YYYY-MM */
  month: string;
  /** the month whose terms are averaged: the one before */
  sourceMonth: string;
  priceFen: number;
  basePriceFen: number;
  floatFen: number;
  /** the terms' average, half up to the fen (display; the float uses the exact average) */
  averageFen: number | null;
  basis: PriceBasis;
  terms: IndexTermPoint[];
  rangeMinFen: number;
  rangeMaxFen: number;
  /** 月度价格超出合理区间 … or null */
  warning: string | null;
}

/** 5500 kcal: the heat value the index and the reasonable range are quoted for. */
export const INDEX_HEAT_VALUE = 5500;

const MONTH = /^(\d{4})-(\d{2})$/;

/** A real month written YYYY-MM. */
export function isMonth(text: string): boolean {
  const m = MONTH.exec(text);
  return !!m && Number(m[1]) >= 2000 && Number(m[1]) <= 2100 && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every month from `from` to `to`, both included (empty when `to` is before `from`). */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = from; m <= to && months.length < 1200; m = addMonths(m, 1)) months.push(m);
  return months;
}

/** The first and last calendar day of a month, YYYY-MM-DD. */
export function monthDays(month: string): { first: string; last: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(last).padStart(2, '0')}` };
}

/** 2027-01 → 2027年01月 */
export function monthText(month: string): string {
  return `${month.slice(0, 4)}年${month.slice(5, 7)}月`;
}

/** Half away from zero of num / den (den > 0). */
function roundDiv(num: bigint, den: bigint): bigint {
  const sign = num < 0n ? -1n : 1n;
  const abs = num < 0n ? -num : num;
  return sign * ((abs * 2n + den) / (2n * den));
}

/** The reasonable range for the contract's coal: the 5500 kcal range scaled by Qnet,ar / 5500 or the contract's factor. */
export function reasonableRange(range5500: { minFen: number; maxFen: number }, qnet: number | null | undefined, heatFactorE4: number | null) {
  const [num, den] = heatFactorE4 !== null ? [BigInt(heatFactorE4), 10_000n] : qnet ? [BigInt(qnet), BigInt(INDEX_HEAT_VALUE)] : [1n, 1n];
  return { minFen: Number(roundDiv(BigInt(range5500.minFen) * num, den)), maxFen: Number(roundDiv(BigInt(range5500.maxFen) * num, den)) };
}

function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

/**
 * The price of `month` under `pricing`, from every published term (any order; only those quoted before the month
 * count). `qnet` is the contract's heat value for the range.
 */
export function monthPrice(
  pricing: LongTermPricing,
  month: string,
  published: readonly IndexTermPoint[],
  qnet: number | null | undefined,
  range5500: { minFen: number; maxFen: number },
): MonthPrice {
  const sourceMonth = addMonths(month, -1);
  const before = published.filter((t) => t.quoteDate < `${month}-01`).sort((a, b) => (a.quoteDate < b.quoteDate ? -1 : 1));
  let basis: PriceBasis;
  let terms: IndexTermPoint[] = [];
  let floatFen = 0;
  let averageFen: number | null = null;
  if (pricing.mode === 'fixed') {
    basis = 'fixed';
  } else {
    terms = before.filter((t) => t.quoteDate.startsWith(sourceMonth));
    basis = 'month_average';
    if (terms.length === 0 && before.length > 0) {
      terms = [before[before.length - 1]!];
      basis = 'last_known';
    }
    if (terms.length === 0) {
      basis = 'no_index';
    } else {
      const n = BigInt(terms.length);
      const sum = terms.reduce((s, t) => s + BigInt(t.priceFen), 0n);
      averageFen = Number(roundDiv(sum, n));
      floatFen = Number(roundDiv(BigInt(pricing.coefficientE4) * (sum - n * BigInt(pricing.referenceFen)), n * 10_000n));
    }
  }
  const priceFen = pricing.basePriceFen + floatFen;
  const range = reasonableRange(range5500, qnet, pricing.heatFactorE4);
  const warning =
    priceFen < range.minFen || priceFen > range.maxFen
      ? `月度价格 ${yuan(priceFen)} 元/吨超出合理区间 ${yuan(range.minFen)}–${yuan(range.maxFen)} 元/吨`
      : null;
  return {
    month,
    sourceMonth,
    priceFen,
    basePriceFen: pricing.basePriceFen,
    floatFen,
    averageFen,
    basis,
    terms,
    rangeMinFen: range.minFen,
    rangeMaxFen: range.maxFen,
    warning,
  };
}

/** 履约率 in percent with one decimal (delivered / planned), null when nothing was planned. */
export function fulfilmentRate(deliveredKg: number, plannedKg: number): number | null {
  if (plannedKg <= 0) return null;
  return Math.round((deliveredKg * 1000) / plannedKg) / 10;
}
