import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Breadcrumb, Button, Card, Empty, Result, Skeleton, Table, Tag, Tooltip } from 'antd';
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
  const deadline = s ? (s.hangState < AuctionState.bidding ? s.bidStart : s.currentEnd) : null;
  const remaining = useCountdown(s && s.hangState !== AuctionState.ended ? deadline : null, live.offset);
  const awaitingResult = Boolean(s && s.hangState === AuctionState.bidding && remaining === 0);
  const ended = s?.hangState === AuctionState.ended;
  // once ended the room shows the outcome (成交价, the masked winner, or 流拍), not the race
  const result = useQuery({ queryKey: ['auction', 'result', tradeId], queryFn: () => getAuctionResult(tradeId), enabled: ended, retry: false });
  const refresh = live.refresh;

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
                    {s.hangState === AuctionState.ended ? '竞价已结束' : s.hangState < AuctionState.bidding ? '距竞价开始' : s.inExtension ? '延时竞价中 · 距本轮结束' : '距竞价结束'}
                  </div>
                  <div className="coalx-board-countdown" data-testid="countdown">
                    {s.hangState === AuctionState.ended ? (resultText(s.result) ?? '已结束') : awaitingResult ? '等待结果…' : remaining === null ? '--:--' : formatCountdown(remaining)}
                  </div>
                  <div className="coalx-board-sub">
                    {/* the time the countdown runs to, printed beside it: the start while waiting, then the deadline in force */}
                    {s.hangState < AuctionState.bidding ? '竞价开始' : times!.deadlineLabel} <b data-testid="board-deadline">{s.hangState < AuctionState.bidding ? times!.start : times!.deadline}</b>
                    {times!.extended && !ended ? (
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
                {me ? (
                  <>
                    <span>
                      我的代号 <b>{me.bidder}</b>
                    </span>
                    {mine && ended ? (
                      <>
                        <span>
                          我的最终出价 <b className="coalx-num">{formatPrice(mine.myPrice)}</b>
                        </span>
                        {mine.leading && s.result === 'deal' ? (
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
                      <span className="coalx-hint">{ended ? '本企业未出价，保证金已释放' : '尚未出价'}</span>
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

            {ended ? null : (
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
                    {times!.extended && !ended ? <span className="coalx-text-danger">（延时中）</span> : null}
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
                  { title: '竞买人', dataIndex: 'bidder', render: (v: string) => (v === me?.bidder ? `${v}（我）` : v) },
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
                        {v === me?.bidder ? `${v}（我）` : v}
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
