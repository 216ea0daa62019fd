import { useMemo } from 'react';
import { formatFen, type DealFigures } from '@coalx/shared';
import LazyChart from '@/components/LazyChart';

const yuanAxis = { type: 'value', name: '金额 (万元)', axisLabel: { formatter: (v: number) => (v / 10_000).toLocaleString('zh-CN') } };
const money = (v: unknown) => `¥${formatFen(Math.round(Number(v) * 100))}`;
const tonsOf = (kg: number) => Math.round(kg / 10) / 100;

/** 成交趋势: the amount as bars and the tonnage as a line, per period. */
export function TrendChart({ rows }: { rows: DealFigures[] }) {
  const option = useMemo(() => {
    if (rows.length === 0) return null;
    return {
      animation: false,
      grid: { left: 72, right: 72, top: 48, bottom: 32 },
      legend: { top: 8 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: rows.map((r) => r.key) },
      yAxis: [yuanAxis, { type: 'value', name: '成交量 (吨)', splitLine: { show: false }, axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } }],
      series: [
        { name: '成交金额', type: 'bar', barMaxWidth: 40, data: rows.map((r) => r.amountFen / 100), tooltip: { valueFormatter: money } },
        { name: '成交量', type: 'line', yAxisIndex: 1, smooth: true, data: rows.map((r) => tonsOf(r.quantityKg)), tooltip: { valueFormatter: (v: unknown) => `${Number(v).toLocaleString('zh-CN')} 吨` } },
      ],
    };
  }, [rows]);
  return <LazyChart option={option} empty="所选区间暂无成交" testId="statistics-trend-chart" />;
}

/** A breakdown (by kind, product or province): the amount per group as bars, the tonnage in the tooltip. */
export function BreakdownChart({ rows, testId, horizontal }: { rows: DealFigures[]; testId: string; horizontal?: boolean }) {
  const option = useMemo(() => {
    const shown = rows.filter((r) => r.dealCount > 0).slice(0, 10);
    if (shown.length === 0) return null;
    const category = { type: 'category', data: shown.map((r) => r.label), axisLabel: { width: 96, overflow: 'truncate' } };
    return {
      animation: false,
      grid: horizontal ? { left: 112, right: 32, top: 16, bottom: 52 } : { left: 72, right: 24, top: 40, bottom: 32 },
      tooltip: {
        trigger: 'axis',
        formatter: (items: { dataIndex: number }[]) => {
          const r = shown[items[0]?.dataIndex ?? 0]!;
          return `${r.label}<br/>成交 ${r.dealCount} 笔<br/>成交量 ${tonsOf(r.quantityKg).toLocaleString('zh-CN')} 吨<br/>成交金额 ¥${formatFen(r.amountFen)}`;
        },
      },
      // a narrow card: three ticks and the unit under the axis, so the labels never run into each other
      xAxis: horizontal ? { ...yuanAxis, splitNumber: 3, nameLocation: 'middle', nameGap: 30 } : category,
      yAxis: horizontal ? { ...category, inverse: true } : yuanAxis,
      series: [{ name: '成交金额', type: 'bar', barMaxWidth: 36, data: shown.map((r) => r.amountFen / 100) }],
    };
  }, [rows, horizontal]);
  return <LazyChart option={option} empty="所选区间暂无成交" testId={testId} height={280} />;
}
