import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Segmented } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ELLIPSIS, ellipsis, formatFen, formatPrice, formatTons, PRICE_LABEL, TradeType, type AuctionView } from '@coalx/shared';
import { withEmptyPageFallback } from '@/app/request';
import { placeText } from '@/components/TradeDetail';
import { listBidMarket } from '@/services/auction';
import { AUCTION_STATE_ENUM } from '@/lib/auction';
import { AuctionStateTag, AuctionTableButton } from '@/components/auction/AuctionParts';

/** 更多竞价 (/moreBidding?tradeType): the auction hall, 10 a page, filters, the state's button per row (spec §4). */
export default function MoreBiddingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tradeType = params.get('tradeType') === String(TradeType.auctionPurchase) ? TradeType.auctionPurchase : TradeType.auctionSale;

  const columns: ProColumns<AuctionView>[] = [
    { title: '交易编号', dataIndex: 'tradeId', width: 150, render: (_, r) => <Link to={`/biddingDetails?tradeId=${r.tradeId}`}>{r.tradeId}</Link> },
    { title: '产品名称', dataIndex: 'productName', width: 130 },
    { title: '竞价状态', dataIndex: 'hangState', valueType: 'select', width: 110, valueEnum: AUCTION_STATE_ENUM, render: (_, r) => <AuctionStateTag state={r.hangState} result={r.result} /> },
    { title: '发布企业', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span> },
    { title: PRICE_LABEL[tradeType], dataIndex: 'startPrice', search: false, align: 'right', width: 130, render: (_, r) => <span className="coalx-num">{formatPrice(r.startPrice)}</span> },
    {
      title: '当前价',
      dataIndex: 'price',
      search: false,
      align: 'right',
      width: 130,
      render: (_, r) => (r.bestPrice === null ? <span className="coalx-hint">暂无出价</span> : <span className="coalx-price">{formatFen(r.bestPrice)}</span>),
    },
    { title: '竞价数量', dataIndex: 'quantity', search: false, align: 'right', width: 130, render: (_, r) => <span className="coalx-num">{formatTons(r.quantity)}</span> },
    { title: '保证金 (元)', dataIndex: 'deposit', search: false, align: 'right', width: 120, render: (_, r) => <span className="coalx-num">{formatFen(r.deposit)}</span> },
    { title: '报名截止', dataIndex: 'enrolDeadline', search: false, width: 170 },
    { title: '竞价时间', dataIndex: 'bidDateStart', search: false, width: 180, render: (_, r) => <span className="coalx-num">{r.bidDateStart}<br />{r.bidDateEnd}</span> },
    { title: '交收地点', dataIndex: 'deliveryPlace', search: false, width: 200, ellipsis: true, render: (_, r) => <span title={placeText(r)}>{ellipsis(placeText(r))}</span> },
    { title: '操作', valueType: 'option', width: 120, fixed: 'right', render: (_, r) => <AuctionTableButton tradeId={r.tradeId} hangState={r.hangState} /> },
  ];

  return (
    <div className="coalx-page">
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">更多竞价</h2>
          <div className="coalx-page-sub">竞价交易大厅：审核通过的竞价，报名中、待竞价、竞价中与已结束</div>
        </div>
        <Link to={`/listingTrade/Bidding?tradeType=${tradeType}`}>
          <Button type="primary">发布竞价</Button>
        </Link>
      </div>
      <Segmented
        value={tradeType}
        onChange={(v) => navigate(`/moreBidding?tradeType=${v}`, { replace: true })}
        options={[
          { label: '竞价销售', value: 2 },
          { label: '竞价采购', value: 3 },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <ProTable<AuctionView>
        key={tradeType}
        rowKey="tradeId"
        columns={columns}
        cardBordered
        scroll={{ x: 1700 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        options={false}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        locale={{ emptyText: '暂无数据' }}
        request={async (p) => {
          const page = await withEmptyPageFallback(() =>
            listBidMarket({
              pageNo: p.current ?? 1,
              pageSize: p.pageSize ?? 10,
              tradeType,
              tradeId: p.tradeId?.trim() || undefined,
              productName: p.productName?.trim() || undefined,
              hangState: p.hangState !== undefined && p.hangState !== '' ? Number(p.hangState) : undefined,
            }),
          );
          return { data: page.records, total: page.total, success: true };
        }}
      />
    </div>
  );
}
