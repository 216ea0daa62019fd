import { bigint, bigserial, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { users } from './auth';
import { fileObjects } from './files';

/**
 * The trading centre's daily report (交易日报) of one Asia/Shanghai day, made once (scheduled at the set time, or on
 * demand for a past day) and archived: the figures it printed and its PDF and Excel files.
 */
export const dailyReports = pgTable('daily_report', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** YYYY-MM-DD, Asia/Shanghai. */
  reportDate: text('report_date').notNull().unique(),
  figures: jsonb('figures').$type<Record<string, unknown>>().notNull(),
  pdfFileId: bigint('pdf_file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
  xlsxFileId: bigint('xlsx_file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
  /** Null when the schedule made it. */
  madeBy: bigint('made_by', { mode: 'number' }).references(() => users.id),
  madeAt: tstz('made_at').notNull().defaultNow(),
});

export type DailyReportRow = typeof dailyReports.$inferSelect;
