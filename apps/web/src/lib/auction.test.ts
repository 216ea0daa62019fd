import { describe, expect, it } from 'vitest';
import { AuctionApplySchema } from '@coalx/shared';
import { auctionButtonPath, auctionCrossErrors, auctionTimes, headlinePriceLabel, auctionRowButtons, auctionTableButton, fromAuction, secondsText, toAuctionApply, type AuctionFormValues } from './auction';

const NOW = Date.parse('2026-05-01T10:00:00+08:00');

function values(over: Partial<AuctionFormValues> = {}): AuctionFormValues {
  return {
    tradeType: 2,
    stockCode: 'P5500',
    quality: { qnet: 5500, mt: 12, st: 0.8, ad: 20, vdaf: 28, ashFusion: null },
    quantityTons: '5000.5',
    startPriceYuan: '780.10',
    minStepYuan: '1',
    maxStepYuan: '10',
    depositYuan: '200000',
    enrolDeadline: '2026-05-02 09:00:00',
    bidStart: '2026-05-02 10:00:00',
    bidEnd: '2026-05-02 10:30:00',
    extensionSeconds: 120,
    priceType: 'factory_tax',
    transport: 'rail',
    area: ['山西省', '朔州市'],
    deliveryPlace: '平鲁区储煤场',
    deliveryDateStart: '2026-05-05',
    deliveryDateEnd: '2026-05-30',
    ...over,
  };
}

describe('auction buttons (spec §4)', () => {
  it('table: 0 报名, 1 查看竞价, 2 参与竞价 highlighted; 3 结果公告 plain', () => {
    expect([0, 1, 2, 3].map((s) => [auctionTableButton(s)?.label, auctionTableButton(s)?.highlight])).toEqual([
      ['报名', true],
      ['查看竞价', true],
      ['参与竞价', true],
      ['结果公告', false],
    ]);
    expect(auctionTableButton(9)).toBeNull();
  });

  it('recommended rows: state 0 join + details with result disabled; state 3 result with details disabled', () => {
    expect(auctionRowButtons(0).map((b) => [b.label, b.disabled])).toEqual([
      ['参与竞价', false],
      ['查看详情', false],
      ['结果公告', true],
    ]);
    expect(auctionRowButtons(3).map((b) => [b.label, b.disabled])).toEqual([
      ['结果公告', false],
      ['查看详情', true],
    ]);
  });

  it('paths of spec §2', () => {
    expect(auctionButtonPath('signUp', 'JP1')).toBe('/deal/biddRegistration?tradeId=JP1');
    expect(auctionButtonPath('view', 'JP1')).toBe('/waitingAuction?tradeId=JP1');
    expect(auctionButtonPath('join', 'JP1')).toBe('/deal/bidding?tradeId=JP1');
    expect(auctionButtonPath('result', 'JP1')).toBe('/biddingResults?tradeId=JP1');
    expect(auctionButtonPath('details', 'JP1')).toBe('/biddingDetails?tradeId=JP1');
  });
});

