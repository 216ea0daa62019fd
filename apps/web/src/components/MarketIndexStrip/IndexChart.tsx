import { useEffect, useRef, useState } from 'react';
import { Spin } from 'antd';
import { formatFen } from '@coalx/shared';
import type { MarketIndex } from '@/services/content';

/** The ECharts line chart; echarts itself is imported dynamically, so it is its own chunk fetched on demand. */
export default function IndexChart({ data }: { data: MarketIndex[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let disposed = false;
    let chart: { dispose: () => void; resize: () => void } | null = null;
    const onResize = () => chart?.resize();
    void import('./echarts').then(({ echarts }) => {
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current);
      chart = instance;
      instance.setOption({
        animation: false,
        grid: { left: 64, right: 24, top: 32, bottom: 56 },
        tooltip: {
          trigger: 'axis',
          valueFormatter: (v: unknown) => `${formatFen(Math.round(Number(v) * 100))} 元/吨`,
        },
        xAxis: { type: 'category', boundaryGap: false, data: data.map((d) => `${d.currentYear}-${String(d.currentTerm).padStart(2, '0')}期`) },
        yAxis: { type: 'value', scale: true, name: '元/吨', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
        dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 12 }],
        series: [
          {
            name: '动力煤价格指数',
            type: 'line',
            smooth: true,
            showSymbol: false,
            lineStyle: { width: 2, color: '#1a56db' },
            areaStyle: { color: 'rgba(26, 86, 219, 0.08)' },
            // fen → yuan for the axis only; the tooltip formats the same number back to 2 decimals
            data: data.map((d) => d.price / 100),
          },
        ],
      });
      window.addEventListener('resize', onResize);
      setReady(true);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      chart?.dispose();
    };
  }, [data]);
  return (
    <div className="coalx-index-chart-box">
      {!ready && <Spin className="coalx-index-chart-spin" />}
      <div ref={box} className="coalx-index-chart" data-testid="index-chart" />
    </div>
  );
}
