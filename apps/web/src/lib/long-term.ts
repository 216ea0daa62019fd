import {
  LONG_TERM_MAX_MONTHS,
  LONG_TERM_MONTH_MAX_KG,
  amountFen,
  fenToYuanText,
  formatTons,
  kgToTonsText,
  monthDays,
  monthText,
  monthsBetween,
  tonsTextToKg,
  yuanTextToFen,
  type LongTermDetail,
  type LongTermSummary,
  type PricingMode,
} from '@coalx/shared';
import type { LongTermOfferInput } from '@/services/longTerm';
import { numberTextProblem } from './number-text';
import { productApply, required, type PriceType, type QualityValues, type Transport } from './trade-form';

/**
 * The long-term deal pages' rules, free of React so they are tested alone. Money is integer fen, quantities integer
 * kg and the pricing's coefficient and heat factor integer ten-thousandths (0.5 → 5000): typed texts are converted
 * by string arithmetic, never by multiplying floats.
 */


/** One row of the offer form's monthly plan: the month and its planned tons as typed. */
export interface PlanRow {
  month: string;
  tons?: string;
}

/** The offer form's values as typed (months 'YYYY-MM', the deadline 'YYYY-MM-DD', numbers as text). */
export interface OfferFormValues {
  stockCode?: string;
  quality?: QualityValues;
  priceType?: PriceType;
  transport?: Transport;
  area?: string[];
  deliveryPlace?: string;
  periodStart?: string;
  periodEnd?: string;
  months?: PlanRow[];
  pricingMode?: PricingMode;
  basePriceYuan?: string;
  coefficient?: string;
  referenceYuan?: string;
  heatFactor?: string;
  targetCreditCode?: string;
  applyDeadline?: string;
  remark?: string;
}

const E4 = /^(\d{1,6})(?:\.(\d{1,4}))?$/;

/** '0.5' → 5000, '1.2345' → 12345: a decimal with at most 4 places as ten-thousandths; null when it is not one. */
export function e4FromText(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const match = E4.exec(String(text).trim());
  if (!match) return null;
  return Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'));
}

