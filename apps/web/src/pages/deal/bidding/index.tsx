import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Breadcrumb, Button, Card, Empty, Result, Skeleton, Table, Tag, Tooltip } from 'antd';
import { Link, useSearchParams } from 'react-router';
import {
  AuctionState,
  formatFen,
  formatPrice,
  formatTons,
  isSale,
  PRICE_LABEL,
  TradeType,
  type AuctionSnapshot,
} from '@coalx/shared';
import { useSession } from '@/app/session';
import { useWakeLock } from '@/hooks/useWakeLock';
import { hasAction } from '@/app/access';
import OperateAuction from '@/components/auction/OperateAuction';
import { getRoomBidders } from '@/services/monitor';
import { getAuction, getAuctionResult } from '@/services/auction';
import { AUCTION_TYPE_TEXT, auctionTimes, headlinePriceLabel, resultText, secondsText, stepWords } from '@/lib/auction';
import { AuctionStateTag, limitText, maxStepText } from '@/components/auction/AuctionParts';
import BidPanel from './components/BidPanel';
import { formatCountdown } from '@/lib/countdown';
import { AWAIT_RESULT_POLL_MS, rankOf, useAuctionLive, useCountdown, type LiveState } from './useAuctionLive';
import './bidding.css';

const timeOf = (text: string) => text.slice(11, 19) || text;

function ConnectionBadge({ status, attempt }: Pick<LiveState, 'status' | 'attempt'>) {
  if (status === 'open') return <Badge status="processing" color="green" text="实时连接" />;
  if (status === 'connecting') return <Badge status="default" text="正在连接…" />;
  if (status === 'reconnecting') return <Badge status="warning" text={`连接中断，正在重连${attempt > 1 ? `（第 ${attempt} 次）` : ''}…`} />;
  return <Badge status="default" text="已断开" />;
}

/** Why I cannot bid now (the server refuses these too), or null. */
function bidBlock(s: AuctionSnapshot, signedIn: boolean, remaining: number | null, leading: boolean): string | null {
  if (!signedIn) return '请先登录并报名后参与竞价';
  if (s.hangState === AuctionState.enrolling) return '竞价尚未开始：报名中，报名并冻结保证金后可在竞价开始后出价';
  if (s.hangState === AuctionState.waiting) return '竞价尚未开始，请等待竞价开始';
  if (s.hangState === AuctionState.ended) return '竞价已结束';
  if (s.hangState === AuctionState.paused) return `竞价已暂停：${s.operatorReason ?? '交易中心处理中'}，恢复后可继续出价`;
  if (s.hangState === AuctionState.cancelled) return `竞价已撤销：${s.operatorReason ?? ''}`;
  if (!s.me?.enrolled) return '本企业未报名或保证金未冻结，不能出价（仅可观看）';
  if (remaining === 0) return '本轮时间已到，等待交易中心确认结果…';
  if (leading) return '您当前已是最优出价，无需重复出价';
  return null;
}

/**
 * 参与竞价 (/deal/bidding?tradeId): the live auction. Everything shown comes from the server's last snapshot (pushed
 * over the WebSocket, or fetched by GET after a reconnect); the countdown runs on the server clock via the offset.
 */
