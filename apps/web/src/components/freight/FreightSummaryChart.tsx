import { useMemo } from 'react';
import { formatFen } from '@coalx/shared';
import LazyChart from '@/components/LazyChart';
import type { FreightSummaryAnswer } from '@/services/freight';

/** 运费汇总's chart: the total (价税合计) by month, one stacked bar per carrier. */
export default function FreightSummaryChart({ rows }: { rows: FreightSummaryAnswer['rows'] }) {
  const option = useMemo(() => {
    if (rows.length === 0) return null;
    const months = [...new Set(rows.map((r) => r.month))].sort();
    const carriers = [...new Set(rows.map((r) => r.carrierName))];
    return {
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
    };
  }, [rows]);
  return <LazyChart option={option} empty="暂无运费结算数据" testId="freight-summary-chart" />;
}
