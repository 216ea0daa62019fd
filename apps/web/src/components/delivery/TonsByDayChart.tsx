import { useEffect, useRef, useState } from 'react';
import { Empty, Spin } from 'antd';
import { formatTons } from '@coalx/shared';
import type { DeliveryDay } from '@/services/delivery';

/** 物流信息's chart: loaded, arrived and signed tons by day (bars) and the loaded total so far (line). */
export default function TonsByDayChart({ days }: { days: DeliveryDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (days.length === 0) return;
    let disposed = false;
    let chart: { dispose: () => void; resize: () => void } | null = null;
    const onResize = () => chart?.resize();
    void import('./echarts').then(({ echarts }) => {
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current);
      chart = instance;
      const tons = (kg: number) => kg / 1000;
      let total = 0;
      instance.setOption({
        animation: false,
        grid: { left: 64, right: 64, top: 48, bottom: 32 },
        legend: { top: 8 },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${formatTons(Math.round(Number(v) * 1000))}` },
        xAxis: { type: 'category', data: days.map((d) => d.day) },
        yAxis: [
          { type: 'value', name: '当日 (吨)', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
          { type: 'value', name: '累计装车 (吨)', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
        ],
        series: [
          { name: '装车', type: 'bar', data: days.map((d) => tons(d.loadedKg)), itemStyle: { color: '#1a56db' } },
          { name: '到货', type: 'bar', data: days.map((d) => tons(d.arrivedKg)), itemStyle: { color: '#f59e0b' } },
          { name: '签收', type: 'bar', data: days.map((d) => tons(d.signedKg)), itemStyle: { color: '#16a34a' } },
          {
            name: '累计装车',
            type: 'line',
            yAxisIndex: 1,
            smooth: true,
            data: days.map((d) => tons((total += d.loadedKg))),
            lineStyle: { width: 2, color: '#6366f1' },
            itemStyle: { color: '#6366f1' },
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
  }, [days]);
  if (days.length === 0) return <Empty description="尚无装车或到货记录" />;
  return (
    <div style={{ position: 'relative', height: 320 }}>
      {!ready && <Spin style={{ position: 'absolute', left: '50%', top: '45%' }} />}
      <div ref={box} style={{ height: 320 }} data-testid="tons-by-day-chart" />
    </div>
  );
}