/** 5000 → '0.5', 12345 → '1.2345': the inverse of e4FromText, for inputs. */
export function e4ToText(e4: number): string {
  const whole = Math.trunc(e4 / 10_000);
  const rest = String(e4 % 10_000).padStart(4, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

/** 5000 → '0.5000': a coefficient as the contract prints it. */
export function e4Text(e4: number): string {
  return `${Math.trunc(e4 / 10_000)}.${String(e4 % 10_000).padStart(4, '0')}`;
}

/** What is wrong with a typed coefficient: 0 < c ≤ 2 with at most 4 decimals. */
export const coefficientProblem = (text: string | undefined) => numberTextProblem(text, { decimals: 4, max: 2, maxText: '2', positive: true });

/** What is wrong with a typed heat factor (optional): 0.3 ≤ f ≤ 1.5 with at most 4 decimals. */
export const heatFactorProblem = (text: string | undefined) => numberTextProblem(text, { decimals: 4, min: 0.3, minText: '0.3', max: 1.5, maxText: '1.5' });

/** What is wrong with one month's planned tons: above 0, at most 3 decimals, at most 1,000,000 t. */
export const monthTonsProblem = (text: string | undefined) =>
  numberTextProblem(text, { decimals: 3, max: LONG_TERM_MONTH_MAX_KG / 1000, maxText: '100 万吨', positive: true });

/**
 * The monthly plan's rows for a period: one per month from start to end, each keeping the tons already typed for
 * that month. Null when the period is not whole (a month missing, the end before the start) or longer than 36 months.
 */
export function planRows(start: string | undefined, end: string | undefined, previous: PlanRow[] = []): PlanRow[] | null {
  if (!start || !end || end < start) return null;
  const months = monthsBetween(start, end);
  if (months.length > LONG_TERM_MAX_MONTHS) return null;
  const typed = new Map(previous.map((r) => [r.month, r.tons]));
  return months.map((month) => ({ month, tons: typed.get(month) }));
}

/** The plan's total in kg (the months whose tons are valid) and how many months lack a valid quantity. */
export function planTotal(rows: PlanRow[] | undefined): { kg: number; missing: number } {
  let kg = 0;
  let missing = 0;
  for (const row of rows ?? []) {
    const value = monthTonsProblem(row.tons) === null ? tonsTextToKg(row.tons) : null;
    if (value === null || value <= 0) missing++;
    else kg += value;
  }
  return { kg, missing };
}

/** Why the period cannot be saved, said on the end month's field; null when it is fine. */
export function periodProblem(start: string | undefined, end: string | undefined): string | null {
  if (!start || !end) return null;
  if (end < start) return '合同结束月份不能早于开始月份';
  if (monthsBetween(start, end).length > LONG_TERM_MAX_MONTHS) return `合同期不超过 ${LONG_TERM_MAX_MONTHS} 个月`;
  return null;
}

/** The application deadline must come before the period's last month (the server's rule). */
export function deadlineProblem(deadline: string | undefined, periodEnd: string | undefined): string | null {
  if (!deadline || !periodEnd) return null;
  return deadline >= `${periodEnd}-01` ? '申请截止日期须早于合同最后一个月' : null;
}

const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{18}$/;

/** The 定向买方's credit code as the server takes it (upper case), or undefined for an open offer. */
export function normalisedCreditCode(text: string | undefined): string | undefined {
  const code = text?.trim().toUpperCase();
  return code ? code : undefined;
}

export function creditCodeProblem(text: string | undefined): string | null {
  const code = normalisedCreditCode(text);
  return code && !CREDIT_CODE.test(code) ? '统一社会信用代码应为 18 位数字或大写字母' : null;
}

/** The pricing of the request body; throws the first missing or wrong field's message. */
export function pricingOf(v: OfferFormValues): LongTermOfferInput['pricing'] {
  const mode = required(v.pricingMode, '请选择定价方式');
  const basePriceFen = yuanTextToFen(required(v.basePriceYuan?.trim(), mode === 'fixed' ? '请输入固定价格' : '请输入基准价'));
  if (basePriceFen === null || basePriceFen <= 0) throw new Error(mode === 'fixed' ? '固定价格有误' : '基准价有误');
  if (mode === 'fixed') return { mode, basePriceFen, coefficientE4: 0, referenceFen: 0, heatFactorE4: e4FromText(v.heatFactor?.trim() || null) };
  const coefficientE4 = e4FromText(required(v.coefficient?.trim(), '请输入浮动系数'));
  if (coefficientE4 === null || coefficientE4 <= 0) throw new Error('浮动系数有误');
  const referenceFen = yuanTextToFen(required(v.referenceYuan?.trim(), '请输入基准参考值'));
  if (referenceFen === null || referenceFen <= 0) throw new Error('基准参考值有误');
  return { mode, basePriceFen, coefficientE4, referenceFen, heatFactorE4: e4FromText(v.heatFactor?.trim() || null) };
}

/** The offer form's values → the request body of POST /api/longTerm/offer. Throws the first missing field's message. */
export function toOffer(v: OfferFormValues, submit: boolean, id?: number): LongTermOfferInput {
  const { stockCode, quality } = productApply(v);
  // no delivery dates here: each month's call-off names its own
  const [province, city, district] = v.area ?? [];
  const delivery = {
    priceType: required(v.priceType, '请选择价格类型'),
    transport: required(v.transport, '请选择运输方式'),
    deliveryProvince: required(province, '请选择交收地区'),
    deliveryCity: required(city, '请选择交收城市'),
    deliveryDistrict: district ?? '',
    deliveryPlace: required(v.deliveryPlace?.trim(), '请输入交收地点'),
  };
  const periodStart = required(v.periodStart, '请选择合同开始月份');
  const periodEnd = required(v.periodEnd, '请选择合同结束月份');
  const rows = planRows(periodStart, periodEnd, v.months);
  if (!rows) throw new Error(periodProblem(periodStart, periodEnd) ?? '请选择合同期');
  const months = rows.map((r) => {
    const plannedKg = monthTonsProblem(r.tons) === null ? tonsTextToKg(r.tons) : null;
    if (plannedKg === null || plannedKg <= 0) throw new Error(`请填写 ${r.month} 的计划量`);
    return { month: r.month, plannedKg };
  });
  return {
    ...(id ? { id } : {}),
    stockCode,
    quality,
    ...delivery,
    periodStart,
    periodEnd,
    months,
    pricing: pricingOf(v),
    ...(normalisedCreditCode(v.targetCreditCode) ? { targetCreditCode: normalisedCreditCode(v.targetCreditCode) } : {}),
    applyDeadline: required(v.applyDeadline, '请选择申请截止日期'),
    remark: v.remark?.trim() ?? '',
    submit,
  };
}

/** A saved draft → the offer form's values (the 定向买方's code is not in the answer: see the final report). */
export function offerFormValues(d: LongTermDetail): OfferFormValues {
  return {
    stockCode: d.stockCode,
    quality: d.quality as QualityValues,
    priceType: d.priceType as PriceType,
    transport: d.transport as Transport,
    area: [d.deliveryProvince, d.deliveryCity, d.deliveryDistrict].filter(Boolean),
    deliveryPlace: d.deliveryPlace,
    periodStart: d.periodStart,
    periodEnd: d.periodEnd,
    months: d.months.map((m) => ({ month: m.month, tons: kgToTonsText(m.plannedKg) })),
    pricingMode: d.pricing.mode,
    basePriceYuan: fenToYuanText(d.pricing.basePriceFen),
    coefficient: d.pricing.mode === 'index' ? e4ToText(d.pricing.coefficientE4) : undefined,
    referenceYuan: d.pricing.mode === 'index' ? fenToYuanText(d.pricing.referenceFen) : undefined,
    heatFactor: d.pricing.heatFactorE4 !== null ? e4ToText(d.pricing.heatFactorE4) : undefined,
    applyDeadline: d.applyDeadline,
    targetCreditCode: d.targetCreditCode ?? undefined,
    remark: d.remark,
  };
}

/** The price preview's query for the first month, or null while the pricing fields are incomplete or wrong. */
export function previewQuery(v: OfferFormValues) {
  if (!v.periodStart || !v.pricingMode) return null;
  let pricing: LongTermOfferInput['pricing'];
  try {
    if (v.heatFactor?.trim() && heatFactorProblem(v.heatFactor) !== null) return null;
    if (v.pricingMode === 'index' && coefficientProblem(v.coefficient) !== null) return null;
    pricing = pricingOf(v);
  } catch {
    return null;
  }
  const qnet = v.quality?.qnet;
  return {
    mode: pricing.mode,
    basePriceFen: pricing.basePriceFen,
    coefficientE4: pricing.coefficientE4 ?? 0,
    referenceFen: pricing.referenceFen ?? 0,
    ...(pricing.heatFactorE4 ? { heatFactorE4: pricing.heatFactorE4 } : {}),
    ...(typeof qnet === 'number' && qnet >= 1000 && qnet <= 8000 ? { qnet: Math.round(qnet) } : {}),
    month: v.periodStart,
  };
}

// ---------- reading ----------

/** 买方 column: the buyer once accepted, else the named buyer of a 定向 offer, else 公开征集. */
export function buyerText(s: Pick<LongTermSummary, 'buyerName' | 'targetName'>): string {
  if (s.buyerName) return s.buyerName;
  return s.targetName ? `定向：${s.targetName}` : '公开征集';
}

/** '2026-11 至 2027-10' */
export function periodText(s: Pick<LongTermSummary, 'periodStart' | 'periodEnd'>): string {
  return s.periodStart === s.periodEnd ? s.periodStart : `${s.periodStart} 至 ${s.periodEnd}`;
}

/** 履约率 in percent, '-' when nothing was due yet. */
export function rateText(rate: number | null): string {
  return rate === null ? '-' : `${rate.toFixed(1)}%`;
}

/**
 * Why a deal is flagged: the finished months' total below the line, or single finished months below it while the
 * total is above.
 */
export function flagMessage(d: Pick<LongTermDetail, 'months' | 'fulfilment' | 'warnPct'>): string {
  const overall = d.fulfilment.rate !== null && d.fulfilment.rate < d.warnPct;
  if (overall) return `履约预警：已结束月份累计履约率 ${rateText(d.fulfilment.rate)}，低于预警线 ${d.warnPct}%`;
  const short = d.months.filter((m) => m.flagged).map((m) => `${monthText(m.month)} ${rateText(m.rate)}`);
  return `履约预警：${short.join('、')} 的履约率低于预警线 ${d.warnPct}%（已结束月份累计 ${rateText(d.fulfilment.rate)}）`;
}

/** price × quantity, half up to the fen (the server computes the call-off's amount the same way). */
export function callOffAmount(priceFen: number, quantityKg: number): number {
  return Number(amountFen(priceFen, quantityKg));
}

/** The refusal the server would give for a call-off's quantity (null: acceptable). */
export function callOffQuantityError(quantityKg: number | null, availableKg: number): string | null {
  if (quantityKg === null) return '请输入调运数量（吨，最多 3 位小数）';
  if (quantityKg <= 0) return '调运数量须大于 0';
  if (quantityKg > availableKg) return `调运数量不能超过本月剩余可调运量 ${formatTons(availableKg)}`;
  return null;
}

/** The delivery days a call-off of `month` may take: within the month and from today on. */
export function callOffDayAllowed(day: string, month: string, today: string): boolean {
  const { first, last } = monthDays(month);
  return day >= first && day <= last && day >= today;
}
