import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatTons } from '@coalx/shared';
import { indexPriceText, indexRise, indexRisePercent } from '@/lib/home';
import { marketIndexInfo } from '@/services/content';
import './index-strip.css';

// The history drawer (antd Drawer + ECharts) loads only when a visitor opens it: never in the first load.
const IndexHistoryDrawer = lazy(() => import('./IndexHistoryDrawer'));

/**
 * Market-index strip of the public layout (spec §2, §3, §5): term (第N期 / 总第N期), quote date, price with thousands
 * separators and 2 decimals in 元/吨, and the change, red with '+' when rising and green when falling. Clicking
 * it opens the history as a line chart.
 */
export default function MarketIndexStrip() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const { data, isLoading, isError } = useQuery({ queryKey: ['marketIndex', 'info'], queryFn: marketIndexInfo, staleTime: 60_000 });
  const rise = data ? indexRise(data.rise) : null;
  const show = () => {
    setOpened(true);
    setOpen(true);
  };
  return (
    <section className="coalx-index-strip" aria-label="动力煤价格指数">
      <div
        className="coalx-container coalx-index-strip-inner"
        role="button"
        tabIndex={0}
        title="查看指数历史走势"
        onClick={show}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && show()}
      >
        <span className="coalx-index-strip-label">
          动力煤价格指数<small>CCI 5500</small>
        </span>
        {isLoading ? (
          <span className="coalx-index-skeleton" aria-label="指数加载中" />
        ) : !data ? (
          <span className="coalx-index-strip-note">{isError ? '指数暂时无法获取' : '暂无指数发布'}</span>
        ) : (
          <>
            <span className="coalx-index-term" data-testid="index-term">
              {data.currentYear}年 第{data.currentTerm}期 <em>/</em> 总第{data.totalTerm}期
            </span>
            <span className="coalx-index-date">
              报价日期 <b>{data.quoteDate}</b>
            </span>
            <span className="coalx-index-price" data-testid="index-price">
              {indexPriceText(data.price)}
              <i>元/吨</i>
            </span>
            <span className={`coalx-index-rise ${rise!.tone}`} data-testid="index-rise" data-tone={rise!.tone}>
              {rise!.tone === 'up' ? '▲' : rise!.tone === 'down' ? '▼' : '—'} {rise!.text}
              <small>{indexRisePercent(data.price, data.rise)}</small>
            </span>
            <span className="coalx-index-deals">
              样本成交 {data.dealCount} 笔 · {formatTons(data.dealTonnage)}
            </span>
          </>
        )}
        <span className="coalx-index-more">历史走势 &gt;</span>
        <Link to="/marketIndex/method" className="coalx-index-more coalx-index-method-link" data-testid="index-method-link" onClick={(e) => e.stopPropagation()}>
          编制方法与样本 &gt;
        </Link>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <IndexHistoryDrawer open={open} onClose={() => setOpen(false)} latest={data ?? null} />
        </Suspense>
      )}
    </section>
  );
}
