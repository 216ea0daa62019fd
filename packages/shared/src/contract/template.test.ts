import { describe, expect, it } from 'vitest';
import { ContractTermsSchema, CONTRACT_KIND_KEYS } from './schemas';
import {
  CONTRACT_PLACEHOLDERS,
  defaultContractTerms,
  defaultQualityAdjustments,
  formatContractTons,
  placeholderValues,
  renderContractText,
  sampleContractContext,
  templatePlaceholders,
  unknownPlaceholders,
  unknownPlaceholdersMessage,
} from './template';

describe('contract placeholders', () => {
  it('lists every name once, each with a value computed from a context', () => {
    const keys = CONTRACT_PLACEHOLDERS.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of ['合同编号', '卖方统一社会信用代码', '买方银行账号', '金额大写', '质量价格调整', '履约保证金大写', '补充约定']) {
      expect(keys).toContain(key);
    }
    const values = placeholderValues(sampleContractContext('listing_sale'));
    expect(Object.keys(values).sort()).toEqual([...keys].sort());
    for (const [key, value] of Object.entries(values)) expect([key, [value].flat().join('').length > 0]).toEqual([key, true]);
  });

  it('formats the sample deal as a contract writes it', () => {
    const v = placeholderValues(sampleContractContext('listing_sale'));
    expect(v.数量).toBe('1,000 吨');
    expect(v.单价).toBe('845.50 元/吨');
    expect(v.金额).toBe('¥845,500.00');
    expect(v.金额大写).toBe('捌拾肆万伍仟伍佰元整');
    expect(v.履约保证金).toBe('¥50,000.00');
    expect(v.履约保证金大写).toBe('伍万元整');
    expect(v.签订日期).toBe('2026年11月22日');
    expect(v.签署截止).toBe('2026-11-23 17:30:00');
    expect(v.交收起止日期).toBe('2026年12月1日至2026年12月31日');
    expect(v.交易方式).toBe('挂牌销售');
    expect(v.价格类型).toBe('含税出厂价');
    expect(v.运输方式).toBe('铁路运输');
    expect(v.运输责任方).toBe('买方负责运输');
    expect(v.计量依据).toBe('以卖方（发货地）计量为准');
    expect(v.溢短装).toBe('±5%');
    expect(v.合理途损).toBe('0.2%');
    expect(v.全硫).toBe('0.8%');
    expect(v.发热量).toBe('5500 kcal/kg');
    expect(v.质量指标).toBe('发热量 Qnet,ar 5500 kcal/kg，全水分 Mt 12%，全硫 St,d 0.8%，灰分 Ad 15%，挥发分 Vdaf 28%，灰熔点 ST 1250 ℃');
    expect(v.补充约定).toBe('无');
    expect(placeholderValues(sampleContractContext('long_term')).交易方式).toBe('长协交易');
    expect(placeholderValues(sampleContractContext('auction_purchase')).交易方式).toBe('竞价采购');
  });

  it('says 未约定 for an indicator the trade does not give', () => {
    const ctx = sampleContractContext('listing_sale');
    const v = placeholderValues({ ...ctx, quality: { qnet: 5000 } });
    expect(v.全硫).toBe('未约定');
    expect(v.质量指标).toBe('发热量 Qnet,ar 5000 kcal/kg');
    expect(placeholderValues({ ...ctx, quality: {} }).质量指标).toBe('未约定');
  });

  it('states tons to the kilogram', () => {
    expect(formatContractTons(1_000_500)).toBe('1,000.5 吨');
    expect(formatContractTons(1)).toBe('0.001 吨');
    expect(formatContractTons(20_000_000)).toBe('20,000 吨');
  });

  it('writes the quality price adjustments as one clause per rule', () => {
    const clauses = placeholderValues(sampleContractContext('listing_sale')).质量价格调整 as string[];
    expect(clauses).toEqual([
      '计价基准：发热量 Qnet,ar 5500 kcal/kg，全硫 St,d 0.8%，灰分 Ad 15%，计价全水分 Mt 12%。',
      '发热量 Qnet,ar 5500–5800 kcal/kg：每高于基准 100 kcal/kg，单价相应增加 5.00 元/吨。',
      '发热量 Qnet,ar 5000–5500 kcal/kg：每低于基准 100 kcal/kg，单价相应减少 10.00 元/吨。',
      '发热量 Qnet,ar 低于 4800 kcal/kg 的，买方有权拒收。',
      '全硫 St,d 每高于基准 0.1%，单价相应减少 5.00 元/吨；低于基准不予加价。',
      '灰分 Ad 每高于基准 1%，单价相应减少 3.00 元/吨；低于基准不予加价。',
      '全水分 Mt 超过计价全水分 12% 的，按超出的百分点扣减结算数量。',
    ]);
  });
});

describe('template parsing', () => {
  it('finds placeholders with or without spaces, in order, once', () => {
    expect(templatePlaceholders('{{合同编号}} {{ 金额 }}\n{{合同编号}}{{甲}}')).toEqual(['合同编号', '金额', '甲']);
  });

  it('reports unknown names and an unclosed {{', () => {
    expect(unknownPlaceholders('{{合同编号}}{{甲}}\n{{ 乙 }}{{金额}}')).toEqual(['甲', '乙']);
    expect(unknownPlaceholders('金额：{{金额')).toEqual(['{{金额']);
    expect(unknownPlaceholders('金额：{{金额}\n{{合同编号}}')).toEqual(['{{金额}']);
    expect(unknownPlaceholders('{{合同编号}}{{金额}}')).toEqual([]);
    expect(unknownPlaceholdersMessage(['甲', '乙'])).toBe('模板中有未知占位符：{{甲}}、{{乙}}');
    expect(unknownPlaceholdersMessage(['{{金额'])).toBe('模板中有未知占位符：{{金额');
  });
});

