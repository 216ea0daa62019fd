import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Input, Modal, Space, message } from 'antd';
import {
  bidPriceRefusal,
  fenToYuanText,
  formatFen,
  formatPrice,
  isSale,
  yuanTextToFen,
  type AuctionSnapshot,
} from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { placeBid } from '@/services/auction';
import { nextValidPrice, quickBids } from '../useAuctionLive';

export interface BidPanelProps {
  snapshot: AuctionSnapshot;
  /** Why bidding is closed to me now, or null when I may bid. */
  blocked: string | null;
  onPlaced: () => void;
}

/**
 * 出价: quick bids of 1×, 2×, 5× the min step (down for a purchase), a price in yuan that defaults to the next valid
 * price, a confirm showing the price, and the server's message for every refusal.
 */
export default function BidPanel({ snapshot: s, blocked, onPlaced }: BidPanelProps) {
  const sale = isSale(s.tradeType);
  const next = nextValidPrice(s);
  const [text, setText] = useState(next === null ? '' : fenToYuanText(next));
  const edited = useRef(false);
  const [sending, setSending] = useState(false);

  // a new best price moves the default; a price the trader typed stays unless it is no longer valid
  useEffect(() => {
    const typed = yuanTextToFen(text);
    if (!edited.current || typed === null || bidPriceRefusal(s, typed) !== null) {
      setText(next === null ? '' : fenToYuanText(next));
      edited.current = false;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [s.bestPrice, s.bidCount]);

  const price = yuanTextToFen(text);
  const problem = text === '' ? '请输入出价' : price === null ? '请输入正确的金额（元/吨，最多 2 位小数）' : bidPriceRefusal(s, price);
  const disabled = blocked !== null || sending;

  const send = (fen: number) => {
    const local = bidPriceRefusal(s, fen);
    if (local) {
      message.error(local);
      return;
    }
    Modal.confirm({
      title: '确认出价',
      content: (
        <div>
          <div style={{ fontSize: 13, color: 'rgba(0,0,0,0.55)' }}>交易编号 {s.tradeId}</div>
          <div style={{ fontSize: 28, fontWeight: 700, color: '#e5383b', margin: '8px 0', fontVariantNumeric: 'tabular-nums' }} data-testid="confirm-price">
            {formatPrice(fen)}
          </div>
          <div style={{ fontSize: 13, color: 'rgba(0,0,0,0.55)' }}>
            {s.bestPrice === null ? '首次出价' : `较当前${sale ? '最高' : '最低'}价 ${formatPrice(s.bestPrice)} ${sale ? '加价' : '降价'} ${formatFen(Math.abs(fen - s.bestPrice))} 元/吨`}
            ；出价一经提交不可撤回。
          </div>
        </div>
      ),
      okText: '确认出价',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        setSending(true);
        try {
          const placed = await placeBid(s.tradeId, fen);
          message.success(`出价成功：${formatPrice(placed.price)}（第 ${placed.seq} 次出价）`);
          edited.current = false;
          onPlaced();
        } catch (error) {
          message.error(errorMessage(error, '出价失败，请稍后重试'));
        } finally {
          setSending(false);
        }
      },
    });
  };

  return (
    <div className="coalx-bid-panel">
      {blocked && <Alert type="info" showIcon message={blocked} style={{ marginBottom: 12 }} />}
      <div className="coalx-bid-quick">
        {quickBids(s).map((q) => (
          <Button
            key={q.multiple}
            size="large"
            disabled={disabled || !q.valid}
            onClick={() => send(q.price)}
            title={q.valid ? `以 ${formatPrice(q.price)} 出价` : (bidPriceRefusal(s, q.price) ?? '')}
          >
            <div className="coalx-bid-quick-step">
              {sale ? '+' : '−'}
              {q.multiple === 1 ? '' : `${q.multiple}×`}
              {formatFen(s.minStep)}
            </div>
            <div className="coalx-bid-quick-price">{formatFen(q.price)}</div>
          </Button>
        ))}
      </div>
      <div className="coalx-bid-input-row">
        <Input
          size="large"
          value={text}
          disabled={disabled}
          onChange={(e) => {
            edited.current = true;
            setText(e.target.value.trim());
          }}
          onPressEnter={() => price !== null && send(price)}
          prefix="¥"
          suffix="元/吨"
          inputMode="decimal"
          aria-label="出价"
          data-testid="bid-input"
          status={text && problem ? 'error' : undefined}
        />
        <Button type="primary" danger size="large" disabled={disabled || problem !== null} loading={sending} onClick={() => price !== null && send(price)} data-testid="bid-submit">
          出价
        </Button>
      </div>
      <Space className="coalx-bid-hint" size={16} wrap>
        <span className={text && problem ? 'coalx-text-danger' : undefined}>
          {text && problem ? problem : next === null ? `已到达${sale ? '出价上限' : '出价下限'}，无法继续出价` : `下一有效出价 ${formatPrice(next)}（${sale ? '不低于' : '不高于'}此价）`}
        </span>
      </Space>
    </div>
  );
}
