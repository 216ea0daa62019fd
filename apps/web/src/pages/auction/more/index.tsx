import type { ProColumns } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { formatFen, formatPrice, formatTons, PRICE_LABEL, TradeType, type AuctionView } from '@coalx/shared';
import MarketTable from '@/components/MarketTable';
import { placeText } from '@/components/TradeDetail';
import { listBidMarket } from '@/services/auction';
import { AUCTION_STATE_ENUM } from '@/lib/auction';
import { AuctionStateTag, AuctionTableButton } from '@/components/auction/AuctionParts';

// 起拍价 and 当前价 share a column, and the bidding window is shown to the minute: every key figure whole at 1440 px
const columns = (tradeType: number): ProColumns<AuctionView>[] => [
  { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => <Link to={`/biddingDetails?tradeId=${r.tradeId}`}>{r.tradeId}</Link> },
  { title: '产品名称', dataIndex: 'productName', width: 110, ellipsis: true },
  { title: '竞价状态', dataIndex: 'hangState', valueType: 'select', width: 100, valueEnum: AUCTION_STATE_ENUM, render: (_, r) => <AuctionStateTag state={r.hangState} result={r.result} /> },
  {
    title: `当前价 / ${PRICE_LABEL[tradeType]}`,
    dataIndex: 'price',
    search: false,
    align: 'right',
    width: 150,
    render: (_, r) => (
      <>
        {r.bestPrice === null ? <span className="coalx-hint">暂无出价</span> : <span className="coalx-price">{formatPrice(r.bestPrice)}</span>}
        <div className="coalx-num coalx-hint">{formatPrice(r.startPrice)}</div>
      </>
    ),
  },
  { title: '竞价数量', dataIndex: 'quantity', search: false, align: 'right', width: 124, render: (_, r) => <span className="coalx-num">{formatTons(r.quantity)}</span> },
  { title: '保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 120, render: (_, r) => <span className="coalx-num">{formatFen(r.deposit)}</span> },
  {
    title: '竞价时间',
    dataIndex: 'bidDateStart',
    search: false,
    width: 130,
    render: (_, r) => (
      <span className="coalx-num" title={`${r.bidDateStart} 至 ${r.bidDateEnd}`}>
        {r.bidDateStart.slice(5, 16)}
        <br />至 {r.bidDateEnd.slice(5, 16)}
      </span>
    ),
  },
  { title: '操作', valueType: 'option', width: 110, render: (_, r) => <AuctionTableButton tradeId={r.tradeId} hangState={r.hangState} /> },
];

/** 更多竞价 (/moreBidding?tradeType): the auction hall, 10 a page, filters, the state's button per row (spec §4). */
export default function MoreBiddingPage() {
  return (
    <MarketTable<AuctionView>
      title="更多竞价"
      subtitle="竞价交易大厅：审核通过的竞价，报名中、待竞价、竞价中与已结束"
      path="/moreBidding"
      tradeTypes={[TradeType.auctionSale, TradeType.auctionPurchase]}
      publish={(tradeType) => ({ to: `/listingTrade/Bidding?tradeType=${tradeType}`, label: '发布竞价' })}
      columns={columns}
      details={(r) => [
        { label: '发布企业', value: r.enterpriseName },
        { label: '报名截止', value: r.enrolDeadline },
        { label: '竞价时间', value: `${r.bidDateStart} 至 ${r.bidDateEnd}` },
        { label: '交收地点', value: placeText(r) },
      ]}
      list={listBidMarket}
    />
  );
}
