import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Card, Checkbox, Result, message } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { AuctionState, bidderAlias, formatFen, formatPrice, formatTons, PRICE_LABEL, TradeType } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import { useMoneyAction } from '@/components/MoneyConfirm';
import { newRequestId } from '@/components/PayAuth';
import { getFundInfo } from '@/services/funds';
import { enrolAuction, getAuction, listMyEnrolments } from '@/services/auction';
import { AUCTION_TYPE_TEXT, secondsText, stepWords } from '@/lib/auction';
import { AuctionHeadline, AuctionLoadState, limitText, maxStepText } from '@/components/auction/AuctionParts';
import { useWallCountdown } from '@/hooks/useWallCountdown';
import { countdownText } from '@/lib/countdown';

/**
 * 竞价报名 (/deal/biddRegistration?tradeId): accept the rules, see the deposit to be frozen against the available
 * funds, pass the pay-auth flow and enrol. One request id per attempt, kept on retry so a double click enrols once.
 */
export default function BiddRegistrationPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const queryClient = useQueryClient();
  const { companyInfo } = useSession();
  const auction = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false });
  const funds = useQuery({ queryKey: ['funds', 'info'], queryFn: getFundInfo, retry: false, enabled: Boolean(companyInfo) });
  const mine = useQuery({
    queryKey: ['auction', 'enrolment', tradeId],
    queryFn: () => listMyEnrolments({ tradeId, pageNo: 1, pageSize: 1 }),
    enabled: Boolean(tradeId && companyInfo),
    retry: false,
  });
  const [accepted, setAccepted] = useState(false);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<{ bidderNo: number } | null>(null);
  const requestId = useRef(newRequestId());
  const { act, holder } = useMoneyAction();
  const left = useWallCountdown(auction.data?.enrolDeadline);
  const a = auction.data;

  if (!a) {
    return (
      <div className="coalx-page">
        <AuctionLoadState missingId={!tradeId} loading={auction.isLoading} error={auction.error} />
      </div>
    );
  }
  const words = stepWords(a.tradeType);
  const enrolment = mine.data?.records.find((e) => e.tradeId === a.tradeId);
  const short = funds.data ? funds.data.available < a.deposit : false;
  const blocked = !companyInfo
    ? '仅企业交易员可以报名'
    : companyInfo.organName === a.enterpriseName
      ? '不能报名本企业发布的竞价'
      : a.hangState !== AuctionState.enrolling || left === 0
        ? `报名已于 ${a.enrolDeadline} 截止`
        : null;

  const submit = async () => {
    if (!accepted) {
      message.error('请阅读并同意竞价规则');
      return;
    }
    const confirmation = {
      title: '确认报名',
      rows: [
        { label: '交易编号', value: a.tradeId },
        { label: '竞价数量', value: formatTons(a.quantity) },
        { label: PRICE_LABEL[a.tradeType] ?? '起拍价', value: formatPrice(a.startPrice) },
        { label: '冻结保证金', value: `¥${formatFen(a.deposit)}`, strong: true },
      ],
      next: `确认后立即从可用资金冻结保证金 ¥${formatFen(a.deposit)}。竞价于 ${a.bidDateStart} 开始；中标则转为履约保证金，未中标在竞价结束后解冻。`,
      okText: '确定报名',
    };
    try {
      const result = await act(confirmation, (auth) => enrolAuction({ tradeId: a.tradeId, requestId: requestId.current, ...auth }), {
        action: 'auction_enrol',
        payload: { tradeId: a.tradeId, requestId: requestId.current },
        title: '竞价报名：请输入支付密码',
        description: `报名 ${a.tradeId}，冻结竞价保证金 ¥${formatFen(a.deposit)}`,
        onConfirmed: () => setSending(true),
      });
      if (!result) return;
      requestId.current = newRequestId();
      setDone({ bidderNo: result.bidderNo });
      void queryClient.invalidateQueries({ queryKey: ['auction'] });
      void queryClient.invalidateQueries({ queryKey: ['funds'] });
    } catch (error) {
      message.error(errorMessage(error, '报名失败，请稍后重试'));
    } finally {
      setSending(false);
    }
  };

  if (done || enrolment) {
    const alias = done ? bidderAlias(done.bidderNo) : enrolment!.bidder;
    return (
      <div className="coalx-page">
        <Card variant="borderless">
          <Result
            status="success"
            title={done ? '报名成功，保证金已冻结' : '本企业已报名该竞价'}
            subTitle={`交易编号 ${a.tradeId}，竞价代号 ${alias}，冻结保证金 ¥${formatFen(a.deposit)}。竞价开始时间 ${a.bidDateStart}，请准时进入竞价室出价。`}
            extra={[
              <Link key="room" to={`/deal/bidding?tradeId=${a.tradeId}`}>
                <Button type="primary">进入竞价室</Button>
              </Link>,
              <Link key="mine" to="/auctionTrade/sign">
                <Button>我的报名</Button>
              </Link>,
              <Link key="detail" to={`/biddingDetails?tradeId=${a.tradeId}`}>
                <Button>返回竞价详情</Button>
              </Link>,
            ]}
          />
        </Card>
      </div>
    );
  }

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreBidding?tradeType=${a.tradeType}`}>{AUCTION_TYPE_TEXT[a.tradeType]}</Link> },
          { title: <Link to={`/biddingDetails?tradeId=${a.tradeId}`}>{a.tradeId}</Link> },
          { title: '竞价报名' },
        ]}
      />
      <AuctionHeadline auction={a} />
      <Card title="竞价报名" variant="borderless" className="coalx-section-card">
        {blocked && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={blocked} />}
        <div className="coalx-preview">
          <div>
            <div className="coalx-figure-label">应冻结保证金</div>
            <div className="coalx-figure-value coalx-price" data-testid="enrol-deposit">
              ¥{formatFen(a.deposit)}
            </div>
          </div>
          <div>
            <div className="coalx-figure-label">可用资金</div>
            <div className="coalx-figure-value">{funds.data ? `¥${formatFen(funds.data.available)}` : '-'}</div>
          </div>
          <div>
            <div className="coalx-figure-label">距报名截止</div>
            <div className="coalx-figure-value">{countdownText(left)}</div>
          </div>
        </div>
        <div className="coalx-form-section-title">竞价交易规则</div>
        <div className="coalx-rules-box" aria-label="竞价交易规则">
          <ol>
            <li>报名企业须为交易中心审核通过的企业；发布方企业及同一实际控制人下的企业不得报名。</li>
            <li>报名时冻结竞价保证金 ¥{formatFen(a.deposit)}；未冻结保证金的企业不得出价。</li>
            <li>
              {a.tradeType === TradeType.auctionPurchase
                ? `本竞价为采购竞价（反向竞价）：首次出价不高于基价 ${formatPrice(a.startPrice)}，此后每次出价须比当前最低价低至少 ${formatPrice(a.minStep)}`
                : `本竞价为销售竞价（正向竞价）：首次出价不低于起拍价 ${formatPrice(a.startPrice)}，此后每次出价须比当前最高价高至少 ${formatPrice(a.minStep)}`}
              ，{words.maxStep}为 {maxStepText(a)}，{words.limit}为 {limitText(a)}。
            </li>
            <li>价格相同时不能同时成立：以价格优先、时间优先，先到达交易系统的出价有效。一切以交易系统服务器时间为准。</li>
            <li>
              延时竞价：正常竞价时间结束时无人出价则流拍；有出价则进入延时周期（{secondsText(a.extensionSeconds)}），延时周期内每有一次有效出价即重新计时，一个完整周期内无新出价时竞价结束，最优出价者中标。
            </li>
            <li>竞价结束后，中标企业的保证金转为履约保证金，其余企业的保证金自动释放。中标企业无正当理由不签订合同的，履约保证金不予退还。</li>
            <li>出价一经提交不可撤回；出价记录以代号公开，结果公告中中标企业名称部分隐藏。</li>
          </ol>
        </div>
        <div style={{ margin: '16px 0' }}>
          <Checkbox checked={accepted} onChange={(e) => setAccepted(e.target.checked)} disabled={Boolean(blocked)}>
            我已阅读并同意《竞价交易规则》
          </Checkbox>
        </div>
        {short && !blocked && (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message="可用资金不足以冻结竞价保证金，请先入金" action={<Link to="/financial/application">去入金</Link>} />
        )}
        <Button type="primary" size="large" onClick={submit} loading={sending} disabled={Boolean(blocked) || !accepted || sending}>
          确认报名并冻结保证金
        </Button>
        <span className="coalx-hint" style={{ marginLeft: 16 }}>
          报名截止时间 {a.enrolDeadline}；竞价时间 {a.bidDateStart} 至 {a.bidDateEnd}
        </span>
      </Card>
      {holder}
    </div>
  );
}
