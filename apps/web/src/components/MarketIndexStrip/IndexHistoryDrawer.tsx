import { useQuery } from '@tanstack/react-query';
import { Drawer, Empty, Spin, Statistic } from 'antd';
import { formatTons } from '@coalx/shared';
import { indexPriceText, indexRise } from '@/lib/home';
import { marketIndexHistory, type MarketIndex } from '@/services/content';
import IndexChart from './IndexChart';

/** History of the index: a line chart of the last 52 terms (ECharts, loaded with this drawer) and the latest term. */
export default function IndexHistoryDrawer({ open, onClose, latest }: { open: boolean; onClose: () => void; latest: MarketIndex | null }) {
  const history = useQuery({ queryKey: ['marketIndex', 'history', 52], queryFn: () => marketIndexHistory(52), enabled: open });
  const rise = latest ? indexRise(latest.rise) : null;
  return (
    <Drawer title="动力煤价格指数 (CCI 5500) · 历史走势" open={open} onClose={onClose} width={880} destroyOnHidden={false}>
      {latest && (
        <div className="coalx-index-drawer-stats">
          <Statistic valueStyle={{ fontSize: 20 }} title={`${latest.currentYear}年第${latest.currentTerm}期 (总第${latest.totalTerm}期)`} value={indexPriceText(latest.price)} suffix="元/吨" />
          <Statistic title="较上期" value={rise!.text} valueStyle={{ fontSize: 20, color: rise!.tone === 'up' ? '#e5383b' : rise!.tone === 'down' ? '#10a36b' : undefined }} suffix="元/吨" />
          <Statistic valueStyle={{ fontSize: 20 }} title="报价日期" value={latest.quoteDate} />
          <Statistic valueStyle={{ fontSize: 20 }} title="样本成交" value={`${latest.dealCount} 笔 / ${formatTons(latest.dealTonnage)}`} />
        </div>
      )}
      {history.isLoading ? (
        <div className="coalx-index-chart-box">
          <Spin />
        </div>
      ) : history.isError ? (
        <Empty description={(history.error as { message?: string })?.message ?? '历史指数加载失败'} />
      ) : (history.data ?? []).length === 0 ? (
        <Empty description="暂无历史指数" />
      ) : (
        <IndexChart data={history.data!} />
      )}
      <p className="coalx-index-drawer-note">
        指数按本平台每期 5500 大卡动力煤成交的吨数加权平均成交价计算，由交易中心每周发布。
      </p>
    </Drawer>
  );
}
