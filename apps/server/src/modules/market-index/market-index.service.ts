import { formatDateTime, formatFen, type IndexTermPoint, type IndexTermSamples, type MarketIndex } from '@coalx/shared';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { marketIndex, marketIndexSamples } from '../../db/schema/index';
import { badRequest, conflict } from '../../errors';
import { shanghaiDate } from '../../lib/shanghai-time';
import { publish } from '../../lib/events';
import { dealsByIds } from '../deal/deal.service';
import { sampleWeek, weightedPrice, type SampleChoice } from './index-samples';

/** The product the index follows: 5500 kcal thermal coal. */
export const INDEX_STOCK_CODE = 'DLM5500';

function present(row: typeof marketIndex.$inferSelect): MarketIndex {
  return {
    currentYear: row.currentYear,
    currentTerm: row.currentTerm,
    totalTerm: row.totalTerm,
    quoteDate: row.quoteDate,
    price: row.priceFen,
    rise: row.riseFen,
    dealCount: row.dealCount,
    dealTonnage: row.dealTonnageKg,
  };
}

export async function latestIndex(db: Db): Promise<MarketIndex | null> {
  const [row] = await db.select().from(marketIndex).orderBy(desc(marketIndex.totalTerm)).limit(1);
  return row ? present(row) : null;
}

export async function indexHistory(db: Db, limit: number): Promise<MarketIndex[]> {
  const rows = await db.select().from(marketIndex).orderBy(desc(marketIndex.totalTerm)).limit(limit);
  return rows.reverse().map(present);
}

/** Monday 00:00 Asia/Shanghai of ISO week `term` of `year`, as an instant. */
export function isoWeekStart(year: number, term: number): Date {
  const jan4 = Date.UTC(year, 0, 4);
  const jan4Weekday = (new Date(jan4).getUTCDay() + 6) % 7; // Monday 0
  const week1Monday = jan4 - jan4Weekday * 86400_000;
  return new Date(week1Monday + (term - 1) * 7 * 86400_000 - 8 * 3600_000);
}

/** The ISO week (year, term) of an instant in Asia/Shanghai. */
export function isoWeekOf(instant: Date): { year: number; term: number } {
  const local = new Date(instant.getTime() + 8 * 3600_000);
  const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
  // the ISO week belongs to the year of its Thursday
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return { year: day.getUTCFullYear(), term: Math.ceil(((day.getTime() - yearStart) / 86400_000 + 1) / 7) };
}

/**
 * What the platform's own deals say the term's index is: the tonnage-weighted average price of the 5500 kcal
 * thermal coal dealt in that week (listing and auction deals alike) that the method samples (index-samples.ts:
 * cancelled deals, self-dealing and prices far from the week's median are left out), with how many deals and tons
 * it rests on.
 */
export async function proposeIndex(db: Db | Tx, year: number, term: number) {
  const from = isoWeekStart(year, term);
  const to = new Date(from.getTime() + 7 * 86400_000);
  const samples = await sampleWeek(db, INDEX_STOCK_CODE, from, to);
  const included = samples.filter((s) => s.included);
  const previous = await previousTerm(db, year, term);
  return {
    currentYear: year,
    currentTerm: term,
    from: formatDateTime(from),
    to: formatDateTime(new Date(to.getTime() - 1000)),
    price: weightedPrice(samples),
    dealCount: included.length,
    dealTonnage: included.reduce((sum, s) => sum + s.quantityKg, 0),
    previousPrice: previous?.priceFen ?? null,
    samples,
  };
}

async function previousTerm(db: Db | Tx, year: number, term: number) {
  const [row] = await db
    .select()
    .from(marketIndex)
    .where(sql`(${marketIndex.currentYear}, ${marketIndex.currentTerm}) < (${year}, ${term})`)
    .orderBy(desc(marketIndex.currentYear), desc(marketIndex.currentTerm))
    .limit(1);
  return row ?? null;
}

/**
 * Publishes (or corrects) a term's value; the change is against the previous published term. The week's sample
 * deals are stored with the term in the same transaction, and a term with sampled deals is published at their
 * weighted average only: the index can always be recomputed from what the method page shows. A week without
 * sampled deals is the operator's own quote (the page says so).
 */
