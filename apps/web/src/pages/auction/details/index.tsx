import { AuctionState } from '@coalx/shared';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Button } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '@/app/session';
import { getAuction } from '@/services/auction';
import { AUCTION_TYPE_TEXT, auctionButtonPath, auctionTableButton } from '@/lib/auction';
import { AuctionDescriptions, AuctionHeadline, AuctionLoadState } from '@/components/auction/AuctionParts';
import { AuctionSteps } from '@/components/auction/AuctionSteps';
import { useWallCountdown } from '@/hooks/useWallCountdown';
import { countdownText } from '@/lib/countdown';

/** 竞价销售详情 (/biddingDetails?tradeId): every field, the stage, the countdown to the next step and the state's button. */
export default function BiddingDetailsPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const query = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false, refetchInterval: 15_000 });
  const { companyInfo } = useSession();
  const a = query.data;
  const own = Boolean(a && companyInfo && companyInfo.organName === a.enterpriseName);
  const next = a ? (a.hangState === AuctionState.enrolling ? a.enrolDeadline : a.hangState === AuctionState.waiting ? a.bidDateStart : a.hangState === AuctionState.bidding ? a.currentEnd : null) : null;
  const left = useWallCountdown(next);
  const button = a ? auctionTableButton(a.hangState) : null;

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreBidding?tradeType=${a?.tradeType ?? 2}`}>{AUCTION_TYPE_TEXT[a?.tradeType ?? 2]}</Link> },
          { title: '竞价详情' },
        ]}
      />
      {!a ? (
        <AuctionLoadState missingId={!tradeId} loading={query.isLoading} error={query.error} />
      ) : (
        <>
          <AuctionHeadline
            auction={a}
            extra={
              button && !(own && button.key === 'signUp') ? (
                <Link to={auctionButtonPath(button.key, a.tradeId)}>
                  <Button type={button.highlight ? 'primary' : 'default'} danger={button.key === 'join'} size="large">
                    {button.key === 'signUp' ? '立即报名' : button.label}
                  </Button>
                </Link>
              ) : undefined
            }
          >
            <AuctionSteps hangState={a.hangState} enrolDeadline={a.enrolDeadline} bidStart={a.bidDateStart} currentEnd={a.currentEnd} result={a.result} />
            {next && (
              <div className="coalx-countdown-box">
                <div>
                  <div className="coalx-countdown-label">{a.hangState === AuctionState.enrolling ? '距报名截止' : a.hangState === AuctionState.waiting ? '距竞价开始' : '距竞价结束'}</div>
                  <div className="coalx-countdown-digits">{countdownText(left)}</div>
                </div>
                <div className="coalx-hint">
                  {a.hangState === AuctionState.enrolling && '报名并冻结保证金后，竞价开始即可出价。'}
                  {a.hangState === AuctionState.waiting && '报名已截止，已报名企业请在竞价开始后进入竞价页面出价。'}
                  {a.hangState === AuctionState.bidding && '竞价进行中：延时期内每次出价重新计时，以竞价页面为准。'}
                </div>
              </div>
            )}
          </AuctionHeadline>
          {own && <div className="coalx-hint">本企业发布的竞价，本企业不能报名和出价；出价情况可在竞价页面实时观看。</div>}
          <AuctionDescriptions auction={a} />
        </>
      )}
    </div>
  );
}
