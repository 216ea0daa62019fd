import { describe, expect, it } from 'vitest';
import { cleanParams, enumOf } from './pro-table';

describe('ProTable helpers', () => {
  it('drops paging and blank fields, trims texts and turns the named selects into numbers', () => {
    expect(cleanParams({ current: 2, pageSize: 10, tradeId: '  GP1 ', status: '', hangState: '1', note: null, extra: undefined }, ['hangState'])).toEqual({
      tradeId: 'GP1',
      hangState: 1,
    });
  });

  it('turns a code → text map into a valueEnum', () => {
    expect(enumOf({ draft: '草稿', submitted: '待审核' })).toEqual({ draft: { text: '草稿' }, submitted: { text: '待审核' } });
  });
});