export async function publishIndex(db: Db, userId: number | null, input: { currentYear: number; currentTerm: number; quoteDate: string; price: number }) {
  return db.transaction(async (tx) => {
    const proposal = await proposeIndex(tx, input.currentYear, input.currentTerm);
    if (proposal.price !== null && proposal.price !== input.price) {
      throw badRequest(`本期有 ${proposal.dealCount} 笔样本成交，指数须等于样本加权均价 ${formatFen(proposal.price)} 元/吨`);
    }
    const previous = await previousTerm(tx, input.currentYear, input.currentTerm);
    const rise = previous ? input.price - previous.priceFen : 0;
    const [existing] = await tx.select().from(marketIndex).where(and(eq(marketIndex.currentYear, input.currentYear), eq(marketIndex.currentTerm, input.currentTerm))).limit(1);
    const values = { quoteDate: input.quoteDate, priceFen: input.price, riseFen: rise, dealCount: proposal.dealCount, dealTonnageKg: proposal.dealTonnage, publishedBy: userId, updatedAt: new Date() };
    let row: typeof marketIndex.$inferSelect;
    if (existing) {
      [row] = (await tx.update(marketIndex).set(values).where(eq(marketIndex.id, existing.id)).returning()) as [typeof marketIndex.$inferSelect];
    } else {
      const [latest] = await tx.select().from(marketIndex).orderBy(desc(marketIndex.totalTerm)).limit(1);
      if (latest && (latest.currentYear > input.currentYear || (latest.currentYear === input.currentYear && latest.currentTerm > input.currentTerm))) {
        throw conflict('只能发布最新一期之后的指数，或修改已发布的一期');
      }
      [row] = (await tx
        .insert(marketIndex)
        .values({ ...values, currentYear: input.currentYear, currentTerm: input.currentTerm, totalTerm: (latest?.totalTerm ?? 0) + 1 })
        .returning()) as [typeof marketIndex.$inferSelect];
    }
    await storeSamples(tx, row.id, proposal.samples);
    await publish(tx, 'market_index.published', { year: input.currentYear, term: input.currentTerm });
    return present(row);
  });
}

/** The term's samples as of now (a correction replaces those of the earlier publication). */
export async function storeSamples(tx: Tx, indexId: number, samples: readonly SampleChoice[]) {
  await tx.delete(marketIndexSamples).where(eq(marketIndexSamples.indexId, indexId));
  if (samples.length === 0) return;
  await tx.insert(marketIndexSamples).values(samples.map((s) => ({ indexId, dealId: s.dealId, included: s.included, exclusionReason: s.exclusionReason, priceFen: s.priceFen, quantityKg: s.quantityKg })));
}

/** Deal numbers shown on the public method page: the trade day stays, the sequence is partly hidden. */
export function maskDealNo(dealNo: string): string {
  if (dealNo.length <= 6) return `${dealNo.slice(0, 2)}****`;
  return `${dealNo.slice(0, dealNo.length - 4)}**${dealNo.slice(-2)}`;
}

/**
 * One published term with its stored samples for the public method page: masked deal numbers, the deal's Shanghai
 * date, price and tonnage, and each exclusion's reason; no enterprise names. Null for an unpublished term.
 */
export async function indexTermSamples(db: Db, year: number, term: number): Promise<IndexTermSamples | null> {
  const [row] = await db.select().from(marketIndex).where(and(eq(marketIndex.currentYear, year), eq(marketIndex.currentTerm, term))).limit(1);
  if (!row) return null;
  const samples = await db.select().from(marketIndexSamples).where(eq(marketIndexSamples.indexId, row.id)).orderBy(marketIndexSamples.id);
  const deals = new Map((await dealsByIds(db, samples.map((s) => s.dealId))).map((d) => [d.id, d]));
  const from = isoWeekStart(year, term);
  return {
    ...present(row),
    weekFrom: shanghaiDate(from),
    weekTo: shanghaiDate(new Date(from.getTime() + 6 * 86400_000)),
    samplePrice: weightedPrice(samples),
    samples: samples.map((s) => {
      const deal = deals.get(s.dealId);
      return {
        dealNo: maskDealNo(deal?.dealNo ?? ''),
        tradeKind: deal?.tradeKind === 'auction' ? '竞价' : '挂牌',
        dealDate: deal ? shanghaiDate(deal.createdAt) : '',
        price: s.priceFen,
        quantity: s.quantityKg,
        included: s.included,
        exclusionReason: s.exclusionReason,
      };
    }),
  };
}

/** Every term quoted before `day` (YYYY-MM-DD), oldest first, as long-term pricing reads them. */
export async function indexTermsBefore(db: Db | Tx, day: string): Promise<IndexTermPoint[]> {
  const rows = await db
    .select({ year: marketIndex.currentYear, term: marketIndex.currentTerm, quoteDate: marketIndex.quoteDate, priceFen: marketIndex.priceFen })
    .from(marketIndex)
    .where(lt(marketIndex.quoteDate, day))
    .orderBy(marketIndex.quoteDate);
  return rows.map((r) => ({ label: `${r.year}年第${r.term}期`, quoteDate: r.quoteDate, priceFen: r.priceFen }));
}
