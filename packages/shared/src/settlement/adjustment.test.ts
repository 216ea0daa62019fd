import { describe, expect, it } from 'vitest';
import { QualityAdjustmentsSchema, type QualityAdjustments } from '../contract/schemas';
import { defaultQualityAdjustments } from '../contract/template';
import { moistureSettledKg, priceSettlement, type LabResult } from './adjustment';

/** The real clauses (5500 kcal steam coal, 650 元/t). */
const clause: QualityAdjustments = {
  basisQnet: 5500,
  qnetTiers: [
    { from: 5000, to: 5500, fenPer100Kcal: 1000 },
    { from: 5500, to: 5800, fenPer100Kcal: 500 },
  ],
  qnetFlatTiers: [
    { from: 4900, to: 5000, fen: -1000 },
    { from: 4800, to: 4900, fen: -2000 },
  ],
  rejectBelowQnet: 4800,
  basisSt: 0.8,
  fenPerStStep: 500,
  basisAd: 11,
  fenPerAdStep: 0,
  adTiers: [
    { from: 11, to: 11.5, fenPerStep: 300 },
    { from: 11.5, to: 100, fenPerStep: 600 },
  ],
  pricingMt: 8,
};
const PRICE = 65_000;
const clean: LabResult = { qnet: 5500, mt: 8, st: 0.8, ad: 11 };
const price = (lab: Partial<LabResult>, rule: QualityAdjustments = clause, signedKg = 100_000) =>
  priceSettlement({ rule, contractPriceFen: PRICE, lab: { ...clean, ...lab }, signedKg });
const unit = (qnet: number, rule?: QualityAdjustments) => price({ qnet }, rule).unitPriceFen;

