import { describe, expect, it } from 'vitest';
import { bidPriceRefusal, isBetterBid, subscriptionDeposit } from './rules';
import { dealSides, isAuction, isSale, TradeType } from './types';

const sale = { tradeType: TradeType.auctionSale, startPrice: 80_000, bestPrice: null, minStep: 500, maxStep: 5_000, limitPrice: 100_000 };
const purchase = { ...sale, tradeType: TradeType.auctionPurchase, limitPrice: 60_000 };

describe('shared trade rules', () => {
  it('one idea of sale: the publisher sells in types 0 and 2', () => {
    expect([0, 1, 2, 3].map(isSale)).toEqual([true, false, true, false]);
    expect([0, 1, 2, 3].map(isAuction)).toEqual([false, false, true, true]);
    expect(dealSides(TradeType.listingPurchase, 'publisher', 'subscriber')).toEqual({ seller: 'subscriber', buyer: 'publisher' });
  });

  it('bids: sale goes up, purchase goes down, within steps and the cap or floor', () => {
    expect(bidPriceRefusal(sale, 79_999)).toContain('起拍价');
    expect(bidPriceRefusal(sale, 80_000)).toBeNull();
    expect(bidPriceRefusal(sale, 85_001)).toContain('最大加价幅度');
    expect(bidPriceRefusal({ ...sale, bestPrice: 99_800 }, 100_300)).toContain('出价上限');
    expect(bidPriceRefusal({ ...sale, bestPrice: 81_000 }, 81_400)).toContain('最小加价幅度');
    expect(bidPriceRefusal(purchase, 80_001)).toContain('基价');
    expect(bidPriceRefusal({ ...purchase, bestPrice: 60_200 }, 59_700)).toContain('出价下限');
    expect(bidPriceRefusal(sale, 0)).toBe('出价须大于 0');
    expect(isBetterBid(TradeType.auctionSale, 2, 1)).toBe(true);
    expect(isBetterBid(TradeType.auctionPurchase, 2, 1)).toBe(false);
  });

  it('subscription deposit: per ton rounds half up to the fen, fixed is per subscription', () => {
    expect(subscriptionDeposit('per_ton', 1_000, 1_500)).toBe(1_500);
    expect(subscriptionDeposit('per_ton', 333, 1_001)).toBe(333);
    expect(subscriptionDeposit('fixed', 50_000, 1_500)).toBe(50_000);
  });
});
