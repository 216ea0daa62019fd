import { formatDateTime, formatFen, formatPrice } from '../format';
import { PRICE_TYPES, QUALITY_FIELDS, TRANSPORTS } from '../listing/schemas';
import { fenToCapitals } from '../money-capitals';
import { TradeType } from '../trade/types';
import type { ContractContext, ContractParty } from './context';
import {
  CONTRACT_DEFAULTS,
  CONTRACT_KINDS,
  TESTING_BASES,
  TRANSPORT_ARRANGERS,
  WEIGHING_BASES,
  type ContractKind,
  type ContractTerms,
  type QualityAdjustments,
} from './schemas';

/**
 * Contract templates (模板配置): a template body is plain text, one paragraph per line, with {{占位符}} the
 * generator fills from a ContractContext. '# ' starts the title line and '## ' a section heading; a line holding
 * only a block placeholder ({{质量价格调整}}) becomes several paragraphs.
 */
export const PLACEHOLDER_GROUPS = ['合同与成交', '卖方', '买方', '产品与质量', '数量与价格', '交收与运输', '计量与检验', '付款与保证金', '长协', '其他'] as const;
export type PlaceholderGroup = (typeof PLACEHOLDER_GROUPS)[number];

export interface ContractPlaceholder {
  /** the name written in the body as {{key}} */
  key: string;
  label: string;
  group: PlaceholderGroup;
  /** expands into several paragraphs: put it alone on its line */
  block?: boolean;
}

const PARTY_FIELDS = [
  ['名称', '企业名称'],
  ['统一社会信用代码', '统一社会信用代码'],
  ['法定代表人', '法定代表人'],
  ['地址', '注册地址'],
  ['电话', '联系电话'],
  ['开户银行', '开户银行'],
  ['银行账号', '银行账号'],
] as const;

const partyPlaceholders = (side: '卖方' | '买方'): ContractPlaceholder[] =>
  PARTY_FIELDS.map(([suffix, label]) => ({ key: `${side}${suffix}`, label: `${side}${label}`, group: side }));

export const CONTRACT_PLACEHOLDERS: readonly ContractPlaceholder[] = [
  { key: '合同编号', label: '合同编号（HT 开头）', group: '合同与成交' },
  { key: '成交编号', label: '成交编号', group: '合同与成交' },
  { key: '交易编号', label: '挂牌或竞价的交易编号', group: '合同与成交' },
  { key: '交易方式', label: '交易方式（挂牌销售等）', group: '合同与成交' },
  { key: '签订日期', label: '签订日期（成交日）', group: '合同与成交' },
  { key: '签署截止', label: '签署截止时间', group: '合同与成交' },
  { key: '出价记录哈希', label: '竞价公开出价记录的最终哈希（挂牌、长协为“—”）', group: '合同与成交' },
  ...partyPlaceholders('卖方'),
  ...partyPlaceholders('买方'),
  { key: '产品名称', label: '产品名称', group: '产品与质量' },
  { key: '质量指标', label: '全部质量指标（一行）', group: '产品与质量' },
  { key: '发热量', label: '发热量 Qnet,ar', group: '产品与质量' },
  { key: '全水分', label: '全水分 Mt', group: '产品与质量' },
  { key: '全硫', label: '全硫 St,d', group: '产品与质量' },
  { key: '灰分', label: '灰分 Ad', group: '产品与质量' },
  { key: '挥发分', label: '挥发分 Vdaf', group: '产品与质量' },
  { key: '数量', label: '数量（吨）', group: '数量与价格' },
  { key: '溢短装', label: '溢短装比例', group: '数量与价格' },
  { key: '单价', label: '单价（元/吨）', group: '数量与价格' },
  { key: '价格类型', label: '价格类型（出厂价等）', group: '数量与价格' },
  { key: '金额', label: '合同金额（小写）', group: '数量与价格' },
  { key: '金额大写', label: '合同金额（大写）', group: '数量与价格' },
  { key: '交收地点', label: '交收地点', group: '交收与运输' },
  { key: '交收起止日期', label: '交收起止日期', group: '交收与运输' },
  { key: '运输方式', label: '运输方式', group: '交收与运输' },
  { key: '运输责任方', label: '运输责任方', group: '交收与运输' },
  { key: '计量依据', label: '计量依据', group: '计量与检验' },
  { key: '化验依据', label: '化验依据', group: '计量与检验' },
  { key: '合理途损', label: '合理途损比例', group: '计量与检验' },
  { key: '质量价格调整', label: '质量价格调整条款（多段，单独成行）', group: '计量与检验', block: true },
  { key: '预付比例', label: '预付款比例', group: '付款与保证金' },
  { key: '付款期限', label: '付款期限（工作日）', group: '付款与保证金' },
  { key: '履约保证金', label: '履约保证金（小写）', group: '付款与保证金' },
  { key: '履约保证金大写', label: '履约保证金（大写）', group: '付款与保证金' },
  { key: '长协编号', label: '长协编号（CX 开头）', group: '长协' },
  { key: '合同期限', label: '长协合同期（起止月份）', group: '长协' },
  { key: '月度计划', label: '逐月计划量（多段，单独成行）', group: '长协', block: true },
  { key: '定价条款', label: '长协定价条款（多段，单独成行）', group: '长协', block: true },
  { key: '框架合同编号', label: '月度合同所执行的框架合同编号', group: '长协' },
  { key: '执行月份', label: '月度合同的调运月份', group: '长协' },
  { key: '月度价格依据', label: '月度价格的计算依据', group: '长协' },
  { key: '补充约定', label: '补充约定', group: '其他' },
];

