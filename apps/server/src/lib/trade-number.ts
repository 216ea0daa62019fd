import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { tradeSequences } from '../db/schema/index';
import { shanghaiDate } from './shanghai-time';

/** Shanghai calendar day of an instant, as YYYYMMDD. */
export function shanghaiDay(now: Date): string {
  return shanghaiDate(now).replace(/-/g, '');
}

/**
 * The next human-readable number of a kind and day, e.g. GP202611220001 (DESIGN.md §4). One atomic upsert, so two
 * processes never hand out the same number.
 */
export async function nextTradeNumber(db: Db | Tx, prefix: 'GP' | 'JJ' | 'CJ' | 'DD' | 'PC' | 'JS' | 'YF' | 'CX' | 'DY', now: Date): Promise<string> {
  const day = shanghaiDay(now);
  const [row] = await db
    .insert(tradeSequences)
    .values({ prefix, day, last: 1 })
    .onConflictDoUpdate({ target: [tradeSequences.prefix, tradeSequences.day], set: { last: sql`${tradeSequences.last} + 1` } })
    .returning({ last: tradeSequences.last });
  return `${prefix}${day}${String(row!.last).padStart(4, '0')}`;
}
