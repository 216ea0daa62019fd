import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ellipsis, ELLIPSIS, formatPrice, formatTons, PRICE_LABEL, TradeType } from '@coalx/shared';
import { useDict } from '@/app/dict';
import { withEmptyPageFallback } from '@/app/request';
import './bid-tables.css';
import { listBidMarket } from '@/services/auction';
import { AUCTION_TYPE_TEXT, auctionButtonPath, auctionTableButton } from '@/lib/auction';

const ROWS = 5;

/**
 * Home table 竞价销售 / 竞价采购 (spec §2): 5 rows from tradeHome/bidTrade/list, a 'more' link and 发布竞价. Buttons
 * by state as the auction table of spec §4 (报名 / 查看竞价 / 参与竞价 highlighted, 结果公告 plain). A plain table,
 * like the listing tables beside it, to keep /index light.
 */
export default function BidTradeTable({ tradeType }: { tradeType: 2 | 3 }) {
  const title = AUCTION_TYPE_TEXT[tradeType]!;
  const states = useDict('bid_hang_state_hp');
  const query = useQuery({
    queryKey: ['auction', 'home', tradeType],
    queryFn: () => withEmptyPageFallback(() => listBidMarket({ pageSize: ROWS, pageNo: 1, tradeType })),
    refetchInterval: 15_000,
  });
  const rows = query.data?.records ?? [];
  const buy = tradeType === TradeType.auctionPurchase;
  return (
    <section className="coalx-home-table" aria-label={title}>
      <header className="coalx-home-table-head">
        <h3 className={`coalx-home-table-title ${buy ? 'buy' : 'sell'}`}>{title}</h3>
        <div className="coalx-home-table-actions">
          <Link to={`/listingTrade/Bidding?tradeType=${tradeType}`} className={`coalx-mini-btn primary ${buy ? 'buy' : ''}`}>
            发布竞价
          </Link>
          <Link to={`/moreBidding?tradeType=${tradeType}`} className="coalx-home-more">
            更多 &gt;
          </Link>
        </div>
      </header>
      <table className="coalx-mini-table">
        <thead>
          <tr>
            <th>产品名称</th>
            <th className="num">{buy ? '基价 / 当前价' : '起拍价 / 当前价'}</th>
            <th className="num">数量</th>
            <th>状态</th>
            <th>操作</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const b = auctionTableButton(r.hangState);
            return (
              <tr key={r.tradeId}>
                <td className="name">
                  <Link to={`/biddingDetails?tradeId=${r.tradeId}`} title={`${r.productName} · ${r.enterpriseName}`}>
                    {ellipsis(r.productName, ELLIPSIS.name)}
                  </Link>
                  <div className="coalx-mini-sub coalx-mini-company" title={r.enterpriseName}>
                    {ellipsis(r.enterpriseName, ELLIPSIS.name)}
                  </div>
                </td>
                <td className="num" data-label={buy ? '基价 / 当前价' : '起拍价 / 当前价'}>
                  <div className="coalx-price">{formatPrice(r.bestPrice ?? r.startPrice)}</div>
                  <div className="coalx-mini-sub">{r.bestPrice === null ? `${PRICE_LABEL[tradeType]} · 暂无出价` : `${r.bidCount} 次出价`}</div>
                </td>
                <td className="num" data-label="数量">{formatTons(r.quantity)}</td>
                <td>
                  <span className={`coalx-state coalx-bid-state-${r.hangState}`}>{states.text(r.hangState)}</span>
                </td>
                <td className="ops">
                  {b && (
                    <Link to={auctionButtonPath(b.key, r.tradeId)} className={`coalx-mini-btn ${b.highlight ? 'primary' : ''} ${b.key === 'join' ? 'hot' : ''}`}>
                      {b.label}
                    </Link>
                  )}
                </td>
              </tr>
            );
          })}
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
