import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { HOME_RECOMMEND_PAGE_SIZE, RECOMMEND_QUICK_FILTERS } from '@coalx/shared';
import { withEmptyPageFallback } from '@/app/request';
import { recommendList } from '@/services/content';
import { quickFilterParams, type QuickFilterKey } from '@/lib/home';
import RecommendCard from './RecommendCard';

/** Recommended trades, index mode (spec §2): quick filters, 4 per page with a pager, and a link to the full list. */
export default function RecommendTrades() {
  const [filter, setFilter] = useState<QuickFilterKey>('all');
  const [pageNo, setPageNo] = useState(1);
  const query = useQuery({
    queryKey: ['recommend', 'home', filter, pageNo],
    // like the trade tables, a failed call shows an empty list rather than an error
    queryFn: () => withEmptyPageFallback(() => recommendList({ pageNo, pageSize: HOME_RECOMMEND_PAGE_SIZE, ...quickFilterParams(filter) })),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const records = query.data?.records ?? [];
  const total = query.data?.total ?? 0;
  return (
    <section className="coalx-home-block coalx-recommend" aria-label="推荐交易">
      <header className="coalx-home-block-head">
        <h3 className="coalx-home-block-title">推荐交易</h3>
        <div className="coalx-quick-filters" role="tablist" aria-label="快捷筛选">
          {RECOMMEND_QUICK_FILTERS.map((f) => (
            <button
              key={f.key}
              type="button"
              role="tab"
              aria-selected={filter === f.key}
              className={`coalx-quick-filter ${filter === f.key ? 'active' : ''}`}
              onClick={() => {
                setFilter(f.key);
                setPageNo(1);
              }}
            >
              {f.label}
            </button>
          ))}
        </div>
        <Link to="/recommend/recommendList" className="coalx-home-more">
          更多 &gt;
        </Link>
      </header>
      <div className={`coalx-rec-grid ${query.isFetching && !query.isLoading ? 'refreshing' : ''}`} data-testid="recommend-grid" data-filter={filter}>
        {query.isLoading
          ? Array.from({ length: HOME_RECOMMEND_PAGE_SIZE }, (_, i) => <div key={i} className="coalx-rec-card skeleton" aria-hidden="true" />)
          : records.map((r) => <RecommendCard key={r.tradeId} r={r} />)}
        {!query.isLoading && records.length === 0 && <div className="coalx-rec-empty">暂无数据</div>}
      </div>
      {total > HOME_RECOMMEND_PAGE_SIZE && <MiniPager pageNo={pageNo} total={total} onChange={setPageNo} />}
    </section>
  );
}

/** A small pager (antd's Pagination brings its size-changer Select onto the first load of /index). */
function MiniPager({ pageNo, total, onChange }: { pageNo: number; total: number; onChange: (n: number) => void }) {
  const pages = Math.ceil(total / HOME_RECOMMEND_PAGE_SIZE);
  return (
    <nav className="coalx-rec-pager" aria-label="推荐交易分页">
      <span className="coalx-rec-total">共 {total} 条</span>
      <button type="button" aria-label="上一页" disabled={pageNo <= 1} onClick={() => onChange(pageNo - 1)}>
        ‹
      </button>
      {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
        <button key={n} type="button" className={n === pageNo ? 'active' : ''} aria-current={n === pageNo ? 'page' : undefined} onClick={() => onChange(n)}>
          {n}
        </button>
      ))}
      <button type="button" aria-label="下一页" disabled={pageNo >= pages} onClick={() => onChange(pageNo + 1)}>
        ›
      </button>
    </nav>
  );
}
