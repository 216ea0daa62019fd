import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Col, Empty, Row, Space, Statistic, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { AuctionState, AUCTION_STATE_LABELS, formatFen, formatTons, HANG_STATE_LABELS, HangState, isSale, type AuctionStateCode, type HangStateCode } from '@coalx/shared';
import OperateAuction from '@/components/auction/OperateAuction';
import { AUCTION_STATE_COLOR, AUCTION_TYPE_TEXT } from '@/lib/auction';
import { countdownText } from '@/lib/countdown';
import { liveSocketUrl } from '@/lib/live-socket';
import type { BoardAuction, BoardListing } from '@coalx/shared';
import { getMarketBoard } from '@/services/monitor';
import './monitor.css';

/** Board order: what needs the operator's eye first. */
const AUCTION_ORDER: Record<number, number> = { [AuctionState.paused]: 0, [AuctionState.bidding]: 1, [AuctionState.waiting]: 2, [AuctionState.enrolling]: 3, [AuctionState.ended]: 4, [AuctionState.cancelled]: 5 };
const LISTING_COLOR: Record<number, string> = { [HangState.notStarted]: 'blue', [HangState.open]: 'red', [HangState.ended]: 'default' };
const LISTING_TYPE_TEXT: Record<number, string> = { 0: '挂牌销售', 1: '挂牌采购' };
const RESULT_TEXT: Record<string, string> = { deal: '成交', failed: '流拍' };

type LiveStatus = 'connecting' | 'open' | 'closed';

/**
 * Re-reads the board whenever the server says a trade changed (/ws/monitor: a bid, an enrolment, a state move), so
 * a bid anywhere shows within a second; reconnects after a drop and re-reads then (what changed meanwhile).
 */
function useBoardFeed(onChange: () => void): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const connect = () => {
      socket = new WebSocket(liveSocketUrl('monitor'));
      socket.onopen = () => {
        setStatus('open');
        latest.current();
      };
      socket.onmessage = () => latest.current();
      socket.onclose = () => {
        if (stopped) return;
        setStatus('closed');
        retry = setTimeout(connect, 2000);
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.close();
    };
  }, []);
  return status;
}

