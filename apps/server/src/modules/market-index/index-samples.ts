import type { Db, Tx } from '../../db/client';
import { contractsOfDeals } from '../contract/contract.service';
import { spotDealsBetween } from '../deal/deal.service';
import { legalPersonsOf } from '../enterprise/enterprise.service';

/** How far (in percent) a deal's price may stand from the week's median price and still be sampled. */
export const INDEX_MAX_DEVIATION_PCT = 20;

/** The exclusion rules of the index method, in the order they are applied (the method page states them). */
export const EXCLUSION_REASONS = {
  cancelled: '成交已取消（合同已作废），不计入',
  selfDealing: '买卖双方为同一企业或同一法定代表人控制的企业（关联交易），不计入',
  deviation: `成交价偏离本期成交价中位数超过 ${INDEX_MAX_DEVIATION_PCT}%，视为异常价格，不计入`,
} as const;

export interface CandidateDeal {
  dealId: number;
  priceFen: number;
  quantityKg: number;
  sellerEnterpriseId: number;
  buyerEnterpriseId: number;
}

export interface SampleChoice {
  dealId: number;
  included: boolean;
  exclusionReason: string | null;
  priceFen: number;
  quantityKg: number;
}

/** The median of prices (the mean of the middle two for an even count). */
export function medianOf(prices: readonly number[]): number | null {
  if (prices.length === 0) return null;
  const sorted = [...prices].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Which of a week's deals the index rests on. In order: a cancelled deal (its contract voided) is out; a deal
 * between one enterprise, or two enterprises with the same legal person, is out (self-dealing says nothing of the
 * market); of the rest, a price more than INDEX_MAX_DEVIATION_PCT % from their median is out.
 */
export function chooseSamples(candidates: readonly CandidateDeal[], voided: ReadonlySet<number>, legalPersons: ReadonlyMap<number, string>): SampleChoice[] {
  const sameGroup = (d: CandidateDeal) => {
    if (d.sellerEnterpriseId === d.buyerEnterpriseId) return true;
    const seller = legalPersons.get(d.sellerEnterpriseId);
    return !!seller && seller === legalPersons.get(d.buyerEnterpriseId);
  };
  const first = candidates.map((d) => ({
    deal: d,
    reason: voided.has(d.dealId) ? EXCLUSION_REASONS.cancelled : sameGroup(d) ? EXCLUSION_REASONS.selfDealing : null,
  }));
  const median = medianOf(first.filter((c) => c.reason === null).map((c) => c.deal.priceFen));
  return first.map(({ deal, reason }) => {
    // compared in whole numbers: |price − median| × 100 > median × pct
    const deviates = reason === null && median !== null && Math.abs(deal.priceFen - median) * 100 > median * INDEX_MAX_DEVIATION_PCT;
    const why = reason ?? (deviates ? EXCLUSION_REASONS.deviation : null);
    return { dealId: deal.dealId, included: why === null, exclusionReason: why, priceFen: deal.priceFen, quantityKg: deal.quantityKg };
  });
}

/** The tonnage-weighted average price of the included samples, half up to the fen; null without any. */
export function weightedPrice(samples: readonly Pick<SampleChoice, 'included' | 'priceFen' | 'quantityKg'>[]): number | null {
  let tonnage = 0n;
  let weighted = 0n;
  for (const s of samples) {
    if (!s.included) continue;
    tonnage += BigInt(s.quantityKg);
    weighted += BigInt(s.priceFen) * BigInt(s.quantityKg);
  }
  return tonnage > 0n ? Number((weighted * 2n + tonnage) / (2n * tonnage)) : null;
}

/** The week's deals of the index product, each included or excluded with its reason. */
export async function sampleWeek(db: Db | Tx, stockCode: string, from: Date, to: Date): Promise<SampleChoice[]> {
  const deals = await spotDealsBetween(db, stockCode, from, to);
  if (deals.length === 0) return [];
  const ids = deals.map((d) => d.id);
  const voided = new Set((await contractsOfDeals(db, ids)).filter((c) => c.status === 'voided').map((c) => c.dealId!));
  const legalPersons = await legalPersonsOf(db, deals.flatMap((d) => [d.sellerEnterpriseId, d.buyerEnterpriseId]));
  return chooseSamples(
    deals.map((d) => ({ dealId: d.id, priceFen: d.priceFen, quantityKg: d.quantityKg, sellerEnterpriseId: d.sellerEnterpriseId, buyerEnterpriseId: d.buyerEnterpriseId })),
    voided,
    legalPersons,
  );
}
