import type { QualityAdjustments } from '../contract/schemas';
import { amountFen } from '../money';

/**
 * The quality price adjustment engine (质量价格调整, DESIGN.md §8): one pure function from the contract's rule, the
 * contract price, the accepted lab result and the signed weight to the settled weight, the unit price and one line
 * per adjustment. Percentages are taken to 0.01 % and kcal to 1 kcal so that all arithmetic is on integers.
 *
 * Reading of the clauses (every Qnet,ar belongs to exactly one band, bands are [from, to)):
 * - qnetTiers: per 100 kcal between the value and the basis, taken below the basis and added above it; each tier
 *   counts only the kcal inside it, so above the last tier nothing more is added ("nothing above 5800").
 * - qnetFlatTiers: a flat amount for a value in [from, to), e.g. 4900–5000: −10 元/t on top of the tiers.
 * - rejectBelowQnet: a value strictly below it is rejected and not priced (exactly 4800 is priced).
 * - St,d: each 0.1 % above basisSt takes fenPerStStep; Ad: adTiers per 0.1 % above each band's lower bound,
 *   or (without adTiers) fenPerAdStep per 1 % above basisAd.
 * - prorate: a partial step counts in proportion; otherwise only whole steps count. Each line's amount is
 *   rounded half up to the fen per ton.
 * - Moisture: settled kg = signed kg × (1 − (Mt − pricingMt) / 100) when Mt > pricingMt, rounded half up to the kg
 *   (the plain proportional deduction; the excess percentage points of water are taken off the weight).
 */
export interface LabResult {
  qnet: number;
  mt: number;
  st: number;
  ad: number;
  vdaf?: number | null;
}

export type AdjustmentIndicator = 'qnet' | 'st' | 'ad';

export interface AdjustmentLine {
  indicator: AdjustmentIndicator;
  /** e.g. 发热量 Qnet,ar */
  label: string;
  /** the lab value and the basis, as printed */
  value: string;
  basis: string;
  /** which tier, in words: 5000–5500 kcal/kg，每 100 kcal/kg 10.00 元/吨 */
  tier: string;
  /** steps counted (fractional when prorated) */
  steps: number;
  /** fen per ton, negative = deduction */
  fenPerTon: number;
}

export interface SettlementPricing {
  rejected: boolean;
  /** why it is rejected, in Chinese; '' when priced */
  rejectReason: string;
  contractPriceFen: number;
  /** null when rejected */
  unitPriceFen: number | null;
  lines: AdjustmentLine[];
  signedKg: number;
  moistureDeductedKg: number;
  settledKg: number;
  /** round half up (settled tons × unit price); null when rejected */
  amountFen: number | null;
  /** the moisture deduction in words ('' when none) */
  moistureNote: string;
}

const hundredths = (v: number) => Math.round(v * 100);
const pct = (h: number) => (h / 100).toFixed(2).replace(/\.?0+$/, '');
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** a × b / d rounded half up (away from zero), integers in, integer out. */
function mulDivHalfUp(a: number, b: number, d: number): number {
  const p = BigInt(a) * BigInt(b);
  const neg = p < 0n;
  const abs = neg ? -p : p;
  const q = Number((abs * 2n + BigInt(d)) / (2n * BigInt(d)));
  return neg ? -q : q;
}

/** Steps and amount for `units` of a quantity where one step is `unitsPerStep`. */
function stepped(units: number, unitsPerStep: number, fenPerStep: number, prorate: boolean): { steps: number; fen: number } {
  if (prorate) return { steps: units / unitsPerStep, fen: mulDivHalfUp(units, fenPerStep, unitsPerStep) };
  const steps = Math.floor(units / unitsPerStep);
  return { steps, fen: steps * fenPerStep };
}

function qnetLines(rule: QualityAdjustments, qnet: number, prorate: boolean): AdjustmentLine[] {
  const lines: AdjustmentLine[] = [];
  const base = { indicator: 'qnet' as const, label: '发热量 Qnet,ar', value: `${qnet} kcal/kg`, basis: `${rule.basisQnet} kcal/kg` };
  for (const tier of [...rule.qnetTiers].sort((a, b) => b.from - a.from)) {
    // kcal of this tier between the value and the basis
    const below = Math.max(0, Math.min(tier.to, rule.basisQnet) - Math.max(tier.from, qnet));
    const above = Math.max(0, Math.min(tier.to, qnet) - Math.max(tier.from, rule.basisQnet));
    const units = below || above;
    if (!units) continue;
    const { steps, fen } = stepped(units, 100, tier.fenPer100Kcal, prorate);
    if (!fen) continue;
    lines.push({
      ...base,
      tier: `${tier.from}–${tier.to} kcal/kg，每${below ? '低于' : '高于'}基准 100 kcal/kg ${below ? '减' : '加'} ${yuan(tier.fenPer100Kcal)} 元/吨（本档 ${units} kcal/kg）`,
      steps,
      fenPerTon: below ? -fen : fen,
    });
  }
  for (const tier of rule.qnetFlatTiers ?? []) {
    if (qnet < tier.from || qnet >= tier.to || !tier.fen) continue;
    lines.push({ ...base, tier: `${tier.from}–${tier.to} kcal/kg，固定${tier.fen < 0 ? '减' : '加'} ${yuan(Math.abs(tier.fen))} 元/吨`, steps: 1, fenPerTon: tier.fen });
  }
  return lines;
}

