import { describe, expect, it } from 'vitest';
import { compactQuery } from './content';

describe('compactQuery', () => {
  it('drops blanks, trims texts and joins arrays as comma lists', () => {
    expect(compactQuery({ pageNo: 1, tradeId: ' GP1 ', productName: '', hangState: undefined, tradeType: ['0', '1'], stockCode: null, category: [] })).toEqual({
      pageNo: 1,
      tradeId: 'GP1',
      tradeType: '0,1',
    });
  });
  it('keeps 0 (today, state 0)', () => {
    expect(compactQuery({ preDayNum: 0, hangState: 0 })).toEqual({ preDayNum: 0, hangState: 0 });
  });
});
