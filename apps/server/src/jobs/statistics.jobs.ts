import type { Db } from '../db/client';
import { makeScheduledDailyReport } from '../flows/make-daily-report';
import { shanghaiDate } from '../lib/shanghai-time';
import type { FileStorage } from '../modules/files/storage';
import type { ScheduledJob } from '../plugins/scheduler';

/**
 * 交易日报: every round, from the set time of the day on (系统参数 交易日报生成时间, default 17:30), the day's report
 * is made once — by whichever process gets the day's lock first (flows/make-daily-report.ts). Once this process
 * has seen the day made it asks no more that day.
 */
export function statisticsJobs(storage: FileStorage): ScheduledJob[] {
  const doneDays = new WeakMap<Db, string>();
  return [
    {
      name: 'statistics.daily_report',
      run: async (db, now) => {
        const day = shanghaiDate(now);
        if (doneDays.get(db) === day) return;
        const made = await makeScheduledDailyReport(db, storage, now);
        if (made) doneDays.set(db, day);
      },
    },
  ];
}
