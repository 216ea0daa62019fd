import { PRICING_MODES, formatPrice, monthPrice, monthText, type LongTermPricing, type MonthPrice } from '@coalx/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermDeals, longTermMonths, type LongTermDealRow } from '../../db/schema/index';
import { indexTermsBefore } from '../market-index/market-index.service';
import { parameterNumber } from '../system/calendar';
import { shanghaiMonth } from './long-term-deal';

async function priceRange(db: Db | Tx) {
  const [minFen, maxFen] = await Promise.all([parameterNumber(db, 'price_range_5500_min_fen'), parameterNumber(db, 'price_range_5500_max_fen')]);
  return { minFen, maxFen };
}

/** The price `month` gets from the terms published before it (what it is fixed at on its first day). */
export async function priceOfMonth(db: Db | Tx, pricing: LongTermPricing, month: string, qnet: number | null | undefined): Promise<MonthPrice> {
  const terms = pricing.mode === 'index' ? await indexTermsBefore(db, `${month}-01`) : [];
  return monthPrice(pricing, month, terms, qnet, await priceRange(db));
}

/**
 * Fixes the price of every begun month of the deal that has none yet (its first day has come), from the index
 * terms published before it; `WHERE price IS NULL` keeps the first price, so a later index correction never
 * changes a month already priced. Returns how many months were priced.
 */
export async function priceBegunMonths(db: Db | Tx, deal: LongTermDealRow, now: Date): Promise<number> {
  const current = shanghaiMonth(now);
  const open = await db
    .select()
    .from(longTermMonths)
    .where(and(eq(longTermMonths.longTermId, deal.id), isNull(longTermMonths.price), sql`${longTermMonths.month} <= ${current}`));
  let priced = 0;
  for (const month of open) {
    const price = await priceOfMonth(db, deal.pricing, month.month, deal.quality.qnet);
    const done = await db
      .update(longTermMonths)
      .set({ price, pricedAt: now })
      .where(and(eq(longTermMonths.id, month.id), isNull(longTermMonths.price)))
      .returning({ id: longTermMonths.id });
    priced += done.length;
  }
  return priced;
}

/** Job: prices the begun months of every deal in execution (start-up, then hourly; the 1st's are priced at 00:00+). */
export async function priceAllBegunMonths(db: Db, now: Date): Promise<number> {
  const executing = await db.select().from(longTermDeals).where(eq(longTermDeals.status, 'executing'));
  let priced = 0;
  for (const deal of executing) priced += await priceBegunMonths(db, deal, now);
  return priced;
}

/** The framework contract's 定价条款, one paragraph each. */
export function pricingClauses(pricing: LongTermPricing): string[] {
  if (pricing.mode === 'fixed') return [`1. 定价方式：${PRICING_MODES.fixed}。`, `2. 合同期内各月执行价格均为 ${formatPrice(pricing.basePriceFen)}。`];
  return [
    `1. 定价方式：${PRICING_MODES.index}；基准价 ${formatPrice(pricing.basePriceFen)}。`,
    `2. 浮动价 = 浮动系数 ${(pricing.coefficientE4 / 10_000).toFixed(4)} ×（取价月平台动力煤价格指数（5500 大卡）各期均值 − 基准参考值 ${formatPrice(pricing.referenceFen)}），四舍五入到分；取价月为执行月份的上一个月，取价月无指数的，取执行月份前最近一期指数。`,
  ];
}

/** How a month's price was fixed, in one line (the monthly contract's 价格依据). */
export function priceBasisText(price: MonthPrice): string {
  if (price.basis === 'fixed') return `长协固定价格 ${formatPrice(price.priceFen)}`;
  const base = `基准价 ${formatPrice(price.basePriceFen)} ${price.floatFen < 0 ? '−' : '+'} 浮动价 ${formatPrice(Math.abs(price.floatFen))}`;
  if (price.basis === 'no_index') return `${base}（尚无指数）`;
  const terms = price.terms.map((t) => t.label).join('、');
  const source = price.basis === 'month_average' ? `取价月 ${monthText(price.sourceMonth)} 指数均值` : '取价月无指数，取最近一期指数';
  return `${base}（${source} ${formatPrice(price.averageFen ?? 0)}：${terms}）`;
}

/** The pricing in one line (the lists and the export). */
export function pricingTextOf(pricing: LongTermPricing): string {
  if (pricing.mode === 'fixed') return `固定价格 ${formatPrice(pricing.basePriceFen)}`;
  return `基准价 ${formatPrice(pricing.basePriceFen)} + ${(pricing.coefficientE4 / 10_000).toFixed(4)} ×（指数均值 − ${formatPrice(pricing.referenceFen)}）`;
}

/** The price `month` would get today under the given pricing: the offer form's preview. */
export async function pricePreview(db: Db, input: { mode: 'fixed' | 'index'; basePriceFen: number; coefficientE4: number; referenceFen: number; heatFactorE4?: number; qnet?: number; month: string }) {
  const pricing: LongTermPricing = { mode: input.mode, basePriceFen: input.basePriceFen, coefficientE4: input.coefficientE4, referenceFen: input.referenceFen, heatFactorE4: input.heatFactorE4 ?? null };
  return priceOfMonth(db, pricing, input.month, input.qnet);
}
