import type { ReactNode } from 'react';
import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { Link } from 'react-router';
import {
  AuctionState,
  AUCTION_STATE_LABELS,
  type AuctionStateCode,
  formatFen,
  formatPrice,
  formatTons,
  PRICE_LABEL,
  PRICE_TYPES,
  TradeType,
  TRANSPORTS,
  type AuctionView,
} from '@coalx/shared';
import { useDict } from '@/app/dict';
import { QualityCard, TradeHeadline, TradeLoadState, placeText, type TradeLoadStateProps } from '@/components/TradeDetail';
import { headlinePriceLabel, resultText, AUCTION_STATE_COLOR, AUCTION_STATUS, AUCTION_TYPE_TEXT, auctionButtonPath, auctionRowButtons, auctionTableButton, secondsText, stepWords } from '@/lib/auction';
import './auction.css';

/** Auction state (dictionary bid_hang_state_hp), with 成交 / 流拍 once ended. */
export function AuctionStateTag({ state, result }: { state: number; result?: string | null }) {
  const dict = useDict('bid_hang_state_hp');
  const text = dict.text(state) || AUCTION_STATE_LABELS[state as AuctionStateCode] || '-';
  return (
    <Tag color={AUCTION_STATE_COLOR[state] ?? 'default'}>
      {state === AuctionState.ended && result ? `${text} · ${resultText(result)}` : text}
    </Tag>
  );
}

/** The auction table's button of a state (spec §4): highlighted for 0–2, plain for 3. */
export function AuctionTableButton({ tradeId, hangState, size = 'small' }: { tradeId: string; hangState: number; size?: 'small' | 'middle' | 'large' }) {
  const b = auctionTableButton(hangState);
  if (!b) return null;
  return (
    <Link to={auctionButtonPath(b.key, tradeId)}>
      <Button size={size} type={b.highlight ? 'primary' : 'default'} danger={b.key === 'join'}>
        {b.label}
      </Button>
    </Link>
  );
}

/** Recommended-list style buttons (spec §4, types 2/3). */
export function AuctionRowButtons({ tradeId, hangState }: { tradeId: string; hangState: number }) {
  return (
    <Space size={4} wrap={false}>
      {auctionRowButtons(hangState).map((b) =>
        b.disabled ? (
          <Button key={b.key} size="small" type="link" disabled>
            {b.label}
          </Button>
        ) : (
          <Link key={b.key} to={auctionButtonPath(b.key, tradeId)}>
            <Button size="small" type={b.highlight ? 'primary' : 'link'}>
              {b.label}
            </Button>
          </Link>
        ),
      )}
    </Space>
  );
}

export function limitText(a: Pick<AuctionView, 'tradeType' | 'limitPrice'>): string {
  return a.limitPrice === null ? '不限' : formatPrice(a.limitPrice);
}
export function maxStepText(a: Pick<AuctionView, 'maxStep'>): string {
  return a.maxStep === null ? '不限' : formatPrice(a.maxStep);
}

/** Headline: product, direction, state, the key figures. */
export function AuctionHeadline({ auction: a, extra, children }: { auction: AuctionView; extra?: ReactNode; children?: ReactNode }) {
  const words = stepWords(a.tradeType);
  return (
    <TradeHeadline
      typeText={AUCTION_TYPE_TEXT[a.tradeType] ?? '-'}
      purchase={a.tradeType === TradeType.auctionPurchase}
      productName={a.productName}
      state={<AuctionStateTag state={a.hangState} result={a.result} />}
      tradeId={a.tradeId}
      enterpriseName={a.enterpriseName}
      extra={extra}
      className={`coalx-auction-headline ${a.tradeType === TradeType.auctionPurchase ? 'buy' : ''}`}
      figuresClassName="coalx-auction-figures"
      figures={[
        { label: headlinePriceLabel(a), value: formatPrice(a.price), price: true },
        { label: '竞价数量', value: formatTons(a.quantity) },
        { label: words.minStep, value: formatPrice(a.minStep) },
        { label: '保证金', value: `¥${formatFen(a.deposit)}` },
        { label: '报名 / 出价', value: `${a.enrolCount} 家 / ${a.bidCount} 次` },
      ]}
    >
      {children}
    </TradeHeadline>
  );
}