const PLACEHOLDER_KEYS = new Set(CONTRACT_PLACEHOLDERS.map((p) => p.key));
const BLOCK_KEYS = new Set(CONTRACT_PLACEHOLDERS.filter((p) => p.block).map((p) => p.key));
/** {{ name }}: a name is anything but braces and line breaks, spaces around it ignored. */
const PLACEHOLDER = /\{\{\s*([^{}\n]*?)\s*\}\}/g;
const NOT_AGREED = '未约定';

// ---------------------------------------------------------------------------------------------------------------
// values

const TRADE_TYPE_LABELS: Record<number, string> = {
  [TradeType.listingSale]: '挂牌销售',
  [TradeType.listingPurchase]: '挂牌采购',
  [TradeType.auctionSale]: '竞价销售',
  [TradeType.auctionPurchase]: '竞价采购',
};

/** ISO instant or yyyy-MM-dd → '2026年11月22日' (Asia/Shanghai). */
function chineseDate(value: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : formatDateTime(value).slice(0, 10);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return value;
  return `${match[1]}年${Number(match[2])}月${Number(match[3])}日`;
}

/** A percentage or indicator without float noise: 0.8, 12, 0.25. */
const decimal = (value: number) => String(Number(value.toFixed(3)));
const yuan = (fen: number | bigint) => `¥${formatFen(fen)}`;
const perTon = (fen: number) => `${formatFen(fen)} 元/吨`;

