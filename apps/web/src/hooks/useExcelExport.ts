import { useState } from 'react';
import { message } from 'antd';
import { errorMessage } from '@/app/request';
import { EMPTY_DOWNLOAD } from '@/lib/download';

/**
 * The handler of a table's 导出 button. `save` builds and saves the file (`downloadWithToken` for the files the
 * server builds); one export runs at a time and `exporting` is the button's loading state. A query with nothing to
 * export (save rejects with EMPTY_DOWNLOAD, spec §8) warns with `emptyText`; any other refusal shows as it came.
 */
export function useExcelExport(save: () => Promise<void>, emptyText: string) {
  const [exporting, setExporting] = useState(false);
  const exportExcel = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await save();
    } catch (error) {
      const text = errorMessage(error, '导出失败，请稍后重试');
      if (text === EMPTY_DOWNLOAD) message.warning(emptyText);
      else message.error(text);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportExcel };
}
