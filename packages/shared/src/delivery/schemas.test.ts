import { describe, expect, it } from 'vitest';
import {
  DisputeRulingSchema,
  QualityReportAnswerSchema,
  QualityReportCreateSchema,
  WeighTicketSchema,
  arrivalTimeProblem,
  loadingOverPlanProblem,
  maxTruckKg,
  planDateProblem,
  transitLoss,
  weighTicketProblem,
} from './schemas';

describe('weighTicketProblem', () => {
  const rated = 40_000;
  it('takes net = gross − tare within the rated load and its overload tolerance', () => {
    expect(weighTicketProblem({ grossKg: 55_000, tareKg: 15_000, netKg: 40_000 }, rated, 10)).toBeNull();
    expect(weighTicketProblem({ grossKg: 59_000, tareKg: 15_000, netKg: 44_000 }, rated, 10)).toBeNull(); // exactly +10 %
  });
  it('refuses tare ≥ gross, a net that is not gross − tare, and an overload beyond the tolerance', () => {
    expect(weighTicketProblem({ grossKg: 15_000, tareKg: 15_000, netKg: 1 }, rated, 10)).toBe('皮重须小于毛重');
    expect(weighTicketProblem({ grossKg: 55_000, tareKg: 15_000, netKg: 40_001 }, rated, 10)).toContain('净重须等于毛重减皮重（40.00 吨）');
    expect(weighTicketProblem({ grossKg: 59_001, tareKg: 15_000, netKg: 44_001 }, rated, 10)).toContain('核定载重 40.00 吨');
    expect(weighTicketProblem({ grossKg: 55_000, tareKg: 15_000, netKg: 40_000 }, 36_000, 10)).toContain('10% 容差');
  });
  it('the truck limit is floor(rated × (1 + pct))', () => {
    expect(maxTruckKg(40_000, 10)).toBe(44_000);
    expect(maxTruckKg(33_333, 10)).toBe(36_666);
  });
});

describe('loadingOverPlanProblem', () => {
  it('takes a loading net up to the planned tons plus the overload tolerance, no more', () => {
    expect(loadingOverPlanProblem(1_100, 1_000, 10)).toBeNull();
    expect(loadingOverPlanProblem(1_101, 1_000, 10)).toBe('装车净重超过计划装车量 1.00 吨加 10% 容差（最多 1.10 吨）');
    expect(loadingOverPlanProblem(40_000, 40_000, 0)).toBeNull();
    expect(loadingOverPlanProblem(40_001, 40_000, 0)).toContain('最多 40.00 吨');
  });
});

describe('arrival after loading', () => {
  it('refuses an arrival weighed at or before the loading', () => {
    const loaded = new Date('2026-11-20T08:00:00Z');
    expect(arrivalTimeProblem(loaded, new Date('2026-11-20T10:00:00Z'))).toBeNull();
    expect(arrivalTimeProblem(loaded, loaded)).toBe('到货过磅时间须晚于装车过磅时间');
    expect(arrivalTimeProblem(loaded, new Date('2026-11-20T07:59:59Z'))).not.toBeNull();
  });
});

describe('transitLoss', () => {
  it('is loaded − arrived, flagged beyond the tolerance only', () => {
    expect(transitLoss(40_000, 39_920, 0.2)).toEqual({ lossKg: 80, lossExceeded: false }); // exactly 0.2 %
    expect(transitLoss(40_000, 39_919, 0.2)).toEqual({ lossKg: 81, lossExceeded: true });
    expect(transitLoss(40_000, 40_000, 0)).toEqual({ lossKg: 0, lossExceeded: false });
    expect(transitLoss(40_000, 39_999, 0)).toEqual({ lossKg: 1, lossExceeded: true });
  });
  it('a gain is not a loss', () => {
    expect(transitLoss(40_000, 40_500, 0.2)).toEqual({ lossKg: -500, lossExceeded: false });
  });
  it('tolerances with two decimals compare exactly', () => {
    expect(transitLoss(100_000, 99_850, 0.15).lossExceeded).toBe(false);
    expect(transitLoss(100_000, 99_849, 0.15).lossExceeded).toBe(true);
  });
});

describe('planDateProblem', () => {
  const terms = { deliveryDateStart: '2026-12-01', deliveryDateEnd: '2026-12-31' };
  it('takes the delivery window ± 3 days', () => {
    expect(planDateProblem('2026-11-28', terms)).toBeNull();
    expect(planDateProblem('2027-01-03', terms)).toBeNull();
    expect(planDateProblem('2026-11-27', terms)).toContain('2026-12-01 至 2026-12-31 前后 3 天内');
    expect(planDateProblem('2027-01-04', terms)).not.toBeNull();
  });
});

describe('delivery request schemas', () => {
  const ticket = { ticketNo: 'BD-20261120-01', grossKg: 55_000, tareKg: 15_000, netKg: 40_000, weighedAt: '2026-11-20T08:00:00+08:00', photo: '2026/11/20/x.jpg' };
  it('takes a ticket and refuses a bad ticket number, a fraction of a kg and a huge weight in Chinese', () => {
    expect(WeighTicketSchema.safeParse(ticket).success).toBe(true);
    const bad = (patch: object) => WeighTicketSchema.safeParse({ ...ticket, ...patch }).error?.issues[0]?.message;
    expect(bad({ ticketNo: 'A1' })).toBe('磅单号为 4–30 位字母、数字或 -');
    expect(bad({ ticketNo: '磅单0001' })).toBe('磅单号为 4–30 位字母、数字或 -');
    expect(bad({ netKg: 1.5 })).toBe('净重须为整数千克');
    expect(bad({ grossKg: 1e20 })).toBe('毛重不超过 200 吨');
    expect(bad({ photo: '' })).toBe('请上传磅单照片');
  });
  it('a lab report: ranges and two decimals', () => {
    const report = { lab: 'seller', labName: '晋北煤业化验室', reportNo: 'HY-001', qnet: 5500, mt: 8.5, st: 0.62, ad: 18.25, vdaf: 28, testedAt: '2026-11-21', file: 'k' };
    expect(QualityReportCreateSchema.safeParse(report).success).toBe(true);
    const bad = (patch: object) => QualityReportCreateSchema.safeParse({ ...report, ...patch }).error?.issues[0]?.message;
    expect(bad({ qnet: 2999 })).toBe('发热量不低于 3000 kcal/kg');
    expect(bad({ qnet: 7501 })).toBe('发热量不高于 7500 kcal/kg');
    expect(bad({ st: 0.625 })).toBe('全硫最多保留两位小数');
    expect(bad({ mt: 41 })).toBe('全水分不超过 40%');
    expect(bad({ ad: -1 })).toBe('灰分不能为负');
  });
  it('a ruling to sign names the weight; a disputed report names the reason', () => {
    expect(DisputeRulingSchema.safeParse({ decision: 'signed', note: '以装车净重为准' }).error?.issues[0]?.message).toBe('裁定签收时须填写签收量');
    expect(DisputeRulingSchema.safeParse({ decision: 'refused', note: '货物不符' }).success).toBe(true);
    expect(QualityReportAnswerSchema.safeParse({ accept: false }).error?.issues[0]?.message).toContain('提出异议须填写原因');
    expect(QualityReportAnswerSchema.safeParse({ accept: true }).success).toBe(true);
  });
});