describe('quality price adjustment engine', () => {
  it('accepts the clauses as contract data', () => {
    expect(QualityAdjustmentsSchema.safeParse(clause).success).toBe(true);
  });

  it('prices at the basis with no lines', () => {
    const p = price({});
    expect(p).toMatchObject({ rejected: false, unitPriceFen: PRICE, lines: [], settledKg: 100_000, amountFen: 6_500_000 });
  });

  it('Qnet,ar 5000–5500: −10 元/t per 100 kcal; exactly 5000 is −50', () => {
    expect(unit(5400)).toBe(PRICE - 1000);
    expect(unit(5000)).toBe(PRICE - 5000);
    const line = price({ qnet: 5200 }).lines[0]!;
    expect(line).toMatchObject({ indicator: 'qnet', steps: 3, fenPerTon: -3000 });
    expect(line.tier).toContain('5000–5500');
  });

  it('Qnet,ar 5500–5800: +5 元/t per 100 kcal, nothing above 5800; exactly 5500 and 5800', () => {
    expect(unit(5500)).toBe(PRICE);
    expect(unit(5600)).toBe(PRICE + 500);
    expect(unit(5800)).toBe(PRICE + 1500);
    expect(unit(6200)).toBe(PRICE + 1500);
  });

  it('4900–5000 −10 and 4800–4900 −20 on top; exactly 4800 is priced, below it is rejected', () => {
    expect(unit(4950)).toBe(PRICE - 5000 - 1000);
    expect(unit(4900)).toBe(PRICE - 5000 - 1000);
    expect(unit(4899)).toBe(PRICE - 5000 - 2000);
    expect(unit(4800)).toBe(PRICE - 5000 - 2000);
    const rejected = price({ qnet: 4799 });
    expect(rejected).toMatchObject({ rejected: true, unitPriceFen: null, amountFen: null, lines: [] });
    expect(rejected.rejectReason).toContain('低于拒收标准 4800');
  });

  it('whole steps only unless the rule prorates', () => {
    expect(unit(5450)).toBe(PRICE);
    expect(unit(5250)).toBe(PRICE - 2000);
    const prorated = { ...clause, prorate: true };
    expect(unit(5450, prorated)).toBe(PRICE - 500);
    expect(unit(5633, prorated)).toBe(PRICE + 665); // 133 kcal × 5 元 / 100 = 6.65 元
    expect(unit(5001, prorated)).toBe(PRICE - 4990);
  });

  it('St,d +0.1 % → −5 元/t; below the basis no premium', () => {
    expect(price({ st: 1.1 }).unitPriceFen).toBe(PRICE - 1500);
    expect(price({ st: 0.85 }).unitPriceFen).toBe(PRICE);
    expect(price({ st: 0.85 }, { ...clause, prorate: true }).unitPriceFen).toBe(PRICE - 250);
    expect(price({ st: 0.5 }).unitPriceFen).toBe(PRICE);
  });

  it('Ad 11–11.5 % −3 元/t per 0.1 %, above 11.5 % −6 元/t per 0.1 %', () => {
    expect(price({ ad: 11.3 }).unitPriceFen).toBe(PRICE - 900);
    expect(price({ ad: 11.5 }).unitPriceFen).toBe(PRICE - 1500);
    const p = price({ ad: 12 });
    expect(p.unitPriceFen).toBe(PRICE - 1500 - 3000);
    expect(p.lines.map((l) => l.fenPerTon)).toEqual([-1500, -3000]);
    expect(price({ ad: 10 }).unitPriceFen).toBe(PRICE);
  });

  it('moisture above 8 % is deducted from the weight in proportion', () => {
    expect(moistureSettledKg(100_000, 9.5, 8)).toEqual({ settledKg: 98_500, deductedKg: 1_500 });
    expect(moistureSettledKg(33_333, 8.05, 8)).toEqual({ settledKg: 33_316, deductedKg: 17 }); // 16.67 → 17
    expect(moistureSettledKg(100_000, 7, 8)).toEqual({ settledKg: 100_000, deductedKg: 0 });
    const p = price({ mt: 10 });
    expect(p).toMatchObject({ settledKg: 98_000, moistureDeductedKg: 2_000, amountFen: 6_370_000 });
    expect(p.moistureNote).toContain('扣减 2.00 吨');
  });

  it('rounds the amount half up to the fen', () => {
    // 1.005 t × 650.01 元 = 653.26005 元 → 65326 fen; 0.001 t × 5.00 元 = 0.5 分 → 1 fen
    expect(priceSettlement({ rule: clause, contractPriceFen: 65_001, lab: clean, signedKg: 1_005 }).amountFen).toBe(65_326);
    expect(priceSettlement({ rule: clause, contractPriceFen: 500, lab: clean, signedKg: 1 }).amountFen).toBe(1);
    // a prorated line rounds half up per ton: 5 kcal × 10 元 / 100 = 0.50 元; 1 kcal → 0.1 元
    expect(unit(5495, { ...clause, prorate: true })).toBe(PRICE - 50);
  });

  it('combines every indicator in one unit price', () => {
    const p = price({ qnet: 5230, st: 1.0, ad: 11.2, mt: 9 });
    expect(p.lines.map((l) => [l.indicator, l.fenPerTon])).toEqual([
      ['qnet', -2000],
      ['st', -1000],
      ['ad', -600],
    ]);
    expect(p.unitPriceFen).toBe(PRICE - 3600);
    expect(p.settledKg).toBe(99_000);
    expect(p.amountFen).toBe(Math.round(((PRICE - 3600) * 99_000) / 1000));
  });

  it('works on the contracts made before (per 1 % Ad, no flat tiers, no prorate flag)', () => {
    const legacy = defaultQualityAdjustments({ qnet: 5000, st: 1.2, ad: 18, mt: 10 });
    const p = priceSettlement({ rule: legacy, contractPriceFen: PRICE, lab: { qnet: 4800, mt: 10, st: 1.2, ad: 19.5 }, signedKg: 1000 });
    expect(p.lines.map((l) => l.fenPerTon)).toEqual([-2000, -300]);
  });

  it('property: raising Qnet,ar never lowers the price', () => {
    let seed = 20260615;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const rules = [clause, { ...clause, prorate: true }, defaultQualityAdjustments({ qnet: 5000 }), defaultQualityAdjustments({ qnet: 6000 })];
    for (let i = 0; i < 5000; i++) {
      const rule = rules[i % rules.length]!;
      const lab = { qnet: 4000 + Math.floor(rand() * 3000), mt: 6 + rand() * 6, st: rand() * 2, ad: 8 + rand() * 10 };
      const higher = lab.qnet + 1 + Math.floor(rand() * 400);
      const a = priceSettlement({ rule, contractPriceFen: PRICE, lab, signedKg: 30_000 });
      const b = priceSettlement({ rule, contractPriceFen: PRICE, lab: { ...lab, qnet: higher }, signedKg: 30_000 });
      if (a.rejected) continue;
      expect(b.rejected, `${lab.qnet} → ${higher}`).toBe(false);
      expect(b.unitPriceFen!, `${lab.qnet} → ${higher}`).toBeGreaterThanOrEqual(a.unitPriceFen!);
    }
  });
});