export default function BiddingPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const { token } = useSession();
  const detail = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false });
  const live = useAuctionLive(tradeId);
  const s = live.snapshot;
  const paused = s?.hangState === AuctionState.paused;
  const cancelled = s?.hangState === AuctionState.cancelled;
  const deadline = s ? (s.hangState < AuctionState.bidding ? s.bidStart : s.currentEnd) : null;
  // paused: the clock is frozen at the time left the server kept; cancelled: no clock
  const remaining = useCountdown(s && s.hangState !== AuctionState.ended && !paused && !cancelled ? deadline : null, live.offset);
  // the trading centre's staff view: real names behind the aliases, no bid panel, the pause / resume controls
  const staff = Boolean(token) && hasAction('operation-monitor.query');
  const aliases = s ? [...s.ranking.map((r) => r.bidder), ...s.bids.map((b) => b.bidder)] : [];
  const names = useQuery({ queryKey: ['monitor', 'bidders', tradeId], queryFn: () => getRoomBidders(tradeId), enabled: staff && Boolean(tradeId) });
  const nameOf = (bidder: string) => names.data?.find((n) => n.bidder === bidder)?.enterpriseName;
  const unknownAlias = staff && names.data !== undefined && aliases.some((a) => !nameOf(a));
  const refetchNames = names.refetch;
  useEffect(() => {
    if (unknownAlias) void refetchNames(); // a bidder enrolled after the names were read
  }, [unknownAlias, refetchNames]);
  const awaitingResult = Boolean(s && s.hangState === AuctionState.bidding && remaining === 0);
  const ended = s?.hangState === AuctionState.ended;
  // once ended the room shows the outcome (成交价, the masked winner, or 流拍), not the race
  const result = useQuery({ queryKey: ['auction', 'result', tradeId], queryFn: () => getAuctionResult(tradeId), enabled: ended, retry: false });
  const refresh = live.refresh;
  // a phone must not go dark while the user may bid: live, enrolled, not the trading centre's view
  useWakeLock(Boolean(s && s.hangState === AuctionState.bidding && s.me?.enrolled && !staff));

  // a lost push must not leave the page waiting: ask by GET while the countdown shows 0 and the server has not ended it
  useEffect(() => {
    if (!awaitingResult && !(s && s.hangState === AuctionState.waiting && remaining === 0)) return;
    const timer = setInterval(() => void refresh(), AWAIT_RESULT_POLL_MS);
    return () => clearInterval(timer);
  }, [awaitingResult, s, remaining, refresh]);

  if (!tradeId) return <Result status="warning" title="缺少交易编号" extra={<Link to="/index"><Button type="primary">返回首页</Button></Link>} />;
  if (live.status === 'not_found') {
    return <Result status="404" title="竞价不存在" subTitle={live.error ?? '该竞价不存在或尚未公开'} extra={<Link to="/moreBidding?tradeType=2"><Button type="primary">查看更多竞价</Button></Link>} />;
  }

  const a = detail.data;
  const sale = isSale(s?.tradeType ?? a?.tradeType ?? TradeType.auctionSale);
  const auctionType = sale ? TradeType.auctionSale : TradeType.auctionPurchase;
  const words = stepWords(auctionType);
  const me = s?.me ?? null;
  const mine = s ? rankOf(s.ranking, me?.bidder) : null;
  const blocked = s ? bidBlock(s, Boolean(token), remaining, Boolean(mine?.leading)) : '正在连接…';
  const withName = (bidder: string, mark: string) => {
    const name = staff ? nameOf(bidder) : undefined;
    return (
      <>
        {mark}
        {name && <div className="coalx-staff-name" data-testid="staff-name">{name}</div>}
      </>
    );
  };
  const times = s ? auctionTimes(s) : null;
  const dealPrice = result.data?.dealPrice ?? null;

  return (
    <div className="coalx-page coalx-bidding">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreBidding?tradeType=${auctionType}`}>{AUCTION_TYPE_TEXT[auctionType]}</Link> },
          { title: <Link to={`/biddingDetails?tradeId=${tradeId}`}>{tradeId}</Link> },
          { title: '参与竞价' },
        ]}
      />
      <Card variant="borderless" className={`coalx-bidding-head ${sale ? '' : 'buy'}`}>
        <div className="coalx-bidding-head-row">
          <div>
            <div className="coalx-listing-title">
              <Tag color={sale ? 'blue' : 'orange'}>{AUCTION_TYPE_TEXT[auctionType]}</Tag>
              <span className="coalx-listing-name">{a?.productName ?? '…'}</span>
              {s && <AuctionStateTag state={s.hangState} result={s.result} />}
              {s?.inExtension && s.hangState === AuctionState.bidding && (
                <Tag color="volcano" className="coalx-extension-tag">
                  延时竞价中
                </Tag>
              )}
            </div>
            <div className="coalx-listing-sub">
              交易编号 {tradeId}
              {a && (
                <>
                  <span className="coalx-dot">·</span>
                  {a.enterpriseName}
                  <span className="coalx-dot">·</span>
                  {formatTons(a.quantity)}
                  <span className="coalx-dot">·</span>
                  {a.deliveryProvince}
                  {a.deliveryCity}
                </>
              )}
            </div>
          </div>
          <ConnectionBadge status={live.status} attempt={live.attempt} />
        </div>
      </Card>

      {s && paused && (
        <Alert
          type="warning"
          showIcon
          className="coalx-bidding-alert"
          data-testid="paused-banner"
          message={`竞价已暂停：${s.operatorReason ?? '交易中心处理中'}`}
          description={`剩余竞价时间 ${formatCountdown(s.pausedRemainingMs ?? 0)} 已冻结，交易中心恢复后按剩余时间继续计时，届时可继续出价。`}
        />
      )}
      {s && cancelled && (
        <Alert type="error" showIcon className="coalx-bidding-alert" data-testid="cancelled-banner" message={`竞价已撤销：${s.operatorReason ?? ''}`} description="本场竞价不成交，报名企业的保证金已全部释放。" />
      )}
      {!s ? (
        <Skeleton active paragraph={{ rows: 12 }} style={{ padding: 24, background: '#fff', borderRadius: 8 }} />
      ) : (
        <div className="coalx-bidding-grid">
          <div className="coalx-bidding-main">
            <Card variant="borderless" className="coalx-board">
              <div className="coalx-board-row">
                {ended ? (
                  <div className="coalx-board-price" data-testid="auction-outcome">
                    <div className="coalx-board-label">{s.result === 'deal' ? '成交价' : '竞价结果'}</div>
                    <div className="coalx-board-value" data-testid="deal-price">
                      {s.result === 'deal' ? (
                        <>
                          {formatFen(dealPrice ?? s.bestPrice)}
                          <span className="coalx-board-unit">元/吨</span>
                        </>
                      ) : (
                        '流拍'
                      )}
                    </div>
                    <div className="coalx-board-sub">
                      {s.result === 'deal' ? (
                        <>
                          中标企业 {result.data?.winner ?? '…'}
                          <span className="coalx-dot">·</span>
                        </>
                      ) : (
                        <>
                          正常竞价时间内无有效出价，保证金已全部释放
                          <span className="coalx-dot">·</span>
                        </>
                      )}
                      出价 {s.bidCount} 次 <span className="coalx-dot">·</span> 报名 {s.enrolCount} 家
                    </div>
                  </div>
                ) : (
                  <div className="coalx-board-price">
                    <div className="coalx-board-label">{s.bestPrice === null ? `${PRICE_LABEL[s.tradeType]}（暂无出价）` : headlinePriceLabel(s)}</div>
                    <div className={`coalx-board-value ${s.bestPrice === null ? 'start' : ''}`} data-testid="best-price">
                      {formatFen(s.bestPrice ?? s.startPrice)}
                      <span className="coalx-board-unit">元/吨</span>
                    </div>
                    <div className="coalx-board-sub">
                      {s.bestPrice !== null && (
                        <>
                          {PRICE_LABEL[s.tradeType]} {formatPrice(s.startPrice)}
                          <span className="coalx-dot">·</span>
                          {sale ? '累计加价' : '累计降价'} {formatFen(Math.abs(s.bestPrice - s.startPrice))} 元/吨
                          <span className="coalx-dot">·</span>
                        </>
                      )}
                      出价 {s.bidCount} 次 <span className="coalx-dot">·</span> 报名 {s.enrolCount} 家
                    </div>
                  </div>
                )}
                <div className={`coalx-board-clock ${s.inExtension ? 'extension' : ''} ${remaining !== null && remaining <= 10_000 && s.hangState === AuctionState.bidding ? 'urgent' : ''}`}>
                  <div className="coalx-board-label">
                    {s.hangState === AuctionState.ended ? '竞价已结束' : paused ? '竞价已暂停 · 剩余时间' : cancelled ? '竞价已撤销' : s.hangState < AuctionState.bidding ? '距竞价开始' : s.inExtension ? '延时竞价中 · 距本轮结束' : '距竞价结束'}
                  </div>
                  <div className="coalx-board-countdown" data-testid="countdown">
                    {s.hangState === AuctionState.ended ? (resultText(s.result) ?? '已结束') : paused ? formatCountdown(s.pausedRemainingMs ?? 0) : cancelled ? '已撤销' : awaitingResult ? '等待结果…' : remaining === null ? '--:--' : formatCountdown(remaining)}
                  </div>
                  <div className="coalx-board-sub">
                    {/* the time the countdown runs to, printed beside it: the start while waiting, then the deadline in force */}
                    {s.hangState < AuctionState.bidding ? '竞价开始' : times!.deadlineLabel} <b data-testid="board-deadline">{s.hangState < AuctionState.bidding ? times!.start : times!.deadline}</b>
                    {times!.extended && !ended && !cancelled ? (
                      <Tag color="volcano" className="coalx-extension-tag" style={{ marginLeft: 6, marginRight: 0 }}>
                        延时中
                      </Tag>
                    ) : null}
                  </div>
                  <div className="coalx-board-sub">
                    {ended ? (
                      <Link to={`/biddingResults?tradeId=${tradeId}`}>查看结果公告 &gt;</Link>
                    ) : (
                      <>常规 {times!.regular} · 延时周期 {secondsText(s.extensionSeconds)}</>
                    )}
                  </div>
                </div>
              </div>
              <div className="coalx-me-strip" data-testid="my-status">
                {staff ? (
                  <span data-testid="staff-view">交易中心视图：竞买人代号旁显示真实企业名称（竞买人只能看到代号）。</span>
                ) : me ? (
                  <>
                    <span>
                      我的代号 <b>{me.bidder}</b>
                    </span>
                    {mine && (ended || cancelled) ? (
                      <>
                        <span>
                          我的最终出价 <b className="coalx-num">{formatPrice(mine.myPrice)}</b>
                        </span>
                        {cancelled ? (
                          <Tag className="coalx-lead-tag">竞价已撤销 · 保证金已释放</Tag>
                        ) : mine.leading && s.result === 'deal' ? (
                          <Tag color="green" className="coalx-lead-tag">
                            本企业中标
                          </Tag>
                        ) : (
                          <Tag className="coalx-lead-tag">未中标 · 保证金已释放</Tag>
                        )}
                      </>
                    ) : mine ? (
                      <>
                        <span>
                          我的出价 <b className="coalx-num">{formatPrice(mine.myPrice)}</b>
                        </span>
                        <span>
                          当前排名 <b data-testid="my-rank">第 {mine.rank} 名</b>
                        </span>
                        {mine.leading ? (
                          <Tag color="green" className="coalx-lead-tag">
                            领先
                          </Tag>
                        ) : (
                          <Tag color="red" className="coalx-lead-tag">
                            被超越 · 差 {formatFen(mine.gap)} 元/吨
                          </Tag>
                        )}
                      </>
                    ) : (
                      <span className="coalx-hint">{ended || cancelled ? '本企业未出价，保证金已释放' : '尚未出价'}</span>
                    )}
                  </>
                ) : token ? (
                  <span>
                    本企业未报名此竞价，仅可观看。
                    {s.hangState === AuctionState.enrolling && <Link to={`/deal/biddRegistration?tradeId=${tradeId}`}> 去报名 &gt;</Link>}
                  </span>
                ) : (
                  <span>游客观看中，登录并报名后可出价。</span>
                )}
              </div>
            </Card>

            {staff ? (
              <Card variant="borderless" title="交易中心操作" className="coalx-section-card">
                <div className="coalx-staff-ops">
                  <span className="coalx-hint">
                    {paused ? `已暂停（${s.operatorReason ?? ''}），剩余 ${formatCountdown(s.pausedRemainingMs ?? 0)}` : cancelled ? '竞价已撤销' : ended ? '竞价已结束' : '暂停后竞买人不能出价，剩余时间冻结；恢复后按剩余时间继续。'}
                  </span>
                  <OperateAuction tradeId={tradeId} hangState={s.hangState} size="middle" onDone={() => void refresh()} />
                </div>
              </Card>
            ) : ended || cancelled ? null : (
              <Card variant="borderless" title="出价" className="coalx-section-card">
                <BidPanel snapshot={s} blocked={blocked} onPlaced={() => void refresh()} />
              </Card>
            )}

            <Card variant="borderless" title="竞价规则" className="coalx-section-card" size="small">
              <div className="coalx-rule-grid">
                <div>
                  <span>{PRICE_LABEL[s.tradeType]}</span>
                  <b>{formatPrice(s.startPrice)}</b>
                </div>
                <div>
                  <span>{words.minStep}</span>
                  <b>{formatPrice(s.minStep)}</b>
                </div>
                <div>
                  <span>{words.maxStep}</span>
                  <b>{maxStepText(s)}</b>
                </div>
                <div>
                  <span>{words.limit}</span>
                  <b>{limitText(s)}</b>
                </div>
                <div>
                  <span>常规竞价时间</span>
                  <b data-testid="regular-window">{times!.regular}</b>
                </div>
                <div>
                  <span>{times!.deadlineLabel}</span>
                  <b data-testid="current-end">
                    {times!.deadline}
                    {times!.extended && !ended && !cancelled ? <span className="coalx-text-danger">（延时中）</span> : null}
                  </b>
                </div>
                <div>
                  <span>延时周期</span>
                  <b>{secondsText(s.extensionSeconds)}</b>
                </div>
              </div>
            </Card>
          </div>

          <div className="coalx-bidding-side">
            <Card variant="borderless" title={ended ? '最终排名' : '实时排名'} size="small" className="coalx-section-card">
              <Table
                size="small"
                rowKey="bidder"
                pagination={false}
                dataSource={s.ranking}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无出价" /> }}
                rowClassName={(r) => (r.bidder === me?.bidder ? 'coalx-row-me' : '')}
                columns={[
                  { title: '排名', width: 56, render: (_, __, i) => <span className={`coalx-rank coalx-rank-${i + 1}`}>{i + 1}</span> },
                  { title: '竞买人', dataIndex: 'bidder', render: (v: string) => withName(v, v === me?.bidder ? `${v}（我）` : v) },
                  { title: '最优出价', dataIndex: 'price', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                ]}
              />
            </Card>
            <Card variant="borderless" title={`出价记录（最近 ${s.bids.length} 次）`} size="small" className="coalx-section-card">
              <Table
                size="small"
                rowKey="seq"
                pagination={false}
                dataSource={s.bids}
                scroll={{ y: 420 }}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无出价" /> }}
                rowClassName={(r) => (r.bidder === me?.bidder ? 'coalx-row-me' : '')}
                columns={[
                  { title: '序号', dataIndex: 'seq', width: 56 },
                  {
                    title: '竞买人',
                    dataIndex: 'bidder',
                    render: (v: string, r) => (
                      <>
                        {withName(v, v === me?.bidder ? `${v}（我）` : v)}
                        {r.inExtension && (
                          <Tag color="volcano" style={{ marginLeft: 6 }}>
                            延时
                          </Tag>
                        )}
                      </>
                    ),
                  },
                  { title: '出价 (元/吨)', dataIndex: 'price', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                  { title: '时间', dataIndex: 'time', width: 84, render: (v: string) => <Tooltip title={v}>{timeOf(v)}</Tooltip> },
                ]}
              />
            </Card>
          </div>
        </div>
      )}
    </div>
  );
}
