import { DownloadOutlined } from '@ant-design/icons';
import { Button, message } from 'antd';
import type { PageResult } from '@/app/request';
import { useExcelExport } from '@/hooks/useExcelExport';
import { EMPTY_DOWNLOAD } from '@/lib/download';

export interface ExcelColumn<T> {
  title: string;
  value: (row: T) => string | number | null | undefined;
  width?: number;
}

/** Rows fetched page by page (100 a page) for the current query; stops at `limit` rows. */
export async function fetchAllRows<T>(fetchPage: (pageNo: number, pageSize: number) => Promise<PageResult<T>>, limit = 10_000): Promise<T[]> {
  const rows: T[] = [];
  for (let pageNo = 1; rows.length < limit; pageNo += 1) {
    const page = await fetchPage(pageNo, 100);
    rows.push(...page.records);
    if (page.records.length < 100 || rows.length >= page.total) break;
  }
  return rows.slice(0, limit);
}

/** Writes an .xlsx in the browser. exceljs is loaded only now, so it never weighs on a first visit. */
export async function downloadExcel<T>(fileName: string, sheetName: string, columns: ExcelColumn<T>[], rows: T[]) {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'CoalX';
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.title, width: c.width ?? Math.max(12, c.title.length * 2 + 4) }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row) ?? ''));
  const buffer = await workbook.xlsx.writeBuffer();
  const blob = new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName.endsWith('.xlsx') ? fileName : `${fileName}.xlsx`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface ExportExcelButtonProps<T> {
  fileName: string;
  columns: ExcelColumn<T>[];
  /** One page of the table's current query. */
  fetchPage: (pageNo: number, pageSize: number) => Promise<PageResult<T>>;
}

/** 导出 Excel: every row of the table's current query, fetched page by page. */
export default function ExportExcelButton<T>({ fileName, columns, fetchPage }: ExportExcelButtonProps<T>) {
  const { exporting, exportExcel } = useExcelExport(async () => {
    const rows = await fetchAllRows(fetchPage);
    if (rows.length === 0) throw new Error(EMPTY_DOWNLOAD);
    const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    await downloadExcel(`${fileName}-${stamp}`, fileName, columns, rows);
    message.success(`已导出 ${rows.length} 条记录`);
  }, '当前查询没有可导出的数据');
  return (
    <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
      导出 Excel
    </Button>
  );
}
