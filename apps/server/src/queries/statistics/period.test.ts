import { clockTimeOf, formatParameterValue, parameterValueProblem, StatisticsQuerySchema } from '@coalx/shared';
import { describe, expect, it } from 'vitest';
import { daysOf, periodLabel, periodOf, rangeInstants } from './period';

describe('statistics periods (Asia/Shanghai)', () => {
  it('a range of days starts at 00:00 Shanghai (16:00 UTC the day before) and ends after its last day', () => {
    const { start, end } = rangeInstants('2026-11-01', '2026-11-03');
    expect(start.toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-03T16:00:00.000Z');
    expect(daysOf('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
  });

  it('groups a day into its week (by its Monday) and its month', () => {
    expect(periodOf('2026-11-28', 'week')).toBe('2026-11-23'); // a Saturday
    expect(periodOf('2026-11-23', 'week')).toBe('2026-11-23'); // the Monday itself
    expect(periodOf('2026-11-22', 'week')).toBe('2026-11-16'); // a Sunday belongs to the week before
    expect(periodOf('2026-11-28', 'month')).toBe('2026-11');
    expect(periodLabel('2026-11', 'month')).toBe('2026年11月');
  });

  it('refuses a reversed or too long range in Chinese', () => {
    expect(StatisticsQuerySchema.safeParse({ from: '2026-11-02', to: '2026-11-01' }).error?.issues[0]?.message).toBe('结束日期不能早于开始日期');
    expect(StatisticsQuerySchema.safeParse({ from: '2024-01-01', to: '2026-11-01' }).error?.issues[0]?.message).toContain('不能超过');
    expect(StatisticsQuerySchema.parse({ from: '2026-11-01', to: '2026-11-01' }).granularity).toBe('day');
  });

  it('the report time parameter reads as a time of day and refuses minutes past 59', () => {
    expect(clockTimeOf(1730)).toBe('17:30');
    expect(clockTimeOf(5)).toBe('00:05');
    expect(formatParameterValue('daily_report_time', 1730)).toBe('17:30');
    expect(parameterValueProblem('daily_report_time', 1730)).toBeNull();
    expect(parameterValueProblem('daily_report_time', 1775)).toContain('有效的时刻');
    expect(parameterValueProblem('daily_report_time', 2400)).toContain('之间');
  });
});
