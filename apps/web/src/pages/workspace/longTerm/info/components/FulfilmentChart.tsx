import { useMemo } from 'react';
import { formatTons } from '@coalx/shared';
import LazyChart from '@/components/LazyChart';
import type { LongTermMonth } from '@/services/longTerm';

/** 逐月计划与履约's chart: per month the plan, the tons called off and the tons signed for, side by side. */
export default function FulfilmentChart({ months }: { months: LongTermMonth[] }) {
  const option = useMemo(() => {
    if (months.length === 0) return null;
    const tons = (kg: number) => kg / 1000;
    return {
      animation: false,
      grid: { left: 72, right: 24, top: 48, bottom: 32 },
      legend: { top: 8 },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => formatTons(Math.round(Number(v) * 1000)) },
      xAxis: { type: 'category', data: months.map((m) => m.month) },
      yAxis: { type: 'value', name: '吨', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
      series: [
        { name: '计划量', type: 'bar', barMaxWidth: 28, itemStyle: { color: '#b7c9f2' }, data: months.map((m) => tons(m.plannedKg)) },
        { name: '已调运', type: 'bar', barMaxWidth: 28, itemStyle: { color: '#5b8def' }, data: months.map((m) => tons(m.calledKg)) },
        {
          name: '已签收',
          type: 'bar',
          barMaxWidth: 28,
          itemStyle: { color: '#1f9d55' },
          data: months.map((m) => ({ value: tons(m.deliveredKg), itemStyle: { color: m.flagged ? '#e5383b' : '#1f9d55' } })),
        },
      ],
    };
  }, [months]);
  return <LazyChart option={option} empty="暂无月度计划" testId="lt-fulfilment-chart" height={300} />;
}
