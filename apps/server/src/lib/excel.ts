// loaded on the first export, not at start-up (README start-up time)
import type ExcelJSModule from 'exceljs';
import type { FastifyReply } from 'fastify';

export interface ExcelColumn {
  header: string;
  key: string;
  width: number;
}

/** One sheet with a bold header row: every Excel export of the platform (journal, contracts, audit trail). */
export async function excelWorkbook(sheetName: string, columns: ExcelColumn[], rows: Record<string, unknown>[]): Promise<Buffer> {
  const ExcelJS = ((await import('exceljs')) as unknown as { default: typeof ExcelJSModule }).default;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns;
  for (const row of rows) sheet.addRow(row);
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Answers with a workbook as a download named in Chinese. */
export function sendExcel(reply: FastifyReply, workbook: Buffer, fileName: string) {
  reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
  return reply.send(workbook);
}

export interface ExcelSheet {
  name: string;
  columns: (ExcelColumn & { numFmt?: string })[];
  rows: Record<string, unknown>[];
}

/** Several sheets in one workbook (运营统计, 交易日报): numbers stay numbers, shown with the column's format. */
export async function excelWorkbookOfSheets(sheets: ExcelSheet[]): Promise<Buffer> {
  const ExcelJS = ((await import('exceljs')) as unknown as { default: typeof ExcelJSModule }).default;
  const workbook = new ExcelJS.Workbook();
  for (const definition of sheets) {
    const sheet = workbook.addWorksheet(definition.name);
    sheet.columns = definition.columns.map(({ numFmt, ...column }) => ({ ...column, style: numFmt ? { numFmt } : {} }));
    for (const row of definition.rows) sheet.addRow(row);
    sheet.getRow(1).font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
