import { clockTimeOf, type DailyReport } from '@coalx/shared';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { shanghaiDate } from '../lib/shanghai-time';
import { dailyReportFigures, dailyReportListed } from '../queries/statistics/daily-report';
import { storeGeneratedFile } from '../modules/files/files.service';
import type { FileStorage } from '../modules/files/storage';
import { archiveDailyReport, findDailyReport } from '../modules/statistics/daily-report.service';
import { dailyReportPdf, dailyReportWorkbook } from '../modules/statistics/statistics-documents';
import { statisticsPolicy } from '../modules/statistics/statistics.policy';
import { parameterNumber } from '../modules/system/calendar';

/**
 * 交易日报 (issue 29 item 2): one report a day, made by the schedule at the set time (系统参数 交易日报生成时间) or on
 * demand by the operator for a past day, archived with its PDF and workbook. Made once whatever happens: the make
 * holds a PostgreSQL advisory transaction lock of the day, looks for the day's report under it, and the unique
 * report_date refuses a second row anyway. A day already made is never made again: the archive is the record, so
 * the operator's make of such a day answers with the archived report.
 */
export interface MadeDailyReport {
  report: DailyReport;
  alreadyMade: boolean;
}

/** The operator's make of a past day (today's is the schedule's, at the set time). */
export async function makeDailyReportOnDemand(db: Db, storage: FileStorage, clock: Clock, actor: Actor, reportDate: string): Promise<MadeDailyReport> {
  statisticsPolicy.can(actor, 'make');
  const today = shanghaiDate(clock.now());
  if (reportDate >= today) throw businessRule(`只能为今天（${today}）以前的日期生成日报，当日日报在每日设定时刻自动生成`);
  if (Number.isNaN(Date.parse(`${reportDate}T00:00:00Z`))) throw businessRule('日报日期无效');
  const made = await makeDailyReport(db, storage, clock, reportDate, { madeBy: actor.userId, wait: true });
  return made!;
}

/**
 * The schedule's step: from the set time of the Shanghai day on, the day's report once. A process that finds
 * another making it moves on (try-lock); the next round sees the archived row.
 */
export async function makeScheduledDailyReport(db: Db, storage: FileStorage, now: Date): Promise<MadeDailyReport | null> {
  const hhmm = await parameterNumber(db, 'daily_report_time');
  const local = new Date(now.getTime() + 8 * 3600_000);
  if (local.getUTCHours() * 100 + local.getUTCMinutes() < hhmm) return null;
  const day = shanghaiDate(now);
  const existing = await findDailyReport(db, day);
  if (existing) return { report: (await dailyReportListed(db, existing.id))!, alreadyMade: true };
  return makeDailyReport(db, storage, { now: () => now }, day, { madeBy: null, wait: false });
}

/** Makes a day's report unless archived (`wait`: wait for another maker's lock, else give way to it). */
export async function makeDailyReport(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  reportDate: string,
  options: { madeBy: number | null; wait: boolean },
): Promise<MadeDailyReport | null> {
  const existing = await findDailyReport(db, reportDate);
  if (existing) return { report: (await dailyReportListed(db, existing.id))!, alreadyMade: true };
  const outcome = await db.transaction(async (tx) => {
    if (!(await lockDay(tx, reportDate, options.wait))) return null; // another process is making it now
    const made = await findDailyReport(tx, reportDate);
    if (made) return { id: made.id, alreadyMade: true };
    const now = clock.now();
    const figures = await dailyReportFigures(tx, reportDate);
    const [pdf, xlsx] = await Promise.all([dailyReportPdf(figures, now), dailyReportWorkbook(figures)]);
    const scene = 'daily_report';
    const pdfFile = await storeGeneratedFile(tx, storage, now, { name: `交易日报_${reportDate}.pdf`, data: Buffer.from(pdf), ext: 'pdf', contentType: 'application/pdf', scene });
    const xlsxFile = await storeGeneratedFile(tx, storage, now, {
      name: `交易日报_${reportDate}.xlsx`,
      data: xlsx,
      ext: 'xlsx',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      scene,
    });
    const row = await archiveDailyReport(tx, { reportDate, figures, pdfFileId: pdfFile.id, xlsxFileId: xlsxFile.id, madeBy: options.madeBy, madeAt: now });
    // the lock makes this unreachable between platform processes; the unique day still holds against anything else
    if (!row) throw businessRule(`${reportDate} 的日报已生成`);
    await publish(tx, 'statistics.daily_report_made', { id: row.id, reportDate, madeBy: options.madeBy });
    return { id: row.id, alreadyMade: false };
  });
  if (!outcome) return null;
  return { report: (await dailyReportListed(db, outcome.id))!, alreadyMade: outcome.alreadyMade };
}

/** The day's advisory transaction lock: waited for on demand, tried by the schedule. */
async function lockDay(tx: Tx, reportDate: string, wait: boolean): Promise<boolean> {
  const key = `daily-report:${reportDate}`;
  if (wait) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
    return true;
  }
  const result = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS locked`);
  return (result as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked === true;
}

/** The set time as it reads (17:30), for the page. */
export async function dailyReportTime(db: Db): Promise<string> {
  return clockTimeOf(await parameterNumber(db, 'daily_report_time'));
}
