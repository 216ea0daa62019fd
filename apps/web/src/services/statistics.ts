import type { DailyReport, DailyReportMade, StatisticsAnswer, StatisticsQuery } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** 运营统计 and 交易日报 calls (apps/server/src/api/statistics.routes.ts is the contract). */

export type { DailyReport, StatisticsAnswer, StatisticsQuery };
export interface DailyReportPage {
  records: DailyReport[];
  total: number;
  current: number;
  size: number;
  /** the set time the schedule makes the day's report at (17:30) */
  reportTime: string;
}

export const STATISTICS_KEYS = {
  overview: (query: StatisticsQuery) => ['statistics', 'overview', query] as const,
  dailyReports: (pageNo: number, pageSize: number) => ['statistics', 'daily-reports', pageNo, pageSize] as const,
  allDailyReports: ['statistics', 'daily-reports'] as const,
};

export const STATISTICS_EXPORT_PATH = '/api/statistics/export';
export const dailyReportFilePath = (id: number, kind: 'pdf' | 'xlsx') => `/api/statistics/daily-reports/${id}/${kind}`;

export const getStatistics = (query: StatisticsQuery) => requestResult<StatisticsAnswer>('/api/statistics/overview', { params: { ...query } });
export const listDailyReports = (pageNo: number, pageSize: number) => requestResult<DailyReportPage>('/api/statistics/daily-reports', { params: { pageNo, pageSize } });
export const makeDailyReport = (reportDate: string) => requestResult<DailyReportMade>('/api/statistics/daily-reports', { method: 'POST', data: { reportDate } });