/** Integer kg → '1,000.5 吨': a contract states the quantity to the kilogram, so up to 3 decimals, trimmed. */
export function formatContractTons(kg: number): string {
  const whole = Math.trunc(kg / 1000).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(kg % 1000).padStart(3, '0').replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''} 吨`;
}

function indicator(key: keyof typeof QUALITY_FIELDS, value: number | null | undefined): string {
  if (value === null || value === undefined) return NOT_AGREED;
  const unit = QUALITY_FIELDS[key].unit;
  return unit === '%' ? `${decimal(value)}%` : `${decimal(value)} ${unit}`;
}

function qualityLine(quality: ContractContext['quality']): string {
  const parts = (Object.keys(QUALITY_FIELDS) as Array<keyof typeof QUALITY_FIELDS>)
    .filter((key) => quality[key] !== null && quality[key] !== undefined)
    .map((key) => `${QUALITY_FIELDS[key].label} ${indicator(key, quality[key])}`);
  return parts.length ? parts.join('，') : NOT_AGREED;
}

/** The quality price adjustments as contract clauses, one paragraph per rule. */
export function qualityAdjustmentClauses(q: QualityAdjustments): string[] {
  const clauses = [
    `计价基准：发热量 Qnet,ar ${q.basisQnet} kcal/kg，全硫 St,d ${decimal(q.basisSt)}%，灰分 Ad ${decimal(q.basisAd)}%，计价全水分 Mt ${decimal(q.pricingMt)}%。`,
  ];
  for (const tier of [...q.qnetTiers].sort((a, b) => b.from - a.from)) {
    const price = formatFen(tier.fenPer100Kcal);
    const range = `发热量 Qnet,ar ${tier.from}–${tier.to} kcal/kg`;
    if (tier.to <= q.basisQnet) clauses.push(`${range}：每低于基准 100 kcal/kg，单价相应减少 ${price} 元/吨。`);
    else if (tier.from >= q.basisQnet) clauses.push(`${range}：每高于基准 100 kcal/kg，单价相应增加 ${price} 元/吨。`);
    else clauses.push(`${range}：每低（高）于基准 100 kcal/kg，单价相应减（加）${price} 元/吨。`);
  }
  for (const tier of [...(q.qnetFlatTiers ?? [])].sort((a, b) => b.from - a.from)) {
    clauses.push(`发热量 Qnet,ar ${tier.from}–${tier.to} kcal/kg：单价另${tier.fen < 0 ? '减少' : '增加'} ${formatFen(Math.abs(tier.fen))} 元/吨。`);
  }
  if (q.rejectBelowQnet > 0) clauses.push(`发热量 Qnet,ar 低于 ${q.rejectBelowQnet} kcal/kg 的，买方有权拒收。`);
  if (q.fenPerStStep > 0) {
    clauses.push(`全硫 St,d 每高于基准 0.1%，单价相应减少 ${formatFen(q.fenPerStStep)} 元/吨；低于基准不予加价。`);
  }
  if (q.adTiers?.length) {
    for (const tier of [...q.adTiers].sort((a, b) => a.from - b.from)) {
      clauses.push(`灰分 Ad ${decimal(tier.from)}%–${decimal(tier.to)}%：每高 0.1%，单价相应减少 ${formatFen(tier.fenPerStep)} 元/吨。`);
    }
  } else if (q.fenPerAdStep > 0) {
    clauses.push(`灰分 Ad 每高于基准 1%，单价相应减少 ${formatFen(q.fenPerAdStep)} 元/吨；低于基准不予加价。`);
  }
  clauses.push(`全水分 Mt 超过计价全水分 ${decimal(q.pricingMt)}% 的，按超出的百分点扣减结算数量。`);
  // contracts made before the flag existed keep their text (whole steps)
  if (q.prorate) clauses.push('不足一档的按比例计算，调价金额四舍五入到分。');
  return clauses;
}

function partyValues(side: '卖方' | '买方', party: ContractParty): Record<string, string> {
  const fields: Record<(typeof PARTY_FIELDS)[number][0], string> = {
    名称: party.name,
    统一社会信用代码: party.creditCode,
    法定代表人: party.legalRepresentative,
    地址: party.address,
    电话: party.phone,
    开户银行: party.bankName,
    银行账号: party.bankAccount,
  };
  return Object.fromEntries(Object.entries(fields).map(([suffix, value]) => [`${side}${suffix}`, value.trim() || '—']));
}

function monthWords(month: string): string {
  return `${month.slice(0, 4)}年${month.slice(5, 7)}月`;
}

/** 长协 placeholders: '—' on a spot contract. */
function longTermValues(ctx: ContractContext): Record<string, string | string[]> {
  const lt = ctx.longTerm;
  const none = '—';
  return {
    长协编号: lt?.longTermNo ?? none,
    合同期限: lt ? `${monthWords(lt.periodStart)}至${monthWords(lt.periodEnd)}` : none,
    月度计划: lt?.months?.length ? lt.months.map((m) => `${monthWords(m.month)}：${formatContractTons(m.plannedKg)}`) : [none],
    定价条款: lt?.pricingClauses?.length ? lt.pricingClauses : [none],
    框架合同编号: lt?.frameworkContractNo ?? none,
    执行月份: lt?.month ? monthWords(lt.month) : none,
    月度价格依据: lt?.priceBasis ?? none,
  };
}

/** Every placeholder's value for one contract; block placeholders give several paragraphs. */
export function placeholderValues(ctx: ContractContext): Record<string, string | string[]> {
  const t = ctx.terms;
  const values: Record<string, string | string[]> = {
    合同编号: ctx.contractNo,
    成交编号: ctx.dealNo,
    交易编号: ctx.tradeNo,
    交易方式: ctx.kind === 'long_term' || ctx.kind === 'long_term_monthly' ? '长协交易' : (TRADE_TYPE_LABELS[ctx.tradeType] ?? '—'),
    签订日期: chineseDate(ctx.dealAt),
    签署截止: formatDateTime(ctx.signDeadline),
    出价记录哈希: ctx.bidLogHash || '—',
    ...partyValues('卖方', ctx.seller),
    ...partyValues('买方', ctx.buyer),
    产品名称: ctx.productName,
    质量指标: qualityLine(ctx.quality),
    发热量: indicator('qnet', ctx.quality.qnet),
    全水分: indicator('mt', ctx.quality.mt),
    全硫: indicator('st', ctx.quality.st),
    灰分: indicator('ad', ctx.quality.ad),
    挥发分: indicator('vdaf', ctx.quality.vdaf),
    数量: formatContractTons(ctx.quantityKg),
    溢短装: `±${decimal(t.quantityTolerancePct)}%`,
    单价: perTon(ctx.priceFen),
    价格类型: PRICE_TYPES[ctx.priceType as keyof typeof PRICE_TYPES] ?? ctx.priceType,
    金额: yuan(ctx.amountFen),
    金额大写: fenToCapitals(ctx.amountFen),
    交收地点: t.deliveryPlace,
    交收起止日期: `${chineseDate(t.deliveryDateStart)}至${chineseDate(t.deliveryDateEnd)}`,
    运输方式: TRANSPORTS[ctx.transport as keyof typeof TRANSPORTS] ? `${TRANSPORTS[ctx.transport as keyof typeof TRANSPORTS]}运输` : ctx.transport,
    运输责任方: TRANSPORT_ARRANGERS[t.transportArranger],
    计量依据: WEIGHING_BASES[t.weighingBasis],
    化验依据: TESTING_BASES[t.testingBasis],
    合理途损: `${decimal(t.transitLossPct)}%`,
    质量价格调整: qualityAdjustmentClauses(t.qualityAdjustments),
    预付比例: `${t.prepaymentPct}%`,
    付款期限: `${t.paymentWorkingDays}个工作日`,
    履约保证金: yuan(ctx.depositFen),
    履约保证金大写: fenToCapitals(ctx.depositFen),
    补充约定: t.remark.trim() || '无',
    ...longTermValues(ctx),
  };
  return values;
}

// ---------------------------------------------------------------------------------------------------------------
// parsing and rendering

/** The placeholder names a body uses, in order of first use (known or not). */
export function templatePlaceholders(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(PLACEHOLDER)) names.add(match[1]!);
  return [...names];
}

/**
 * What the generator cannot fill: names not in CONTRACT_PLACEHOLDERS, and unclosed '{{' reported as the fragment
 * itself ('{{合同编号' — it starts with '{{', a name never does). Show them with placeholderLabel().
 */
export function unknownPlaceholders(body: string): string[] {
  const unknown = new Set(templatePlaceholders(body).filter((name) => !PLACEHOLDER_KEYS.has(name)));
  for (const line of body.split('\n')) {
    const rest = line.replace(PLACEHOLDER, '');
    const at = rest.indexOf('{{');
    if (at >= 0) unknown.add(Array.from(rest.slice(at)).slice(0, 12).join(''));
  }
  return [...unknown];
}

/** How a refused placeholder is shown to the admin: {{甲}}, or an unclosed fragment as written. */
export const placeholderLabel = (name: string) => (name.startsWith('{{') ? name : `{{${name}}}`);

/** The refusal message for a body with unknown placeholders: 模板中有未知占位符：{{甲}}、{{乙}} */
export const unknownPlaceholdersMessage = (unknown: string[]) => `模板中有未知占位符：${unknown.map(placeholderLabel).join('、')}`;

/**
 * The contract as paragraphs: one per non-empty line of the body, '# ' and '## ' markers kept for the PDF; a line
 * that is only a block placeholder becomes its paragraphs. Throws on unknown placeholders unless `lenient`
 * (the editor's preview), which leaves them as written.
 */
export function renderContractText(body: string, ctx: ContractContext, options: { lenient?: boolean } = {}): string[] {
  const unknown = unknownPlaceholders(body);
  if (unknown.length && !options.lenient) throw new Error(unknownPlaceholdersMessage(unknown));
  const values = placeholderValues(ctx);
  const paragraphs: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const only = /^\{\{\s*([^{}\n]*?)\s*\}\}$/.exec(line);
    if (only && BLOCK_KEYS.has(only[1]!)) {
      paragraphs.push(...[values[only[1]!]!].flat());
      continue;
    }
    paragraphs.push(
      line.replace(PLACEHOLDER, (whole, name: string) => {
        const value = values[name];
        if (value === undefined) return whole;
        return Array.isArray(value) ? value.join('') : value;
      }),
    );
  }
  return paragraphs;
}

// ---------------------------------------------------------------------------------------------------------------
// defaults

/** Used when a trade gives no calorific value: the common basis of thermal coal (5500 kcal 动力煤). */
const DEFAULT_BASIS_QNET = 5500;
const clampQnet = (v: number) => Math.min(8000, Math.max(1000, v));

/**
 * Default quality price adjustments from a trade's indicators (DESIGN.md §8): ±10 元/t per 100 kcal within 500
 * kcal below the basis, +5 元/t per 100 kcal up to 300 above, rejection 700 below; St,d −5 元/t per 0.1 % above,
 * Ad −3 元/t per 1 % above; pricing moisture = the Mt given, or 12 %.
 */
export function defaultQualityAdjustments(quality: ContractContext['quality']): QualityAdjustments {
  const basisQnet = clampQnet(Math.round(quality.qnet ?? DEFAULT_BASIS_QNET));
  const tiers = [
    { from: clampQnet(basisQnet - 500), to: basisQnet, fenPer100Kcal: 1000 },
    { from: basisQnet, to: clampQnet(basisQnet + 300), fenPer100Kcal: 500 },
  ].filter((tier) => tier.from < tier.to);
  return {
    basisQnet,
    qnetTiers: tiers,
    rejectBelowQnet: Math.max(0, basisQnet - 700),
    basisSt: quality.st ?? 1,
    fenPerStStep: 500,
    basisAd: quality.ad ?? 20,
    fenPerAdStep: 300,
    pricingMt: quality.mt ?? 12,
  };
}

/** The terms a new contract starts from; either side may edit them until it is effective. */
export function defaultContractTerms(input: {
  priceType: string;
  deliveryPlace: string;
  deliveryDateStart: string;
  deliveryDateEnd: string;
  quality: ContractContext['quality'];
}): ContractTerms {
  const delivered = input.priceType === 'delivered';
  return {
    quantityTolerancePct: CONTRACT_DEFAULTS.quantityTolerancePct,
    transitLossPct: CONTRACT_DEFAULTS.transitLossPct,
    deliveryPlace: input.deliveryPlace,
    deliveryDateStart: input.deliveryDateStart,
    deliveryDateEnd: input.deliveryDateEnd,
    // 到厂价: the seller delivers to the plant and the plant's scale counts; 出厂/坑口价: the buyer collects
    transportArranger: delivered ? 'seller' : 'buyer',
    weighingBasis: delivered ? 'buyer' : 'seller',
    testingBasis: 'third_party',
    prepaymentPct: CONTRACT_DEFAULTS.prepaymentPct,
    paymentWorkingDays: CONTRACT_DEFAULTS.paymentWorkingDays,
    qualityAdjustments: defaultQualityAdjustments(input.quality),
    remark: '',
  };
}

/** The preview's auction deals name a bid log's final hash (a real one of a sample chain would look the same). */
const SAMPLE_BID_LOG_HASH = '5d0c3f7e9a1b2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d';

const SAMPLE_TRADE: Record<ContractKind, { tradeType: number; tradeNo: string }> = {
  listing_sale: { tradeType: TradeType.listingSale, tradeNo: 'GP202611200003' },
  listing_purchase: { tradeType: TradeType.listingPurchase, tradeNo: 'GP202611200005' },
  auction_sale: { tradeType: TradeType.auctionSale, tradeNo: 'JJ202611200002' },
  auction_purchase: { tradeType: TradeType.auctionPurchase, tradeNo: 'JJ202611200004' },
  long_term: { tradeType: TradeType.listingSale, tradeNo: 'CX202611200001' },
  long_term_monthly: { tradeType: TradeType.listingSale, tradeNo: 'CX202611200001' },
};

const SAMPLE_LONG_TERM: Partial<Record<ContractKind, ContractContext['longTerm']>> = {
  long_term: {
    longTermNo: 'CX202611200001',
    periodStart: '2027-01',
    periodEnd: '2027-03',
    months: [
      { month: '2027-01', plannedKg: 10_000_000 },
      { month: '2027-02', plannedKg: 8_000_000 },
      { month: '2027-03', plannedKg: 10_000_000 },
    ],
    pricingClauses: [
      '1. 定价方式：基准价 + 浮动价。',
      '2. 浮动价 = 浮动系数 0.5000 ×（取价月平台动力煤价格指数（5500 大卡）各期均值 − 基准参考值 700.00 元/吨），四舍五入到分。',
    ],
  },
  long_term_monthly: {
    longTermNo: 'CX202611200001',
    periodStart: '2027-01',
    periodEnd: '2027-03',
    frameworkContractNo: 'HTCX202611200001',
    month: '2027-01',
    priceBasis: '基准价 845.50 元/吨 + 浮动价 0.00 元/吨（取价月 2026年12月 指数均值 700.00 元/吨）',
  },
};

/** A realistic deal for the template editor's preview: 1,000 t of 5500 kcal thermal coal at 845.50 元/t. */
export function sampleContractContext(kind: ContractKind): ContractContext {
  const quality = { qnet: 5500, mt: 12, st: 0.8, ad: 15, vdaf: 28, ashFusion: 1250 };
  const { tradeType, tradeNo } = SAMPLE_TRADE[kind];
  return {
    kind,
    contractNo: 'HT202611220001',
    dealNo: 'CJ202611220001',
    tradeNo,
    tradeType,
    dealAt: '2026-11-22T02:30:00.000Z',
    signDeadline: '2026-11-23T09:30:00.000Z',
    seller: {
      name: '晋北煤业有限公司',
      creditCode: '91140200MA0K3XQ41H',
      legalRepresentative: '王建国',
      address: '山西省大同市云冈区矿区路 88 号',
      phone: '0352-6123456',
      bankName: '中国工商银行大同分行营业部',
      bankAccount: '0502 0123 0920 0188 886',
    },
    buyer: {
      name: '华东电力燃料有限公司',
      creditCode: '91310115MA1H7UPQ0J',
      legalRepresentative: '陈志远',
      address: '上海市浦东新区世纪大道 1200 号 18 层',
      phone: '021-58886666',
      bankName: '中国银行上海市分行',
      bankAccount: '4378 5920 1166 0000 5210',
    },
    productName: '动力煤 5500',
    stockCode: 'DLM5500',
    quality,
    quantityKg: 1_000_000,
    priceFen: 84_550,
    amountFen: 84_550_000,
    priceType: 'factory_tax',
    transport: 'rail',
    depositFen: 5_000_000,
    terms: defaultContractTerms({
      priceType: 'factory_tax',
      deliveryPlace: '大同南站煤炭集运站',
      deliveryDateStart: '2026-12-01',
      deliveryDateEnd: '2026-12-31',
      quality,
    }),
    ...(SAMPLE_LONG_TERM[kind] ? { longTerm: SAMPLE_LONG_TERM[kind] } : {}),
    ...(kind === 'auction_sale' || kind === 'auction_purchase' ? { bidLogHash: SAMPLE_BID_LOG_HASH } : {}),
  };
}

/** The contract's title: its '# ' line, or the kind's name when the template has none. */
export function contractTitleOf(paragraphs: string[], kind: ContractKind): string {
  const title = paragraphs.find((p) => p.startsWith('# '));
  return title ? title.slice(2).trim() : CONTRACT_KINDS[kind];
}
