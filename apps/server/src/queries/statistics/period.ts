import type { StatisticsGranularity } from '@coalx/shared';

/** Asia/Shanghai is UTC+8 all year: a local day starts at 16:00 UTC the day before. */
const DAY_MS = 86_400_000;

/** The instants [start, end) of the Shanghai days `from` … `to` (YYYY-MM-DD, both included). */
export function rangeInstants(from: string, to: string): { start: Date; end: Date } {
  return { start: new Date(`${from}T00:00:00+08:00`), end: new Date(Date.parse(`${to}T00:00:00+08:00`) + DAY_MS) };
}

/** Every YYYY-MM-DD from `from` to `to`. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** The period a day belongs to: itself, the Monday of its week, or its month (YYYY-MM). */
export function periodOf(day: string, granularity: StatisticsGranularity): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return day.slice(0, 7);
  const t = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0
  return new Date(t - weekday * DAY_MS).toISOString().slice(0, 10);
}

/** How a period reads on the page and in the export. */
export function periodLabel(period: string, granularity: StatisticsGranularity): string {
  if (granularity === 'day') return period;
  if (granularity === 'month') return `${period.slice(0, 4)}年${Number(period.slice(5, 7))}月`;
  return `${period} 当周`;
}