describe('publishing form', () => {
  it('converts yuan and tons without floats and passes the shared schema', () => {
    const body = toAuctionApply(values(), true);
    expect(body).toMatchObject({ quantity: 5_000_500, startPrice: 78_010, minStep: 100, maxStep: 1_000, limitPrice: null, deposit: 20_000_000 });
    expect(body.enrolDeadline).toBe('2026-05-02T09:00:00+08:00');
    expect(AuctionApplySchema.safeParse(body).success).toBe(true);
    expect(toAuctionApply(values({ maxStepUnlimited: true, limitYuan: '900' }), false)).toMatchObject({ maxStep: null, limitPrice: 90_000, submit: false });
  });

  it('cross-field rules: max ≥ min step, cap above the start (floor below the base), the time order', () => {
    expect(auctionCrossErrors(values(), NOW)).toEqual({});
    expect(auctionCrossErrors(values({ maxStepYuan: '0.5' }), NOW).maxStepYuan).toBe('最大加价幅度不能小于最小加价幅度');
    expect(auctionCrossErrors(values({ maxStepYuan: '0.5', maxStepUnlimited: true }), NOW).maxStepYuan).toBeUndefined();
    expect(auctionCrossErrors(values({ limitYuan: '700' }), NOW).limitYuan).toBe('出价上限不能低于起拍价');
    expect(auctionCrossErrors(values({ tradeType: 3, limitYuan: '800' }), NOW).limitYuan).toBe('出价下限不能高于基价');
    expect(auctionCrossErrors(values({ enrolDeadline: '2026-05-02 11:00:00' }), NOW).enrolDeadline).toBe('报名截止时间不能晚于竞价开始时间');
    expect(auctionCrossErrors(values({ enrolDeadline: '2026-05-01 09:00:00' }), NOW).enrolDeadline).toBe('报名截止时间须晚于当前时间');
    expect(auctionCrossErrors(values({ bidEnd: '2026-05-02 10:00:00' }), NOW).bidEnd).toBe('竞价结束时间须晚于开始时间');
  });

  it('round-trips a saved auction for editing', () => {
    const body = toAuctionApply(values({ tradeId: 'JP2026' }), true);
    const back = fromAuction({
      ...body,
      tradeId: 'JP2026',
      quality: body.quality,
      maxStep: body.maxStep,
      limitPrice: body.limitPrice,
      bidDateStart: '2026-05-02 10:00:00',
      bidDateEnd: '2026-05-02 10:30:00',
      enrolDeadline: '2026-05-02 09:00:00',
      extensionSeconds: 120,
      deliveryDistrict: '',
      remark: '',
    });
    expect(toAuctionApply(back, true)).toEqual(body);
    expect(secondsText(120)).toBe('2 分钟');
    expect(secondsText(90)).toBe('90 秒');
  });
});

describe('result text', () => {
  it('maps the server result codes to 成交 / 流拍', async () => {
    const { resultText } = await import('./auction');
    expect([resultText('deal'), resultText('failed'), resultText(null)]).toEqual(['成交', '流拍', null]);
  });
});

describe('auction time and price labels', () => {
  // 2026-11-22 22:06:00 Shanghai = 14:06:00 UTC
  const start = Date.UTC(2026, 10, 22, 14, 6, 0);
  const minute = 60_000;

  it('shows the regular window and the deadline in force from the same snapshot, extended once bids moved it', () => {
    const regular = auctionTimes({ bidStart: start, bidEnd: start + 3 * minute, currentEnd: start + 3 * minute, hangState: 2 });
    expect(regular).toEqual({ regular: '11-22 22:06 – 22:09', start: '22:06:00', deadline: '22:09:00', extended: false, deadlineLabel: '当前截止时间' });
    const extended = auctionTimes({ bidStart: start, bidEnd: start + 3 * minute, currentEnd: start + 4 * minute + 1_000, hangState: 2 });
    expect(extended).toMatchObject({ regular: '11-22 22:06 – 22:09', deadline: '22:10:01', extended: true });
    expect(auctionTimes({ bidStart: start, bidEnd: start + 3 * minute, currentEnd: start + 4 * minute, hangState: 3 }).deadlineLabel).toBe('结束时间');
    // a window over midnight names both days
    expect(auctionTimes({ bidStart: start, bidEnd: start + 120 * minute, currentEnd: start + 120 * minute, hangState: 2 })).toMatchObject({
      regular: '11-22 22:06 – 11-23 00:06',
      deadline: '11-23 00:06:00',
    });
  });

  it('says 成交价 once ended with a deal, never 当前最优价', () => {
    expect(headlinePriceLabel({ tradeType: 2, hangState: 3, result: 'deal', bestPrice: 82_300 })).toBe('成交价');
    expect(headlinePriceLabel({ tradeType: 2, hangState: 2, result: null, bestPrice: 82_300 })).toBe('当前最高价');
    expect(headlinePriceLabel({ tradeType: 3, hangState: 2, result: null, bestPrice: 78_000 })).toBe('当前最低价');
    expect(headlinePriceLabel({ tradeType: 2, hangState: 3, result: 'failed', bestPrice: null })).toBe('起拍价');
    expect(headlinePriceLabel({ tradeType: 3, hangState: 0, result: null, bestPrice: null })).toBe('基价');
  });
});
