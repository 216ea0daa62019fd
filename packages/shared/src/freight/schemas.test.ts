import { describe, expect, it } from 'vitest';
import { FreightDraftSchema, excessLossKg, freightLineMoney, freightTaxFen, freightTotals } from './schemas';

describe('freight money', () => {
  it('excess loss is the loss beyond the tolerance, in whole kg, and 0 within it', () => {
    // 0.2 % of 40 t is 80 kg
    expect(excessLossKg(40_000, 80, 0.2)).toBe(0);
    expect(excessLossKg(40_000, 100, 0.2)).toBe(20);
    expect(excessLossKg(40_000, -30, 0.2)).toBe(0);
    // 0.2 % of 33,333 kg is 66.666 kg: 67 kg lost is 1 kg beyond
    expect(excessLossKg(33_333, 67, 0.2)).toBe(1);
    expect(excessLossKg(33_333, 66, 0.2)).toBe(0);
  });

  it('a line is rate × signed weight less the excess loss at the order price, half up to the fen', () => {
    // 85.50 元/t × 39.9 t = 3411.45 元; 20 kg × 845.50 元/t = 16.91 元
    expect(freightLineMoney({ signedKg: 39_900, loadedNetKg: 40_000, lossKg: 100, transitLossPct: 0.2, orderPriceFen: 84_550 }, 8_550)).toEqual({
      excessLossKg: 20,
      rateFen: 8_550,
      freightFen: 341_145,
      lossDeductionFen: 1_691,
      lineFen: 339_454,
    });
    // 0.5 fen rounds up: 1 fen/t × 500 kg
    expect(freightLineMoney({ signedKg: 500, loadedNetKg: 500, lossKg: 0, transitLossPct: 0.2, orderPriceFen: 1 }, 1).freightFen).toBe(1);
    expect(freightLineMoney({ signedKg: 499, loadedNetKg: 499, lossKg: 0, transitLossPct: 0.2, orderPriceFen: 1 }, 1).freightFen).toBe(0);
  });

  it('9 % VAT half up and the total', () => {
    expect(freightTaxFen(339_454)).toBe(30_551); // 30550.86
    expect(freightTaxFen(50)).toBe(5); // 4.5 → 5
    expect(freightTaxFen(49)).toBe(4); // 4.41
    const totals = freightTotals([
      { signedKg: 39_900, freightFen: 341_145, lossDeductionFen: 1_691, lineFen: 339_454 },
      { signedKg: 40_000, freightFen: 342_000, lossDeductionFen: 0, lineFen: 342_000 },
    ]);
    expect(totals).toEqual({ trucks: 2, signedKg: 79_900, freightFen: 683_145, lossDeductionFen: 1_691, subtotalFen: 681_454, taxFen: 61_331, totalFen: 742_785 });
  });

  it('refuses negative or huge rates and a period backwards, in Chinese', () => {
    const base = { carrierKind: 'company', carrierName: '晋运物流', periodFrom: '2026-11-01', periodTo: '2026-11-30' };
    expect(FreightDraftSchema.safeParse({ ...base, rateFen: 8_000 }).success).toBe(true);
    const message = (input: object) => FreightDraftSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ ...base, rateFen: -100 })).toBe('运价须大于 0');
    expect(message({ ...base, rateFen: 1e20 })).toBe('运价不超过 1000 元/吨');
    expect(message({ ...base, rateFen: 8_000, periodTo: '2026-10-01' })).toBe('结算结束日期不能早于开始日期');
    expect(message({ ...base, carrierKind: 'driver', carrierName: undefined, rateFen: 8_000 })).toBe('请选择司机');
  });
});
