import { describe, expect, it } from 'vitest';
import { RECOMMEND_QUICK_FILTERS } from '@coalx/shared';
import {
  indexPriceText,
  indexRise,
  indexRisePercent,
  moreAnnouncementsPath,
  pdfDetailsPath,
  quickFilterParams,
  recommendButtons,
  recommendSearchParams,
  showViewMore,
} from './home';

describe('quick filters of the recommended list (spec §2)', () => {
  it('gives the request fields of each filter', () => {
    expect(RECOMMEND_QUICK_FILTERS.map((f) => f.label)).toEqual(['综合', '今日挂牌', '今日竞价', '5日内', '已结束']);
    expect(quickFilterParams('all')).toEqual({});
    expect(quickFilterParams('todayListing')).toEqual({ preDayNum: 0, tradeType: '0,1' });
    expect(quickFilterParams('todayAuction')).toEqual({ preDayNum: 0, tradeType: '2,3' });
    expect(quickFilterParams('fiveDays')).toEqual({ preDayNum: 5 });
    expect(quickFilterParams('ended')).toEqual({ hangState: 2 });
  });

  it('returns a copy: a caller cannot change the constant', () => {
    const p = quickFilterParams('todayListing');
    p.tradeType = '3';
    expect(quickFilterParams('todayListing').tradeType).toBe('0,1');
  });

  it('merges the search form over the quick filter, multi-selects as comma lists, blanks dropped', () => {
    expect(recommendSearchParams({ tradeId: '  GP1 ', tradeType: ['0', '2'], hangState: ['1', '2'], productName: ' ' }, 'all')).toEqual({
      tradeId: 'GP1',
      tradeType: '0,2',
      productName: undefined,
      category: undefined,
      hangState: '1,2',
    });
    expect(recommendSearchParams({}, 'todayAuction')).toMatchObject({ preDayNum: 0, tradeType: '2,3', hangState: undefined });
    expect(recommendSearchParams({ tradeType: [] }, 'ended')).toMatchObject({ tradeType: undefined, hangState: 2 });
  });
});

describe("'view more' threshold (spec §9)", () => {
  it('shows only when the total exceeds 10', () => {
    expect(showViewMore(undefined)).toBe(false);
    expect(showViewMore(0)).toBe(false);
    expect(showViewMore(10)).toBe(false);
    expect(showViewMore(11)).toBe(true);
  });
  it('links to the list of the type', () => {
    expect(moreAnnouncementsPath('0')).toBe('/moreAnnouncements?type=0');
    expect(moreAnnouncementsPath('1')).toBe('/moreAnnouncements?type=1');
  });
});

describe('market index display (spec §5)', () => {
  it('prints the price with thousands separators and 2 decimals', () => {
    expect(indexPriceText(79_320)).toBe('793.20');
    expect(indexPriceText(123_456_789)).toBe('1,234,567.89');
  });
  it('marks a rise red with +, a fall green, no change plain', () => {
    expect(indexRise(670)).toEqual({ text: '+6.70', tone: 'up' });
    expect(indexRise(-1_205)).toEqual({ text: '-12.05', tone: 'down' });
    expect(indexRise(0)).toEqual({ text: '0.00', tone: 'flat' });
  });
  it('gives the change in percent of the previous price', () => {
    expect(indexRisePercent(79_320, 670)).toBe('+0.85%');
    expect(indexRisePercent(78_650, -670)).toBe('-0.84%');
    expect(indexRisePercent(100, 100)).toBe('');
    expect(indexRisePercent(80_000, 0)).toBe('0.00%');
  });
});

describe('recommended row buttons by state (spec §4)', () => {
  const view = (type: number, state: number) => recommendButtons(type, state, 'T1').map((b) => `${b.label}${b.disabled ? '(禁用)' : `→${b.path}`}`);
  it('listings: open → 摘牌 and details, result disabled; ended → result, details disabled', () => {
    expect(view(0, 1)).toEqual(['摘牌→/hang/hangSale?tradeId=T1', '查看详情→/listingSalesDetails?tradeId=T1', '结果公告(禁用)']);
    expect(view(1, 2)).toEqual(['结果公告→/listingResult?tradeId=T1', '查看详情(禁用)']);
  });
  it('auctions: 0 enrol + details, result disabled; 1 waiting; 2 bidding room; 3 result, details disabled', () => {
    expect(view(2, 0)).toEqual(['参与竞价→/deal/biddRegistration?tradeId=T1', '查看详情→/biddingDetails?tradeId=T1', '结果公告(禁用)']);
    expect(view(3, 1)[0]).toBe('查看竞价→/waitingAuction?tradeId=T1');
    expect(view(2, 2)[0]).toBe('参与竞价→/deal/bidding?tradeId=T1');
    expect(view(3, 3)).toEqual(['结果公告→/biddingResults?tradeId=T1', '查看详情(禁用)']);
  });
});

describe('pdfDetails address', () => {
  it('carries the attachment key (and title) encoded', () => {
    expect(pdfDetailsPath('2026/11/22/a b.pdf', '规则')).toBe('/pdfDetails?enclosure=2026%2F11%2F22%2Fa+b.pdf&title=%E8%A7%84%E5%88%99');
    expect(new URLSearchParams(pdfDetailsPath('2026/11/22/x.pdf').split('?')[1]).get('enclosure')).toBe('2026/11/22/x.pdf');
  });
});
