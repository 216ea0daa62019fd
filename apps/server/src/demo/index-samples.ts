import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { marketIndex } from '../db/schema/index';
import { proposeIndex, storeSamples } from '../modules/market-index/market-index.service';

/**
 * The demo's published index terms get the samples publishing would have stored: the demo's own deals of each
 * term's week. A week with sampled deals is priced at their weighted average, as publishing requires (and the next
 * term's change follows); a week without any keeps its quote, and the method page says it has no samples.
 */
export async function sampleDemoIndexTerms(db: Db): Promise<number> {
  let sampled = 0;
  await db.transaction(async (tx) => {
    const terms = await tx.select().from(marketIndex).orderBy(asc(marketIndex.currentYear), asc(marketIndex.currentTerm));
    let previousPrice: number | null = null;
    for (const term of terms) {
      const proposal = await proposeIndex(tx, term.currentYear, term.currentTerm);
      const price = proposal.price ?? term.priceFen;
      await tx
        .update(marketIndex)
        .set({
          priceFen: price,
          riseFen: previousPrice === null ? term.riseFen : price - previousPrice,
          dealCount: proposal.dealCount,
          dealTonnageKg: proposal.dealTonnage,
        })
        .where(eq(marketIndex.id, term.id));
      await storeSamples(tx, term.id, proposal.samples);
      if (proposal.samples.length > 0) sampled++;
      previousPrice = price;
    }
  });
  return sampled;
}
