import { Link } from 'react-router';
import { AuctionState, ELLIPSIS, formatPrice, formatTons, HangState, isAuction, PRICE_LABEL, type TradeTypeCode } from '@coalx/shared';
import EllipsisText from '@/components/EllipsisText';
import type { RecommendRecord } from '@/services/content';
import { recommendButtons, recommendStateText, TRADE_TYPE_TEXT } from '@/lib/home';

/** One recommended trade: type, name (14 characters, full on hover), price, quantity, place, time, state buttons. */
export default function RecommendCard({ r }: { r: RecommendRecord }) {
  const auction = isAuction(r.tradeType);
  const start = auction ? r.bidDateStart : r.listedDateStart;
  const end = auction ? r.bidDateEnd : r.listedDateEnd;
  const ended = r.hangState === (auction ? AuctionState.ended : HangState.ended);
  return (
    <article className={`coalx-rec-card type-${r.tradeType} ${ended ? 'ended' : ''}`} data-testid="recommend-card" data-trade-id={r.tradeId}>
      <header>
        <span className={`coalx-rec-type type-${r.tradeType}`}>{TRADE_TYPE_TEXT[r.tradeType]}</span>
        <span className={`coalx-rec-state ${ended ? 'ended' : 'live'}`}>{recommendStateText(r.tradeType, r.hangState)}</span>
      </header>
      <h4 className="coalx-rec-name">
        <EllipsisText text={r.productName} max={ELLIPSIS.name} />
      </h4>
      <div className="coalx-rec-enterprise">
        <EllipsisText text={r.enterpriseName} max={ELLIPSIS.default} />
      </div>
      <div className="coalx-rec-price">
        <span>{PRICE_LABEL[r.tradeType as TradeTypeCode] ?? '价格'}</span>
        <b>{formatPrice(auction ? (r.startPrice ?? r.price) : r.price)}</b>
      </div>
      {auction && r.hangState >= AuctionState.bidding ? (
        // a live or ended auction's card tells where the price stands now, beside where it started
        <div className="coalx-rec-price current" data-testid="recommend-current-price">
          <span>{ended ? '成交价' : '当前价'}</span>
          <b>{r.bestPrice === null ? (ended ? '流拍' : '暂无出价') : formatPrice(r.bestPrice)}</b>
        </div>
      ) : null}
      <dl className="coalx-rec-facts">
        <dt>数量</dt>
        <dd>{formatTons(r.quantity)}</dd>
        <dt>交收地</dt>
        <dd>
          <EllipsisText text={`${r.deliveryProvince}${r.deliveryCity}${r.deliveryDistrict}`} max={ELLIPSIS.default} />
        </dd>
        <dt>{auction ? '竞价时间' : '挂牌时间'}</dt>
        <dd className="time">
          {start?.slice(5, 16) ?? '-'} 至 {end?.slice(5, 16) ?? '-'}
        </dd>
      </dl>
      <footer>
        {recommendButtons(r.tradeType, r.hangState, r.tradeId).map((b) =>
          b.disabled ? (
            <span key={b.key} className="coalx-mini-btn disabled" aria-disabled="true">
              {b.label}
            </span>
          ) : (
            <Link key={b.key} to={b.path} className={`coalx-mini-btn ${b.primary ? 'primary' : ''}`}>
              {b.label}
            </Link>
          ),
        )}
      </footer>
    </article>
  );
}
