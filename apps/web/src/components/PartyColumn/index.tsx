import type { ProColumns } from '@ant-design/pro-components';
import { sideText } from '@/lib/contract';
import './party-column.css';

interface PartyRow {
  sellerName: string;
  buyerName: string;
}

export interface CounterpartyColumnOptions<T> {
  /** My enterprise's side of the row ('seller' | 'buyer'); null for the trading centre. */
  side: (row: T) => string | null;
  /** '对方企业' or '对方企业 / 我方角色' */
  title: string;
  dataIndex?: string;
  width: number;
}

/** 对方企业 of a workspace list: the other side's name (cut, whole on hover), 我方为卖方 / 我方为买方 under it. */
export function counterpartyColumn<T extends PartyRow>({ side, title, dataIndex = 'counterparty', width }: CounterpartyColumnOptions<T>): ProColumns<T> {
  return {
    title,
    dataIndex,
    width,
    search: false,
    render: (_, r) => {
      const mine = side(r);
      const other = mine === 'seller' ? r.buyerName : mine === 'buyer' ? r.sellerName : null;
      return (
        <span>
          <span className="coalx-party-name" title={other ?? ''}>
            {other ?? '-'}
          </span>
          <span className="coalx-party-side">我方为{sideText(mine)}</span>
        </span>
      );
    },
  };
}

/**
 * The parties of a list both enterprises and the trading centre see (contracts, orders, statements): the
 * trading centre is neither side, so it sees 卖方 and 买方 (each `operatorWidth` wide); an enterprise sees 对方企业.
 */
export function partyColumns<T extends PartyRow>({ isOperator, operatorWidth = 140, ...counterparty }: CounterpartyColumnOptions<T> & { isOperator: boolean; operatorWidth?: number }): ProColumns<T>[] {
  return isOperator
    ? [
        { title: '卖方', dataIndex: 'sellerName', width: operatorWidth, search: false, ellipsis: true },
        { title: '买方', dataIndex: 'buyerName', width: operatorWidth, search: false, ellipsis: true },
      ]
    : [counterpartyColumn(counterparty)];
}

/** The search field of those lists: the other side's name, or for the trading centre either side's. */
export function counterpartySearchColumn<T>(isOperator: boolean): ProColumns<T> {
  return { title: isOperator ? '企业名称' : '对方企业', dataIndex: 'counterparty', hideInTable: true, fieldProps: { placeholder: isOperator ? '卖方或买方企业名称' : '请输入对方企业名称' } };
}
