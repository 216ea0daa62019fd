import { Card, Descriptions, Progress } from 'antd';
import {
  DEPOSIT_MODES,
  formatFen,
  formatPrice,
  formatTons,
  PRICE_LABEL,
  PRICE_TYPES,
  TradeType,
  TRANSPORTS,
  type ListingView,
} from '@coalx/shared';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { QualityCard, TradeHeadline, TradeLoadState, placeText, type TradeLoadStateProps } from '@/components/TradeDetail';
import { HangStateTag } from '@/components/listing/StateParts';

export function depositText(l: Pick<ListingView, 'depositMode' | 'depositValue'>): string {
  const mode = DEPOSIT_MODES[l.depositMode as keyof typeof DEPOSIT_MODES] ?? l.depositMode;
  return l.depositMode === 'per_ton' ? `${formatFen(l.depositValue)} 元/吨（${mode}）` : `${formatFen(l.depositValue)} 元/笔（${mode}）`;
}

/** The headline of a listing: product, direction, state, price and quantities at a glance. */
export function ListingHeadline({ listing: l, extra }: { listing: ListingView; extra?: React.ReactNode }) {
  const percent = l.quantity > 0 ? Math.round((l.subscribedQuantity * 1000) / l.quantity) / 10 : 0;
  return (
    <TradeHeadline
      typeText={TRADE_TYPE_TEXT[l.tradeType] ?? '-'}
      purchase={l.tradeType === TradeType.listingPurchase}
      productName={l.productName}
      state={<HangStateTag state={l.hangState} />}
      tradeId={l.tradeId}
      enterpriseName={l.enterpriseName}
      extra={extra}
      figures={[
        { label: PRICE_LABEL[l.tradeType], value: formatPrice(l.price), price: true },
        { label: '挂牌数量', value: formatTons(l.quantity) },
        { label: '剩余可摘量', value: formatTons(l.remainingQuantity) },
        { label: `已摘 ${formatTons(l.subscribedQuantity)}`, value: <Progress percent={percent} size="small" showInfo format={(p) => `${p}%`} />, wide: true },
      ]}
    />
  );
}

/** Every trade field (spec §3 and DESIGN.md §6). */
export function ListingDescriptions({ listing: l, showAudit = false }: { listing: ListingView; showAudit?: boolean }) {
  return (
    <>
      <Card title="交易信息" variant="borderless" className="coalx-section-card">
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="middle">
          <Descriptions.Item label="交易编号">{l.tradeId}</Descriptions.Item>
          <Descriptions.Item label="交易类型">{TRADE_TYPE_TEXT[l.tradeType] ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="挂牌状态">
            <HangStateTag state={l.hangState} />
          </Descriptions.Item>
          <Descriptions.Item label="产品名称">{l.productName}</Descriptions.Item>
          <Descriptions.Item label="产品类别">{l.category || '-'}</Descriptions.Item>
          <Descriptions.Item label="挂牌企业">{l.enterpriseName}</Descriptions.Item>
          <Descriptions.Item label={PRICE_LABEL[l.tradeType] ?? '价格'}>
            <span className="coalx-price">{formatPrice(l.price)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="价格类型">{PRICE_TYPES[l.priceType as keyof typeof PRICE_TYPES] ?? l.priceType}</Descriptions.Item>
          <Descriptions.Item label="运输方式">{TRANSPORTS[l.transport as keyof typeof TRANSPORTS] ?? l.transport}</Descriptions.Item>
          <Descriptions.Item label="挂牌数量">{formatTons(l.quantity)}</Descriptions.Item>
          <Descriptions.Item label="已摘数量">{formatTons(l.subscribedQuantity)}</Descriptions.Item>
          <Descriptions.Item label="剩余可摘量">{formatTons(l.remainingQuantity)}</Descriptions.Item>
          <Descriptions.Item label="最小摘牌量">{formatTons(l.minSubscribe)}</Descriptions.Item>
          <Descriptions.Item label="最大摘牌量">{formatTons(l.maxSubscribe)}</Descriptions.Item>
          <Descriptions.Item label="保证金">{depositText(l)}</Descriptions.Item>
          <Descriptions.Item label="挂牌时间" span={2}>
            {l.listedDateStart} 至 {l.listedDateEnd}
          </Descriptions.Item>
          <Descriptions.Item label="成交确认">{l.autoConfirm ? '自动确认成交' : '挂牌方确认'}</Descriptions.Item>
          <Descriptions.Item label="交收地点" span={2}>
            {placeText(l)}
          </Descriptions.Item>
          <Descriptions.Item label="交收日期">
            {l.deliveryDateStart} 至 {l.deliveryDateEnd}
          </Descriptions.Item>
          {showAudit && <Descriptions.Item label="审核时间">{l.auditTime ?? '-'}</Descriptions.Item>}
          {showAudit && l.rejectReason && (
            <Descriptions.Item label="驳回原因" span={2}>
              <span className="coalx-text-danger">{l.rejectReason}</span>
            </Descriptions.Item>
          )}
          <Descriptions.Item label="备注" span={3}>
            {l.remark || '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <QualityCard quality={l.quality} />
    </>
  );
}

/** Loading skeleton or a refusal with a way back, for pages that show one listing. */
export function ListingLoadState(props: Omit<TradeLoadStateProps, 'noun' | 'more'>) {
  return <TradeLoadState {...props} noun="挂牌" more={{ path: '/moreListings?tradeType=0', label: '查看更多挂牌' }} />;
}
