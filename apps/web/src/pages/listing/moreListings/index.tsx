import { useRef } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Segmented } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  ELLIPSIS,
  ellipsis,
  formatPrice,
  formatTons,
  HANG_STATE_LABELS,
  HangState,
  PRICE_LABEL,
  TradeType,
  type ListingView,
} from '@coalx/shared';
import { withEmptyPageFallback } from '@/app/request';
import { listMarket } from '@/services/listing';
import { placeText } from '@/components/TradeDetail';
import { HangStateTag, ListingRowButtons } from '@/components/listing/StateParts';
import '@/components/TradeDetail/trade.css';

/** 更多挂牌 (/moreListings?tradeType): the listing hall, 10 a page, with trade number, product and state filters. */
export default function MoreListingsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tradeType = params.get('tradeType') === String(TradeType.listingPurchase) ? TradeType.listingPurchase : TradeType.listingSale;
  const action = useRef<ActionType>(null);

  const columns: ProColumns<ListingView>[] = [
    { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => <Link to={`/listingSalesDetails?tradeId=${r.tradeId}`}>{r.tradeId}</Link> },
    { title: '产品名称', dataIndex: 'productName', width: 130, render: (_, r) => <span className="coalx-num">{r.productName}</span> },
    {
      title: '挂牌状态',
      dataIndex: 'hangState',
      valueType: 'select',
      width: 90,
      valueEnum: { [HangState.open]: { text: HANG_STATE_LABELS[HangState.open] }, [HangState.ended]: { text: HANG_STATE_LABELS[HangState.ended] } },
      render: (_, r) => <HangStateTag state={r.hangState} />,
    },
    { title: '挂牌企业', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span> },
    { title: PRICE_LABEL[tradeType], dataIndex: 'price', search: false, align: 'right', width: 140, render: (_, r) => <span className="coalx-price">{formatPrice(r.price)}</span> },
    { title: '挂牌数量', dataIndex: 'quantity', search: false, align: 'right', width: 130, render: (_, r) => <span className="coalx-num">{formatTons(r.quantity)}</span> },
    { title: '剩余可摘量', dataIndex: 'remainingQuantity', search: false, align: 'right', width: 130, render: (_, r) => <span className="coalx-num">{formatTons(r.remainingQuantity)}</span> },
    { title: '交收地点', dataIndex: 'deliveryPlace', search: false, width: 220, ellipsis: true, render: (_, r) => <span title={placeText(r)}>{ellipsis(placeText(r))}</span> },
    { title: '挂牌截止', dataIndex: 'listedDateEnd', search: false, width: 170 },
    { title: '操作', valueType: 'option', width: 220, fixed: 'right', render: (_, r) => <ListingRowButtons tradeId={r.tradeId} hangState={r.hangState} /> },
  ];

  return (
    <div className="coalx-page">
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">更多挂牌</h2>
          <div className="coalx-page-sub">挂牌交易大厅：审核通过并已开始的挂牌，按挂牌时间倒序</div>
        </div>
        <Link to={`/listingTrade/tradeStart?tradeType=${tradeType}`}>
          <Button type="primary">{tradeType === TradeType.listingPurchase ? '我要买' : '我要卖'}</Button>
        </Link>
      </div>
      <Segmented
        value={tradeType}
        onChange={(v) => navigate(`/moreListings?tradeType=${v}`, { replace: true })}
        options={[
          { label: '挂牌销售', value: 0 },
          { label: '挂牌采购', value: 1 },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <ProTable<ListingView>
        key={tradeType}
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        cardBordered
        scroll={{ x: 1500 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        options={false}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        locale={{ emptyText: '暂无数据' }}
        request={async (p) => {
          const page = await withEmptyPageFallback(() =>
            listMarket({
              pageNo: p.current ?? 1,
              pageSize: p.pageSize ?? 10,
              tradeType,
              tradeId: p.tradeId?.trim() || undefined,
              productName: p.productName?.trim() || undefined,
              hangState: p.hangState ? Number(p.hangState) : undefined,
            }),
          );
          return { data: page.records, total: page.total, success: true };
        }}
      />
    </div>
  );
}