describe('renderContractText', () => {
  const body = [
    '# 煤炭买卖合同',
    '合同编号：{{合同编号}}',
    '',
    '## 第一条 价格及金额',
    '  合同金额 {{金额}}（人民币{{ 金额大写 }}）。  ',
    '{{质量价格调整}}',
    '   ',
    '其他：{{补充约定}}',
  ].join('\r\n');

  it('fills the placeholders, keeps the heading markers, expands the block line and drops empty lines', () => {
    const ctx = sampleContractContext('listing_sale');
    const paragraphs = renderContractText(body, ctx);
    expect(paragraphs.slice(0, 4)).toEqual([
      '# 煤炭买卖合同',
      '合同编号：HT202611220001',
      '## 第一条 价格及金额',
      '合同金额 ¥845,500.00（人民币捌拾肆万伍仟伍佰元整）。',
    ]);
    expect(paragraphs.slice(4, -1)).toEqual(placeholderValues(ctx).质量价格调整);
    expect(paragraphs.at(-1)).toBe('其他：无');
  });

  it('refuses unknown placeholders, or leaves them as written for a preview', () => {
    const ctx = sampleContractContext('long_term');
    expect(() => renderContractText('甲方：{{甲方}}', ctx)).toThrow('模板中有未知占位符：{{甲方}}');
    expect(renderContractText('甲方：{{甲方}} {{合同编号}}', ctx, { lenient: true })).toEqual(['甲方：{{甲方}} HT202611220001']);
  });

  it('joins a block placeholder written inside a sentence', () => {
    const [line] = renderContractText('调整：{{质量价格调整}}', sampleContractContext('listing_sale'));
    expect(line).toContain('调整：计价基准：');
    expect(line).toContain('买方有权拒收。');
  });
});

describe('default terms', () => {
  it('follows the price type for transport and weighing, and validates against the terms schema', () => {
    const base = { deliveryPlace: '秦皇岛港', deliveryDateStart: '2026-12-01', deliveryDateEnd: '2026-12-31', quality: { qnet: 5000, st: 1.2 } };
    const delivered = defaultContractTerms({ ...base, priceType: 'delivered' });
    expect([delivered.transportArranger, delivered.weighingBasis, delivered.testingBasis]).toEqual(['seller', 'buyer', 'third_party']);
    for (const priceType of ['factory_tax', 'pithead']) {
      const t = defaultContractTerms({ ...base, priceType });
      expect([t.transportArranger, t.weighingBasis]).toEqual(['buyer', 'seller']);
    }
    expect(delivered).toMatchObject({ quantityTolerancePct: 5, transitLossPct: 0.2, prepaymentPct: 100, paymentWorkingDays: 3, remark: '' });
    expect(ContractTermsSchema.safeParse(delivered).success).toBe(true);
    for (const kind of CONTRACT_KIND_KEYS) expect(ContractTermsSchema.safeParse(sampleContractContext(kind).terms).success).toBe(true);
  });

  it('derives the quality adjustments from the trade indicators', () => {
    expect(defaultQualityAdjustments({ qnet: 5000, st: 1.2, ad: 18, mt: 10 })).toEqual({
      basisQnet: 5000,
      qnetTiers: [
        { from: 4500, to: 5000, fenPer100Kcal: 1000 },
        { from: 5000, to: 5300, fenPer100Kcal: 500 },
      ],
      rejectBelowQnet: 4300,
      basisSt: 1.2,
      fenPerStStep: 500,
      basisAd: 18,
      fenPerAdStep: 300,
      pricingMt: 10,
    });
    const none = defaultQualityAdjustments({});
    expect([none.basisQnet, none.pricingMt]).toEqual([5500, 12]);
    // near the range limits the tiers stay inside 1000–8000 and never empty
    const high = defaultQualityAdjustments({ qnet: 8000 });
    expect(high.qnetTiers).toEqual([{ from: 7500, to: 8000, fenPer100Kcal: 1000 }]);
  });
});

describe('{{出价记录哈希}}', () => {
  it("an auction's contract names its bid log's final hash; listing and long-term contracts say '—'", () => {
    const auction = sampleContractContext('auction_purchase');
    expect(placeholderValues(auction)['出价记录哈希']).toMatch(/^[0-9a-f]{64}$/);
    expect(placeholderValues({ ...auction, bidLogHash: 'ab'.repeat(32) })['出价记录哈希']).toBe('ab'.repeat(32));
    for (const kind of ['listing_sale', 'listing_purchase', 'long_term', 'long_term_monthly'] as const) {
      expect(placeholderValues(sampleContractContext(kind))['出价记录哈希'], kind).toBe('—');
    }
    expect(renderContractText('出价记录哈希：{{出价记录哈希}}', { ...auction, bidLogHash: null })).toEqual(['出价记录哈希：—']);
  });
});
