import { AuctionState } from '@coalx/shared';
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Button, Result } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getAuction } from '@/services/auction';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { AuctionDescriptions, AuctionHeadline, AuctionLoadState } from '@/components/auction/AuctionParts';
import { useWallCountdown } from '@/hooks/useWallCountdown';
import { countdownText } from '@/lib/countdown';
import { AuctionSteps } from '@/components/auction/AuctionSteps';

/** 待竞价详情 (/waitingAuction?tradeId): enrolment closed, a countdown to the start of bidding, then on to the bidding page. */
export default function WaitingAuctionPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tradeId = params.get('tradeId') ?? '';
  const query = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false, refetchInterval: 5_000 });
  const a = query.data;
  const left = useWallCountdown(a?.bidDateStart);
  const started = a ? a.hangState >= AuctionState.bidding : false;

  // the server moves the state; once it says 竞价中 the page goes to the bidding room
  useEffect(() => {
    if (a && a.hangState === AuctionState.bidding) navigate(`/deal/bidding?tradeId=${encodeURIComponent(a.tradeId)}`, { replace: true });
  }, [a, navigate]);

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreBidding?tradeType=${a?.tradeType ?? 2}`}>{AUCTION_TYPE_TEXT[a?.tradeType ?? 2]}</Link> },
          { title: '待竞价' },
        ]}
      />
      {!a ? (
        <AuctionLoadState missingId={!tradeId} loading={query.isLoading} error={query.error} />
      ) : (
        <>
          <AuctionHeadline
            auction={a}
            extra={
              <Link to={`/deal/bidding?tradeId=${a.tradeId}`}>
                <Button type="primary" size="large">
                  进入竞价室
                </Button>
              </Link>
            }
          >
            <AuctionSteps hangState={a.hangState} enrolDeadline={a.enrolDeadline} bidStart={a.bidDateStart} currentEnd={a.currentEnd} result={a.result} />
            {a.hangState <= AuctionState.waiting ? (
              <div className="coalx-countdown-box">
                <div>
                  <div className="coalx-countdown-label">距竞价开始</div>
                  <div className="coalx-countdown-digits" data-testid="start-countdown">
                    {left === 0 ? '即将开始…' : countdownText(left)}
                  </div>
                </div>
                <div className="coalx-hint">
                  竞价开始时间 {a.bidDateStart}，正常结束时间 {a.bidDateEnd}。已报名 {a.enrolCount} 家；报名已截止，未报名企业仅可观看。
                </div>
              </div>
            ) : null}
          </AuctionHeadline>
          {started && a.hangState === AuctionState.ended && (
            <Result status="info" title="竞价已结束" extra={<Link to={`/biddingResults?tradeId=${a.tradeId}`}><Button type="primary">查看结果公告</Button></Link>} />
          )}
          <AuctionDescriptions auction={a} />
        </>
      )}
    </div>
  );
}
