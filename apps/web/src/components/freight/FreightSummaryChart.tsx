import { useEffect, useRef, useState } from 'react';
import { Empty, Spin } from 'antd';
import { formatFen } from '@coalx/shared';
import type { FreightSummaryAnswer } from '@/services/freight';

/** 运费汇总's chart: the total (价税合计) by month, one stacked bar per carrier. */
export default function FreightSummaryChart({ rows }: { rows: FreightSummaryAnswer['rows'] }) {
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (rows.length === 0) return;
    let disposed = false;
    let chart: { dispose: () => void; resize: () => void } | null = null;
    const onResize = () => chart?.resize();
    void import('@/components/delivery/echarts').then(({ echarts }) => {
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current);
      chart = instance;
      const months = [...new Set(rows.map((r) => r.month))].sort();
      const carriers = [...new Set(rows.map((r) => r.carrierName))];
      instance.setOption({
        animation: false,
        grid: { left: 88, right: 24, top: 48, bottom: 32 },
        legend: { top: 8, type: 'scroll' },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `¥${formatFen(Math.round(Number(v) * 100))}` },
        xAxis: { type: 'category', data: months },
        yAxis: { type: 'value', name: '价税合计 (元)', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
        series: carriers.map((carrier) => ({
          name: carrier,
          type: 'bar',
          stack: 'total',
          barMaxWidth: 56,
          data: months.map((m) => (rows.find((r) => r.month === m && r.carrierName === carrier)?.totalFen ?? 0) / 100),
        })),
      });
      window.addEventListener('resize', onResize);
      setReady(true);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      chart?.dispose();
    };
  }, [rows]);
  if (rows.length === 0) return <Empty description="暂无运费结算数据" />;
  return (
    <div style={{ position: 'relative', height: 320 }}>
      {!ready && <Spin style={{ position: 'absolute', left: '50%', top: '45%' }} />}
      <div ref={box} style={{ height: 320 }} data-testid="freight-summary-chart" />
    </div>
  );
}
