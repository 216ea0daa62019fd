import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Card, Result, Statistic, Table } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { AuctionState, formatFen, formatPrice, formatTons } from '@coalx/shared';
import { getAuctionResult, listBidRecords } from '@/services/auction';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { AuctionDescriptions, AuctionHeadline, AuctionLoadState } from '@/components/auction/AuctionParts';

/** 竞价结果公告 (/biddingResults?tradeId): deal price, quantity, amount, masked winner, number of bids and bidders, or 流拍. */
export default function BiddingResultsPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const query = useQuery({ queryKey: ['auction', 'result', tradeId], queryFn: () => getAuctionResult(tradeId), enabled: Boolean(tradeId), retry: false });
  const bids = useQuery({ queryKey: ['auction', 'bids', tradeId], queryFn: () => listBidRecords({ tradeId, pageNo: 1, pageSize: 100 }), enabled: Boolean(tradeId), retry: false });
  const r = query.data;
  const a = r?.auction;

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreBidding?tradeType=${a?.tradeType ?? 2}`}>{AUCTION_TYPE_TEXT[a?.tradeType ?? 2]}</Link> },
          { title: '竞价结果公告' },
        ]}
      />
      {!r || !a ? (
        <AuctionLoadState missingId={!tradeId} loading={query.isLoading} error={query.error} />
      ) : (
        <>
          <AuctionHeadline auction={a} />
          <Card variant="borderless" className="coalx-section-card" title="竞价结果公告">
            {a.hangState !== AuctionState.ended ? (
              <Result status="info" title="竞价尚未结束" subTitle="结果将在竞价结束后公布" extra={<Link to={`/deal/bidding?tradeId=${a.tradeId}`}>进入竞价室观看</Link>} />
            ) : r.dealPrice === null ? (
              <Result status="warning" title="流拍" subTitle={`本竞价在正常竞价时间内无有效出价，已流拍。报名 ${a.enrolCount} 家，保证金已全部释放。`} />
            ) : (
              <>
                <div className="coalx-result-figures" data-testid="auction-result">
                  <Statistic title="成交价格 (元/吨)" value={formatFen(r.dealPrice)} valueStyle={{ color: '#e5383b', fontWeight: 700 }} />
                  <Statistic title="成交数量" value={formatTons(a.quantity)} />
                  <Statistic title="成交金额 (元)" value={r.amount === null ? '-' : formatFen(r.amount)} />
                  <Statistic title="中标企业" value={r.winner ?? '-'} />
                  <Statistic title="出价次数" value={`${r.bidCount} 次`} />
                  <Statistic title="参与出价企业" value={`${r.bidderCount} 家`} />
                </div>
                <div className="coalx-hint" style={{ marginTop: 16 }}>
                  {AUCTION_TYPE_TEXT[a.tradeType]}以 {formatPrice(r.dealPrice)} 成交，结束时间 {a.currentEnd}。中标企业保证金转为履约保证金，其余报名企业保证金已释放。
                </div>
              </>
            )}
          </Card>
          {a.hangState === AuctionState.ended && (bids.data?.records.length ?? 0) > 0 && (
            <Card variant="borderless" className="coalx-section-card" title="出价记录">
              <Table
                size="small"
                rowKey="seq"
                dataSource={bids.data?.records ?? []}
                pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (t) => `共 ${t} 条` }}
                columns={[
                  { title: '序号', dataIndex: 'seq', width: 80 },
                  { title: '竞买人', dataIndex: 'bidder' },
                  { title: '出价 (元/吨)', dataIndex: 'price', align: 'right', render: (v: number) => formatFen(v) },
                  { title: '延时竞价', dataIndex: 'inExtension', render: (v: boolean) => (v ? '是' : '否') },
                  { title: '出价时间', dataIndex: 'time' },
                ]}
              />
            </Card>
          )}
          <AuctionDescriptions auction={a} />
        </>
      )}
    </div>
  );
}
