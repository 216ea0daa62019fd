import { useMemo } from 'react';
import { formatTons } from '@coalx/shared';
import LazyChart from '@/components/LazyChart';
import { usePhone } from '@/hooks/usePhone';
import type { DeliveryDay } from '@/services/delivery';

/** 物流信息's chart: loaded, arrived and signed tons by day (bars) and the loaded total so far (line). */
export default function TonsByDayChart({ days }: { days: DeliveryDay[] }) {
  // on a phone the legend takes a line of its own above the axes' names
  const phone = usePhone();
  const option = useMemo(() => {
    if (days.length === 0) return null;
    const tons = (kg: number) => kg / 1000;
    let total = 0;
    return {
      animation: false,
      grid: phone ? { left: 44, right: 44, top: 76, bottom: 32 } : { left: 64, right: 64, top: 48, bottom: 32 },
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
    };
  }, [days, phone]);
  return <LazyChart option={option} empty="尚无装车或到货记录" testId="tons-by-day-chart" />;
}
