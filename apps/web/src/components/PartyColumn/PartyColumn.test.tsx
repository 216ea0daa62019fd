import type { ReactElement } from 'react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { partyColumns } from '.';

afterEach(cleanup);

type Row = { sellerName: string; buyerName: string; mySide: 'seller' | 'buyer' | null };
const row = (mySide: Row['mySide']): Row => ({ sellerName: '晋北煤业', buyerName: '华东电力', mySide });
const cell = (isOperator: boolean, r: Row) => {
  const [column] = partyColumns<Row>({ isOperator, side: (x) => x.mySide, title: '对方企业', width: 180 });
  return render(column!.render!(null, r, 0, undefined as never, undefined as never) as ReactElement).container;
};

describe('partyColumns', () => {
  it('shows an enterprise the other side, and its own side under it', () => {
    const mine = cell(false, row('buyer'));
    expect(mine.textContent).toBe('晋北煤业我方为买方');
    expect(mine.querySelector('[title]')?.getAttribute('title')).toBe('晋北煤业');
    expect(cell(false, row('seller')).textContent).toBe('华东电力我方为卖方');
    expect(cell(false, row(null)).textContent).toBe('-我方为-');
  });

  it('shows the trading centre 卖方 and 买方', () => {
    const columns = partyColumns<Row>({ isOperator: true, side: (x) => x.mySide, title: '对方企业', width: 180, operatorWidth: 120 });
    expect(columns.map((c) => [c.title, c.dataIndex, c.width])).toEqual([
      ['卖方', 'sellerName', 120],
      ['买方', 'buyerName', 120],
    ]);
  });
});