/** Ticks every second: the board's times left run between reads. */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** 实时监控 (operator): today's listings and auctions, live, with pause / resume / cancel of auctions. */
export default function MarketMonitorPage() {
  const board = useQuery({ queryKey: ['monitor', 'board'], queryFn: getMarketBoard, refetchInterval: 30_000 });
  const { refetch } = board;
  const status = useBoardFeed(() => void refetch());
  const now = useNow();
  const readAt = board.dataUpdatedAt || now;
  // time left as of the read, run on between reads (frozen while paused)
  const left = (ms: number | null, frozen: boolean) => (ms === null ? null : frozen ? ms : Math.max(0, ms - (now - readAt)));

  const auctions = useMemo(() => [...(board.data?.auctions ?? [])].sort((a, b) => (AUCTION_ORDER[a.hangState] ?? 9) - (AUCTION_ORDER[b.hangState] ?? 9)), [board.data]);
  const listings = board.data?.listings ?? [];
  const countOf = (state: number) => auctions.filter((a) => a.hangState === state).length;

  const auctionColumns: ColumnsType<BoardAuction> = [
    {
      title: '竞价',
      dataIndex: 'tradeId',
      width: 160,
      render: (_, a) => (
        <div className="coalx-monitor-trade">
          <Link to={`/biddingDetails?tradeId=${a.tradeId}`}>{a.tradeId}</Link>
          <div className="coalx-monitor-sub">
            {AUCTION_TYPE_TEXT[a.tradeType]} · {a.productName}
          </div>
        </div>
      ),
    },
    { title: '发布企业', dataIndex: 'enterpriseName', ellipsis: { showTitle: true } },
    {
      title: '状态',
      dataIndex: 'hangState',
      width: 84,
      render: (state: number, a) => {
        const tag = (
          <Tag color={AUCTION_STATE_COLOR[state] ?? 'default'} data-testid={`state-${a.tradeId}`}>
            {AUCTION_STATE_LABELS[state as AuctionStateCode] ?? '-'}
            {state === AuctionState.ended && a.result ? ` · ${RESULT_TEXT[a.result] ?? a.result}` : ''}
          </Tag>
        );
        return a.operatorReason ? <Tooltip title={`原因：${a.operatorReason}`}>{tag}</Tooltip> : tag;
      },
    },
    { title: '报名', dataIndex: 'enrolCount', width: 60, align: 'right', render: (n: number) => `${n} 家` },
    { title: '出价', dataIndex: 'bidCount', width: 60, align: 'right', render: (n: number, a) => <span data-testid={`bids-${a.tradeId}`}>{n} 次</span> },
    { title: '起拍价 (元/吨)', dataIndex: 'startPrice', width: 104, align: 'right', render: (v: number) => <span className="coalx-num">¥{formatFen(v)}</span> },
    {
      title: '当前价 (元/吨)',
      dataIndex: 'currentPrice',
      width: 140,
      align: 'right',
      render: (v: number, a) => (
        <div>
          <span className="coalx-num" data-testid={`price-${a.tradeId}`}>¥{formatFen(v)}</span>
          <div className={`coalx-monitor-sub ${a.premium > 0 ? 'coalx-monitor-up' : ''}`}>
            {a.bidCount === 0 ? '暂无出价' : `${isSale(a.tradeType) ? '溢价' : '降价'} ¥${formatFen(a.premium)}（${(a.premiumBp / 100).toFixed(2)}%）`}
          </div>
        </div>
      ),
    },
    {
      title: '剩余时间',
      dataIndex: 'remainingMs',
      width: 96,
      render: (ms: number | null, a) => {
        const value = left(ms, a.hangState === AuctionState.paused);
        if (value === null) return <span className="coalx-monitor-sub">—</span>;
        const label = a.hangState === AuctionState.enrolling ? '距报名截止' : a.hangState === AuctionState.waiting ? '距开始' : a.hangState === AuctionState.paused ? '已冻结' : '距结束';
        return (
          <div>
            <span className={`coalx-num ${a.hangState === AuctionState.bidding && value <= 60_000 ? 'coalx-text-danger' : ''}`}>{countdownText(value)}</span>
            <div className="coalx-monitor-sub">{label}</div>
          </div>
        );
      },
    },
    {
      title: '操作',
      width: 190,
      render: (_, a) => (
        <Space size={4} wrap>
          {a.hangState !== AuctionState.cancelled && (
            <Link to={`/deal/bidding?tradeId=${a.tradeId}`} data-testid={`room-${a.tradeId}`}>
              <Button size="small" type="link" style={{ padding: 0 }}>
                进入竞价室
              </Button>
            </Link>
          )}
          <OperateAuction tradeId={a.tradeId} hangState={a.hangState} onDone={() => void refetch()} />
        </Space>
      ),
    },
  ];

  const listingColumns: ColumnsType<BoardListing> = [
    {
      title: '挂牌',
      dataIndex: 'tradeId',
      width: 180,
      render: (_, l) => (
        <div className="coalx-monitor-trade">
          <Link to={`/salesDetails?tradeId=${l.tradeId}`}>{l.tradeId}</Link>
          <div className="coalx-monitor-sub">
            {LISTING_TYPE_TEXT[l.tradeType] ?? ''} · {l.productName}
          </div>
        </div>
      ),
    },
    { title: '挂牌企业', dataIndex: 'enterpriseName', ellipsis: { showTitle: true } },
    { title: '状态', dataIndex: 'hangState', width: 90, render: (s: number) => <Tag color={LISTING_COLOR[s] ?? 'default'}>{HANG_STATE_LABELS[s as HangStateCode] ?? '-'}</Tag> },
    { title: '挂牌价 (元/吨)', dataIndex: 'price', width: 120, align: 'right', render: (v: number) => <span className="coalx-num">¥{formatFen(v)}</span> },
    { title: '挂牌量', dataIndex: 'quantity', width: 130, align: 'right', render: (v: number) => formatTons(v) },
    {
      title: '已摘量',
      dataIndex: 'subscribed',
      width: 150,
      align: 'right',
      render: (v: number, l) => (
        <div>
          {formatTons(v)}
          <div className="coalx-monitor-sub">{((v / l.quantity) * 100).toFixed(1)}%</div>
        </div>
      ),
    },
    { title: '摘牌', dataIndex: 'subscriptionCount', width: 70, align: 'right', render: (n: number) => `${n} 笔` },
    {
      title: '剩余时间',
      dataIndex: 'remainingMs',
      width: 130,
      render: (ms: number | null, l) => {
        const value = left(ms, false);
        return value === null ? (
          <span className="coalx-monitor-sub">—</span>
        ) : (
          <div>
            <span className="coalx-num">{countdownText(value)}</span>
            <div className="coalx-monitor-sub">{l.hangState === HangState.notStarted ? '距开始' : '距结束'}</div>
          </div>
        );
      },
    },
  ];

  return (
    <div className="coalx-monitor">
      <Row gutter={12} className="coalx-monitor-stats">
        {[
          { title: '竞价中', value: countOf(AuctionState.bidding), color: '#cf1322' },
          { title: '已暂停', value: countOf(AuctionState.paused), color: '#d46b08' },
          { title: '报名中 / 待竞价', value: countOf(AuctionState.enrolling) + countOf(AuctionState.waiting) },
          { title: '今日已结束 / 撤销', value: countOf(AuctionState.ended) + countOf(AuctionState.cancelled) },
          { title: '挂牌中', value: listings.filter((l) => l.hangState === HangState.open).length },
          { title: '今日出价', value: auctions.reduce((n, a) => n + a.bidCount, 0), suffix: '次' },
        ].map((s) => (
          <Col span={4} key={s.title}>
            <Card size="small" variant="borderless">
              <Statistic title={s.title} value={s.value} suffix={s.suffix} valueStyle={s.color && s.value > 0 ? { color: s.color } : undefined} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        variant="borderless"
        size="small"
        className="coalx-monitor-card"
        title="今日竞价"
        extra={
          <Space>
            {status === 'open' ? <Badge status="processing" color="green" text="实时更新" /> : <Badge status="warning" text={status === 'connecting' ? '正在连接…' : '连接中断，正在重连…'} />}
            <Button size="small" onClick={() => void refetch()} loading={board.isFetching}>
              刷新
            </Button>
          </Space>
        }
      >
        <Table<BoardAuction>
          size="small"
          rowKey="tradeId"
          tableLayout="fixed"
          pagination={false}
          loading={board.isLoading}
          dataSource={auctions}
          columns={auctionColumns}
          rowClassName={(a) => (a.hangState === AuctionState.paused ? 'coalx-monitor-paused' : '')}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="今日没有竞价" /> }}
        />
      </Card>
      <Card variant="borderless" size="small" className="coalx-monitor-card" title="今日挂牌">
        <Table<BoardListing>
          size="small"
          rowKey="tradeId"
          tableLayout="fixed"
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          loading={board.isLoading}
          dataSource={listings}
          columns={listingColumns}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="今日没有挂牌" /> }}
        />
      </Card>
    </div>
  );
}
