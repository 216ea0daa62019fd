import { formatDateTime, type IndexTermPoint, type MarketIndex } from '@coalx/shared';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { marketIndex } from '../../db/schema/index';
import { conflict } from '../../errors';
import { publish } from '../../lib/events';
import { dealVolume } from '../deal/deal.service';

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
 * What the platform's own deals say the term's index is: the tonnage-weighted average price of 5500 kcal thermal
 * coal dealt in that week (listing and auction deals alike), with how many deals and tons it rests on.
 */
export async function proposeIndex(db: Db, year: number, term: number) {
  const from = isoWeekStart(year, term);
  const to = new Date(from.getTime() + 7 * 86400_000);
  const volume = await dealVolume(db, INDEX_STOCK_CODE, from, to);
  const tonnage = volume.tonnageKg;
  const weighted = volume.weightedFenKg;
  // weighted / tonnage, rounded half up to the fen
  const price = tonnage > 0n ? Number((weighted * 2n + tonnage) / (2n * tonnage)) : null;
  const previous = await previousTerm(db, year, term);
  return {
    currentYear: year,
    currentTerm: term,
    from: formatDateTime(from),
    to: formatDateTime(new Date(to.getTime() - 1000)),
    price,
    dealCount: volume.count,
    dealTonnage: Number(tonnage),
    previousPrice: previous?.priceFen ?? null,
  };
}

async function previousTerm(db: Db, year: number, term: number) {
  const [row] = await db
    .select()
    .from(marketIndex)
    .where(sql`(${marketIndex.currentYear}, ${marketIndex.currentTerm}) < (${year}, ${term})`)
    .orderBy(desc(marketIndex.currentYear), desc(marketIndex.currentTerm))
    .limit(1);
  return row ?? null;
}

/** Publishes (or corrects) a term's value; the change is against the previous published term. */
export async function publishIndex(db: Db, userId: number | null, input: { currentYear: number; currentTerm: number; quoteDate: string; price: number }) {
  const proposal = await proposeIndex(db, input.currentYear, input.currentTerm);
  const previous = await previousTerm(db, input.currentYear, input.currentTerm);
  const rise = previous ? input.price - previous.priceFen : 0;
  const [existing] = await db.select().from(marketIndex).where(and(eq(marketIndex.currentYear, input.currentYear), eq(marketIndex.currentTerm, input.currentTerm))).limit(1);
  const values = { quoteDate: input.quoteDate, priceFen: input.price, riseFen: rise, dealCount: proposal.dealCount, dealTonnageKg: proposal.dealTonnage, publishedBy: userId, updatedAt: new Date() };
  if (existing) {
    const [updated] = await db.update(marketIndex).set(values).where(eq(marketIndex.id, existing.id)).returning();
    await publish(db, 'market_index.published', { year: input.currentYear, term: input.currentTerm });
    return present(updated!);
  }
  const [latest] = await db.select().from(marketIndex).orderBy(desc(marketIndex.totalTerm)).limit(1);
  if (latest && (latest.currentYear > input.currentYear || (latest.currentYear === input.currentYear && latest.currentTerm > input.currentTerm))) {
    throw conflict('只能发布最新一期之后的指数，或修改已发布的一期');
  }
  const [created] = await db
    .insert(marketIndex)
    .values({ ...values, currentYear: input.currentYear, currentTerm: input.currentTerm, totalTerm: (latest?.totalTerm ?? 0) + 1 })
    .returning();
  await publish(db, 'market_index.published', { year: input.currentYear, term: input.currentTerm });
  return present(created!);
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
