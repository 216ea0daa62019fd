import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ellipsis, ELLIPSIS, formatPrice, formatTons, PRICE_LABEL, TradeType } from '@coalx/shared';
import { useDict } from '@/app/dict';
import { withEmptyPageFallback } from '@/app/request';
import { listMarket } from '@/services/listing';
import { listingButtonPath, listingButtons } from '@/lib/listing';

const TITLES: Record<0 | 1, { title: string; publish: string }> = {
  [TradeType.listingSale]: { title: '挂牌销售', publish: '我要卖' },
  [TradeType.listingPurchase]: { title: '挂牌采购', publish: '我要买' },
};
const ROWS = 5;

/**
 * Home table 挂牌销售 / 挂牌采购 (spec §2): 5 rows, a 'more' link and the publish button. A plain table rather than
 * antd's Table: the home page is a first visit, and Table with its pagination, spin and dropdown helpers would
 * push /index over the 350 kB first-load budget for five static rows.
 */
export default function ListedTradeTable({ tradeType }: { tradeType: 0 | 1 }) {
  const { title, publish } = TITLES[tradeType];
  const states = useDict('hang_state_total_trans');
  const query = useQuery({
    queryKey: ['listing', 'home', tradeType],
    // trade tables fall back to an empty list when their call fails (spec §8)
    queryFn: () => withEmptyPageFallback(() => listMarket({ pageSize: ROWS, pageNo: 1, tradeType })),
    refetchInterval: 30_000,
  });
  const rows = query.data?.records ?? [];
  return (
    <section className="coalx-home-table" aria-label={title}>
      <header className="coalx-home-table-head">
        <h3 className={`coalx-home-table-title ${tradeType === TradeType.listingPurchase ? 'buy' : 'sell'}`}>{title}</h3>
        <div className="coalx-home-table-actions">
          <Link to={`/listingTrade/tradeStart?tradeType=${tradeType}`} className={`coalx-mini-btn primary ${tradeType === TradeType.listingPurchase ? 'buy' : ''}`}>
            {publish}
          </Link>
          <Link to={`/moreListings?tradeType=${tradeType}`} className="coalx-home-more">
            更多 &gt;
          </Link>
        </div>
      </header>
      <table className="coalx-mini-table">
        <colgroup>
          <col />
          <col style={{ width: 112 }} />
          <col style={{ width: 96 }} />
          <col style={{ width: 60 }} />
          <col style={{ width: 168 }} />
        </colgroup>
        <thead>
          <tr>
            <th>产品名称</th>
            <th className="num">{PRICE_LABEL[tradeType]}</th>
            <th className="num">剩余数量</th>
            <th>状态</th>
            <th>操作</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.tradeId}>
              <td className="name">
                <Link to={`/listingSalesDetails?tradeId=${r.tradeId}`} title={`${r.productName} · ${r.enterpriseName}`}>
                  {ellipsis(r.productName, ELLIPSIS.name)}
                </Link>
                <div className="coalx-mini-sub coalx-mini-company" title={r.enterpriseName}>
                  {ellipsis(r.enterpriseName, ELLIPSIS.name)}
                </div>
              </td>
              <td className="num coalx-price" data-label={PRICE_LABEL[tradeType]}>{formatPrice(r.price)}</td>
              <td className="num" data-label="剩余数量">{formatTons(r.remainingQuantity)}</td>
              <td>
                <span className={`coalx-state coalx-state-${r.hangState}`}>{states.text(r.hangState)}</span>
              </td>
              <td className="ops">
                {listingButtons(r.hangState).map((b) =>
                  b.disabled ? (
                    <span key={b.key} className="coalx-mini-btn disabled" aria-disabled="true">
                      {b.label}
                    </span>
                  ) : (
                    <Link key={b.key} to={listingButtonPath(b.key, r.tradeId)} className={`coalx-mini-btn ${b.key === 'subscribe' ? 'primary' : ''}`}>
                      {b.label}
                    </Link>
                  ),
                )}
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={5} className="coalx-mini-empty">
                {query.isLoading ? '加载中…' : '暂无数据'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
