import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Segmented } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { withEmptyPageFallback, type PageResult } from '@/app/request';
import { rowDetails, type RowDetail } from '@/components/RowDetails';
import '@/components/TradeDetail/trade.css';
import { TRADE_TYPE_TEXT } from '@/lib/home';
import type { MarketQuery } from '@/services/listing';

export interface MarketTableProps<T> {
  /** 更多挂牌, 更多竞价 */
  title: string;
  subtitle: string;
  /** The page's address; the switch between the two trade types sets its ?tradeType. */
  path: string;
  /** The sale and the purchase trade type; without ?tradeType the page shows the sale. */
  tradeTypes: [sale: number, purchase: number];
  /** The button beside the title: where it goes and what it says. */
  publish: (tradeType: number) => { to: string; label: string };
  columns: (tradeType: number) => ProColumns<T>[];
  /** What opens under a row. */
  details: (row: T) => RowDetail[];
  list: (query: MarketQuery) => Promise<PageResult<T>>;
}

/**
 * A public trading hall (更多挂牌, 更多竞价): title and publish button, the switch between selling and buying, and
 * the table of that trade type, 10 a page, searchable by trade number, product and state (the columns'
 * `hangState`). A page that fails to load shows as an empty one.
 */
export default function MarketTable<T extends { tradeId: string }>({ title, subtitle, path, tradeTypes, publish, columns, details, list }: MarketTableProps<T>) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [sale, purchase] = tradeTypes;
  const tradeType = params.get('tradeType') === String(purchase) ? purchase : sale;
  const button = publish(tradeType);
  return (
    <div className="coalx-page">
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">{title}</h2>
          <div className="coalx-page-sub">{subtitle}</div>
        </div>
        <Link to={button.to}>
          <Button type="primary">{button.label}</Button>
        </Link>
      </div>
      <Segmented
        value={tradeType}
        onChange={(v) => navigate(`${path}?tradeType=${v}`, { replace: true })}
        options={tradeTypes.map((value) => ({ label: TRADE_TYPE_TEXT[value], value }))}
        style={{ alignSelf: 'flex-start' }}
      />
      <ProTable<T>
        key={tradeType}
        rowKey="tradeId"
        columns={columns(tradeType)}
        cardBordered
        tableLayout="fixed"
        expandable={rowDetails<T>(details)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        options={false}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        locale={{ emptyText: '暂无数据' }}
        request={async (p) => {
          const page = await withEmptyPageFallback(() =>
            list({
              pageNo: p.current ?? 1,
              pageSize: p.pageSize ?? 10,
              tradeType,
              tradeId: p.tradeId?.trim() || undefined,
              productName: p.productName?.trim() || undefined,
              hangState: ['', null, undefined].includes(p.hangState) ? undefined : Number(p.hangState),
            }),
          );
          return { data: page.records, total: page.total, success: true };
        }}
      />
    </div>
  );
}
