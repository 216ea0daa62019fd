import { DEAL_KINDS, type DailyReport, type DailyReportFigures } from '@coalx/shared';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dailyReports, fileObjects, users } from '../../db/schema/index';
import { dealGroups, figuresOf, statisticsFor } from './index';
import { rangeInstants } from './period';

/** The figures of one day's 交易日报: the day's statistics, its deals by kind and product, and the index if published. */
export async function dailyReportFigures(db: Db | Tx, day: string): Promise<DailyReportFigures> {
  const { start, end } = rangeInstants(day, day);
  // one after another: the make reads them in its transaction, on one connection
  const answer = await statisticsFor(db, { from: day, to: day, granularity: 'day' });
  const groups = await dealGroups(db, start, end);
  const index = await db.execute(sql`
      SELECT current_year, current_term, total_term, price_fen::text, rise_fen::text FROM market_index
      WHERE created_at >= ${start.toISOString()}::timestamptz AND created_at < ${end.toISOString()}::timestamptz
      ORDER BY total_term DESC LIMIT 1`);
  const byKindProduct = Object.entries(DEAL_KINDS).flatMap(([kind, kindLabel]) => {
    const ofKind = groups.filter((g) => g.kind === kind);
    return [...new Set(ofKind.map((g) => g.product))].sort().map((productName) => ({
      ...figuresOf(`${kind}:${productName}`, `${kindLabel} · ${productName}`, ofKind.filter((g) => g.product === productName)),
      kind,
      kindLabel,
      productName,
    }));
  });
  const [term] = (index as unknown as { rows: { current_year: number; current_term: number; total_term: number; price_fen: string; rise_fen: string }[] }).rows;
  return {
    ...answer,
    byKindProduct,
    marketIndex: term
      ? { term: `${term.current_year}年第${term.current_term}期（总第${term.total_term}期）`, priceFen: Number(term.price_fen), riseFen: Number(term.rise_fen) }
      : null,
  };
}

/** 交易日报's archive, newest day first, with who made each and the names of its files. */
export async function listDailyReports(db: Db, page: { pageNo: number; pageSize: number }) {
  const pdf = sql`(SELECT original_name FROM ${fileObjects} WHERE ${fileObjects.id} = ${dailyReports.pdfFileId})`;
  const xlsx = sql`(SELECT original_name FROM ${fileObjects} WHERE ${fileObjects.id} = ${dailyReports.xlsxFileId})`;
  const [[total], list] = await Promise.all([
    db.select({ n: count() }).from(dailyReports),
    db
      .select({ report: dailyReports, maker: users.realname, makerName: users.username, pdfName: sql<string>`${pdf}`, xlsxName: sql<string>`${xlsx}` })
      .from(dailyReports)
      .leftJoin(users, eq(users.id, dailyReports.madeBy))
      .orderBy(desc(dailyReports.reportDate))
      .limit(page.pageSize)
      .offset((page.pageNo - 1) * page.pageSize),
  ]);
  return {
    records: list.map((r) => dailyReportView(r.report, r.maker || r.makerName, r.pdfName, r.xlsxName)),
    total: Number(total?.n ?? 0),
    current: page.pageNo,
    size: page.pageSize,
  };
}

/** One archived report as the page lists it; its figures are the ones it printed. */
export function dailyReportView(
  report: typeof dailyReports.$inferSelect,
  maker: string | null,
  pdfName: string | null,
  xlsxName: string | null,
): DailyReport {
  const summary = (report.figures as Partial<DailyReportFigures>).summary;
  return {
    id: report.id,
    reportDate: report.reportDate,
    madeAt: report.madeAt.toISOString(),
    madeBy: report.madeBy === null ? '系统定时' : (maker ?? ''),
    dealCount: summary?.dealCount ?? 0,
    quantityKg: summary?.quantityKg ?? 0,
    amountFen: summary?.amountFen ?? 0,
    pdfName: pdfName ?? '',
    xlsxName: xlsxName ?? '',
  };
}

/** One report as listed, by id. */
export async function dailyReportListed(db: Db | Tx, id: number): Promise<DailyReport | null> {
  const pdf = sql`(SELECT original_name FROM ${fileObjects} WHERE ${fileObjects.id} = ${dailyReports.pdfFileId})`;
  const xlsx = sql`(SELECT original_name FROM ${fileObjects} WHERE ${fileObjects.id} = ${dailyReports.xlsxFileId})`;
  const [row] = await db
    .select({ report: dailyReports, maker: users.realname, makerName: users.username, pdfName: sql<string>`${pdf}`, xlsxName: sql<string>`${xlsx}` })
    .from(dailyReports)
    .leftJoin(users, eq(users.id, dailyReports.madeBy))
    .where(eq(dailyReports.id, id))
    .limit(1);
  return row ? dailyReportView(row.report, row.maker || row.makerName, row.pdfName, row.xlsxName) : null;
}
