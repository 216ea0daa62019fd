import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dailyReports, type DailyReportRow } from '../../db/schema/statistics';

/** The archived report of a day, if made. */
export async function findDailyReport(db: Db | Tx, reportDate: string): Promise<DailyReportRow | null> {
  const [row] = await db.select().from(dailyReports).where(eq(dailyReports.reportDate, reportDate)).limit(1);
  return row ?? null;
}

export async function dailyReportById(db: Db, id: number): Promise<DailyReportRow | null> {
  const [row] = await db.select().from(dailyReports).where(eq(dailyReports.id, id)).limit(1);
  return row ?? null;
}

/**
 * Archives a day's report. The unique report_date keeps one a day whatever happens: a second insert of the day
 * inserts nothing and answers null (the caller's transaction then rolls back its files).
 */
export async function archiveDailyReport(tx: Tx, values: typeof dailyReports.$inferInsert): Promise<DailyReportRow | null> {
  const [row] = await tx.insert(dailyReports).values(values).onConflictDoNothing({ target: dailyReports.reportDate }).returning();
  return row ?? null;
}
