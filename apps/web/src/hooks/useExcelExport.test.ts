import { act, renderHook } from '@testing-library/react';
import { message } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_DOWNLOAD } from '@/lib/download';
import { useExcelExport } from './useExcelExport';

afterEach(() => vi.restoreAllMocks());

describe('useExcelExport', () => {
  it('is loading while the file is saved, and runs one export at a time', async () => {
    let finish!: () => void;
    const save = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useExcelExport(save, '当前查询没有可导出的订单'));
    let running!: Promise<void>;
    act(() => {
      running = result.current.exportExcel();
    });
    expect(result.current.exporting).toBe(true);
    await act(() => result.current.exportExcel());
    expect(save).toHaveBeenCalledTimes(1);
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current.exporting).toBe(false);
  });

  it('warns with the page’s text when the query has nothing to export, and shows any other refusal as it came', async () => {
    const warning = vi.spyOn(message, 'warning').mockImplementation(() => undefined as never);
    const error = vi.spyOn(message, 'error').mockImplementation(() => undefined as never);
    const { result, rerender } = renderHook(({ save }) => useExcelExport(save, '当前查询没有可导出的订单'), {
      initialProps: { save: () => Promise.reject(new Error(EMPTY_DOWNLOAD)) },
    });
    await act(() => result.current.exportExcel());
    expect(warning).toHaveBeenCalledWith('当前查询没有可导出的订单');
    rerender({ save: () => Promise.reject(new Error('无导出权限')) });
    await act(() => result.current.exportExcel());
    expect(error).toHaveBeenCalledWith('无导出权限');
    rerender({ save: () => Promise.reject(new Error('')) });
    await act(() => result.current.exportExcel());
    expect(error).toHaveBeenLastCalledWith('导出失败，请稍后重试');
    expect(result.current.exporting).toBe(false);
  });
});