function stLine(rule: QualityAdjustments, st: number, prorate: boolean): AdjustmentLine[] {
  const excess = hundredths(st) - hundredths(rule.basisSt);
  if (excess <= 0 || !rule.fenPerStStep) return [];
  const { steps, fen } = stepped(excess, 10, rule.fenPerStStep, prorate);
  if (!fen) return [];
  return [{
    indicator: 'st',
    label: '全硫 St,d',
    value: `${pct(hundredths(st))}%`,
    basis: `${pct(hundredths(rule.basisSt))}%`,
    tier: `每高于基准 0.1% 减 ${yuan(rule.fenPerStStep)} 元/吨（超出 ${pct(excess)}%）`,
    steps,
    fenPerTon: -fen,
  }];
}

function adLines(rule: QualityAdjustments, ad: number, prorate: boolean): AdjustmentLine[] {
  const value = hundredths(ad);
  const base = { indicator: 'ad' as const, label: '灰分 Ad', value: `${pct(value)}%` };
  if (rule.adTiers?.length) {
    const lines: AdjustmentLine[] = [];
    for (const tier of [...rule.adTiers].sort((a, b) => a.from - b.from)) {
      const from = hundredths(tier.from);
      const units = Math.max(0, Math.min(value, hundredths(tier.to)) - from);
      if (!units || !tier.fenPerStep) continue;
      const { steps, fen } = stepped(units, 10, tier.fenPerStep, prorate);
      if (!fen) continue;
      lines.push({
        ...base,
        basis: `${pct(from)}%`,
        tier: `${pct(from)}%–${pct(hundredths(tier.to))}%，每高 0.1% 减 ${yuan(tier.fenPerStep)} 元/吨（本档 ${pct(units)}%）`,
        steps,
        fenPerTon: -fen,
      });
    }
    return lines;
  }
  const excess = value - hundredths(rule.basisAd);
  if (excess <= 0 || !rule.fenPerAdStep) return [];
  const { steps, fen } = stepped(excess, 100, rule.fenPerAdStep, prorate);
  if (!fen) return [];
  return [{ ...base, basis: `${pct(hundredths(rule.basisAd))}%`, tier: `每高于基准 1% 减 ${yuan(rule.fenPerAdStep)} 元/吨（超出 ${pct(excess)}%）`, steps, fenPerTon: -fen }];
}

/** Settled weight after the moisture deduction (see the formula above). */
export function moistureSettledKg(signedKg: number, mt: number, pricingMt: number): { settledKg: number; deductedKg: number } {
  const excess = hundredths(mt) - hundredths(pricingMt);
  if (excess <= 0) return { settledKg: signedKg, deductedKg: 0 };
  const deductedKg = mulDivHalfUp(signedKg, excess, 10_000);
  return { settledKg: signedKg - deductedKg, deductedKg };
}

export function priceSettlement(input: {
  rule: QualityAdjustments;
  contractPriceFen: number;
  lab: LabResult;
  signedKg: number;
}): SettlementPricing {
  const { rule, contractPriceFen, lab, signedKg } = input;
  const prorate = rule.prorate ?? false;
  const { settledKg, deductedKg } = moistureSettledKg(signedKg, lab.mt, rule.pricingMt);
  const moistureNote = deductedKg
    ? `全水分 Mt ${pct(hundredths(lab.mt))}% 超过计价全水分 ${pct(hundredths(rule.pricingMt))}%，按 签收重量 ×（1 −（${pct(hundredths(lab.mt))} − ${pct(hundredths(rule.pricingMt))}）÷ 100）扣减 ${(deductedKg / 1000).toFixed(2)} 吨`
    : '';
  const common = { contractPriceFen, signedKg, moistureDeductedKg: deductedKg, settledKg, moistureNote };
  if (rule.rejectBelowQnet > 0 && lab.qnet < rule.rejectBelowQnet) {
    return {
      ...common,
      rejected: true,
      rejectReason: `发热量 Qnet,ar ${lab.qnet} kcal/kg 低于拒收标准 ${rule.rejectBelowQnet} kcal/kg，不按质量条款计价`,
      unitPriceFen: null,
      lines: [],
      amountFen: null,
    };
  }
  const lines = [...qnetLines(rule, lab.qnet, prorate), ...stLine(rule, lab.st, prorate), ...adLines(rule, lab.ad, prorate)];
  const unitPriceFen = Math.max(0, contractPriceFen + lines.reduce((sum, line) => sum + line.fenPerTon, 0));
  return { ...common, rejected: false, rejectReason: '', unitPriceFen, lines, amountFen: Number(amountFen(unitPriceFen, settledKg)) };
}