/** Every field of an auction (spec §3, DESIGN.md §6). */
export function AuctionDescriptions({ auction: a, showAudit = false }: { auction: AuctionView; showAudit?: boolean }) {
  const words = stepWords(a.tradeType);
  return (
    <>
      <Card title="竞价信息" variant="borderless" className="coalx-section-card">
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="middle">
          <Descriptions.Item label="交易编号">{a.tradeId}</Descriptions.Item>
          <Descriptions.Item label="交易类型">{AUCTION_TYPE_TEXT[a.tradeType] ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="竞价状态">
            <AuctionStateTag state={a.hangState} result={a.result} />
          </Descriptions.Item>
          <Descriptions.Item label="产品名称">{a.productName}</Descriptions.Item>
          <Descriptions.Item label="产品类别">{a.category || '-'}</Descriptions.Item>
          <Descriptions.Item label="发布企业">{a.enterpriseName}</Descriptions.Item>
          <Descriptions.Item label={PRICE_LABEL[a.tradeType] ?? '起拍价'}>
            <span className="coalx-price">{formatPrice(a.startPrice)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={words.minStep}>{formatPrice(a.minStep)}</Descriptions.Item>
          <Descriptions.Item label={words.maxStep}>{maxStepText(a)}</Descriptions.Item>
          <Descriptions.Item label={words.limit}>{limitText(a)}</Descriptions.Item>
          <Descriptions.Item label="竞价数量">{formatTons(a.quantity)}</Descriptions.Item>
          <Descriptions.Item label="保证金">¥{formatFen(a.deposit)} / 家</Descriptions.Item>
          <Descriptions.Item label="价格类型">{PRICE_TYPES[a.priceType as keyof typeof PRICE_TYPES] ?? a.priceType}</Descriptions.Item>
          <Descriptions.Item label="运输方式">{TRANSPORTS[a.transport as keyof typeof TRANSPORTS] ?? a.transport}</Descriptions.Item>
          <Descriptions.Item label="延时周期">{secondsText(a.extensionSeconds)}</Descriptions.Item>
          <Descriptions.Item label="报名截止">{a.enrolDeadline}</Descriptions.Item>
          <Descriptions.Item label="常规竞价时间">
            {a.bidDateStart} 至 {a.bidDateEnd}
          </Descriptions.Item>
          <Descriptions.Item label={a.hangState === AuctionState.ended ? '结束时间' : '当前截止时间'}>
            <span data-testid="current-end">{a.currentEnd}</span>
            {a.currentEnd > a.bidDateEnd && a.hangState !== AuctionState.ended ? (
              <Tag color="volcano" style={{ marginLeft: 8 }}>
                延时中
              </Tag>
            ) : null}
          </Descriptions.Item>
          <Descriptions.Item label="交收地点" span={2}>
            {placeText(a)}
          </Descriptions.Item>
          <Descriptions.Item label="交收日期">
            {a.deliveryDateStart} 至 {a.deliveryDateEnd}
          </Descriptions.Item>
          {showAudit && <Descriptions.Item label="审核状态">{AUCTION_STATUS[a.status] ?? a.status}</Descriptions.Item>}
          {showAudit && <Descriptions.Item label="审核时间">{a.auditTime ?? '-'}</Descriptions.Item>}
          {showAudit && a.rejectReason && (
            <Descriptions.Item label="驳回原因">
              <span className="coalx-text-danger">{a.rejectReason}</span>
            </Descriptions.Item>
          )}
          <Descriptions.Item label="备注" span={3}>
            {a.remark || '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <QualityCard quality={a.quality} />
    </>
  );
}

/** Loading skeleton or a refusal with a way back, for pages that show one auction. */
export function AuctionLoadState(props: Omit<TradeLoadStateProps, 'noun' | 'more'>) {
  return <TradeLoadState {...props} noun="竞价" more={{ path: '/moreBidding?tradeType=2', label: '查看更多竞价' }} />;
}
