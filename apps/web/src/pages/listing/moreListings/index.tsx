import type { ProColumns } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { formatPrice, formatTons, HANG_STATE_LABELS, HangState, PRICE_LABEL, TradeType, type ListingView } from '@coalx/shared';
import MarketTable from '@/components/MarketTable';
import { listMarket } from '@/services/listing';
import { placeText } from '@/components/TradeDetail';
import { HangStateTag, ListingRowButtons } from '@/components/listing/StateParts';

const columns = (tradeType: number): ProColumns<ListingView>[] => [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => <Link to={`/listingSalesDetails?tradeId=${r.tradeId}`}>{r.tradeId}</Link> },
  { title: '产品名称', dataIndex: 'productName', width: 120, ellipsis: true },
  {
    title: '挂牌状态',
    dataIndex: 'hangState',
    valueType: 'select',
    width: 96,
    valueEnum: { [HangState.open]: { text: HANG_STATE_LABELS[HangState.open] }, [HangState.ended]: { text: HANG_STATE_LABELS[HangState.ended] } },
    render: (_, r) => <HangStateTag state={r.hangState} />,
  },
  { title: PRICE_LABEL[tradeType], dataIndex: 'price', search: false, align: 'right', width: 136, render: (_, r) => <span className="coalx-price">{formatPrice(r.price)}</span> },
  { title: '挂牌数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => <span className="coalx-num">{formatTons(r.quantity)}</span> },
  { title: '剩余可摘量', dataIndex: 'remainingQuantity', search: false, align: 'right', width: 124, render: (_, r) => <span className="coalx-num">{formatTons(r.remainingQuantity)}</span> },
  { title: '操作', valueType: 'option', width: 220, render: (_, r) => <ListingRowButtons tradeId={r.tradeId} hangState={r.hangState} /> },
];

/** 更多挂牌 (/moreListings?tradeType): the listing hall, 10 a page, with trade number, product and state filters. */
export default function MoreListingsPage() {
  return (
    <MarketTable<ListingView>
      title="更多挂牌"
      subtitle="挂牌交易大厅：审核通过并已开始的挂牌，按挂牌时间倒序"
      path="/moreListings"
      tradeTypes={[TradeType.listingSale, TradeType.listingPurchase]}
      publish={(tradeType) => ({ to: `/listingTrade/tradeStart?tradeType=${tradeType}`, label: tradeType === TradeType.listingPurchase ? '我要买' : '我要卖' })}
      columns={columns}
      details={(r) => [
        { label: '挂牌企业', value: r.enterpriseName },
        { label: '挂牌时间', value: `${r.listedDateStart} 至 ${r.listedDateEnd}` },
        { label: '交收地点', value: placeText(r) },
      ]}
      list={listMarket}
    />
  );
}
