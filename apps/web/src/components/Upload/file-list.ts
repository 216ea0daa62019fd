import type { UploadFile } from 'antd';

/** Upload list rules of spec §4/§5, kept pure for tests. */

export const DEFAULT_ACCEPT = '.jpg,.png,.jpeg';
export const DEFAULT_MAX_COUNT = 1;

interface UploadResponse {
  code?: number;
  success?: boolean;
  message?: string;
  result?: { url?: string } | null;
}

/** The file list cut to the last `maxCount` files. */
export function cutFileList<T>(fileList: T[], maxCount: number = DEFAULT_MAX_COUNT): T[] {
  if (maxCount <= 0) return fileList;
  return fileList.length > maxCount ? fileList.slice(-maxCount) : fileList;
}

/**
 * Drops every file whose upload answered a non-zero code (or failed outright) and returns the messages to show,
 * then cuts the list to the last `maxCount` files.
 */
export function normalizeFileList(
  fileList: UploadFile[],
  maxCount: number = DEFAULT_MAX_COUNT,
): { fileList: UploadFile[]; errors: string[] } {
  const errors: string[] = [];
  const kept = fileList.filter((file) => {
    const response = file.response as UploadResponse | undefined;
    if (file.status === 'error') {
      errors.push(response?.message || '文件上传失败');
      return false;
    }
    if (file.status === 'done' && response && typeof response === 'object' && response.code !== 0) {
      errors.push(response.message || '文件上传失败');
      return false;
    }
    return true;
  });
  return { fileList: cutFileList(kept, maxCount), errors };
}

/** The uploaded file's url as the server named it (files made from a value carry the same answer shape). */
export function fileUrl(file: UploadFile): string | undefined {
  const response = file.response as UploadResponse | undefined;
  return response?.result?.url ?? undefined;
}

/** Form value: one url for a single file, a list of urls otherwise. */
export function fileListToValue(fileList: UploadFile[], maxCount: number = DEFAULT_MAX_COUNT): string | string[] | undefined {
  const urls = fileList.filter((f) => f.status === 'done').map(fileUrl).filter((u): u is string => Boolean(u));
  if (maxCount === 1) return urls[0];
  return urls;
}

export function valueToUrls(value: string | string[] | null | undefined): string[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** Whether the file name ends with one of the accepted extensions ('.jpg,.png,.jpeg'). */
export function isAccepted(fileName: string, accept: string = DEFAULT_ACCEPT): boolean {
  const exts = accept.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (exts.length === 0) return true;
  const lower = fileName.toLowerCase();
  return exts.some((ext) => lower.endsWith(ext));
}
