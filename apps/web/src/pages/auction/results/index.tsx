import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Card, Result, Statistic } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { AuctionState, formatFen, formatPrice, formatTons } from '@coalx/shared';
import { getAuctionBidLog, getAuctionResult } from '@/services/auction';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { AuctionDescriptions, AuctionHeadline, AuctionLoadState } from '@/components/auction/AuctionParts';
import BidLogTable, { HashText } from '@/components/auction/BidLogTable';

/**
 * 竞价结果公告 (/biddingResults?tradeId): deal price, quantity, amount, masked winner, number of bids and bidders, or
 * 流拍; once ended, the public bid log (公开出价记录) with every hash and the final hash, linked to its verification.
 */
export default function BiddingResultsPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const query = useQuery({ queryKey: ['auction', 'result', tradeId], queryFn: () => getAuctionResult(tradeId), enabled: Boolean(tradeId), retry: false });
  const r = query.data;
  const a = r?.auction;
  const ended = a?.hangState === AuctionState.ended;
  const log = useQuery({ queryKey: ['auction', 'bidLog', tradeId], queryFn: () => getAuctionBidLog(tradeId), enabled: Boolean(tradeId) && ended, retry: false });

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
          <Card variant="borderless" className="coalx-section-card" title="竞价结果公告" extra={<span className="coalx-hint">发布企业名称公开，中标企业名称部分隐藏</span>}>
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
          {ended && log.data && log.data.entries.length > 0 && (
            <Card
              variant="borderless"
              className="coalx-section-card"
              title="公开出价记录"
              data-testid="bid-log"
              extra={<Link to={`/bidLog/verify?tradeId=${a.tradeId}`}>验证出价记录 &gt;</Link>}
            >
              <div className="coalx-hint" style={{ marginBottom: 12 }}>
                每条有效出价的哈希 = SHA-256（前一条的哈希 | 交易编号 | 序号 | 竞买人 | 出价（分/吨）| 服务器出价时间），第一条的“前一条哈希”为交易编号的
                SHA-256。任何人可重新计算；改动、删除或插入任何一条出价都会使链条断开。竞买人以代号公开。
              </div>
              <BidLogTable entries={log.data.entries} />
              <div className="coalx-bid-log-final">
                <b>最终哈希（已写入成交合同）：</b>
                <HashText hash={log.data.finalHash} testId="bid-log-final-hash" />
              </div>
            </Card>
          )}
          <AuctionDescriptions auction={a} />
        </>
      )}
    </div>
  );
}
