import type { Db } from '../db/client';
import { makeDailyReport } from '../flows/make-daily-report';
import { shanghaiDate } from '../lib/shanghai-time';
import type { FileStorage } from '../modules/files/storage';

const DAY = 24 * 3600_000;
/** the demo's trading reaches a week back: the last few days have their reports, as the schedule would have left */
const DEMO_REPORT_DAYS = 5;

/** 交易日报 of the last demo days, archived as the schedule makes them (madeBy null), so the list is not empty. */
export async function loadDemoDailyReports(db: Db, storage: FileStorage, now: Date) {
  for (let back = DEMO_REPORT_DAYS; back >= 1; back--) {
    const day = shanghaiDate(now.getTime() - back * DAY);
    // made "at" the set time of that day
    const madeAt = new Date(`${day}T17:30:00+08:00`);
    await makeDailyReport(db, storage, { now: () => madeAt }, day, { madeBy: null, wait: true });
  }
}
