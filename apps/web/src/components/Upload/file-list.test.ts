import type { UploadFile } from 'antd';
import { describe, expect, it } from 'vitest';
import { cutFileList, DEFAULT_ACCEPT, fileListToValue, isAccepted, normalizeFileList, valueToUrls } from './file-list';

const done = (uid: string, url: string): UploadFile => ({
  uid,
  name: `${uid}.png`,
  status: 'done',
  response: { code: 0, message: 'ok', result: { url } },
});

describe('upload list', () => {
  it('is cut to the last maxCount files (default 1)', () => {
    expect(cutFileList([1, 2, 3])).toEqual([3]);
    expect(cutFileList([1, 2, 3], 2)).toEqual([2, 3]);
    expect(cutFileList([1], 3)).toEqual([1]);
  });

  it('drops a file whose answer has a non-zero code and returns the server message', () => {
    const bad: UploadFile = { uid: 'b', name: 'b.png', status: 'done', response: { code: 400, message: '文件类型不支持' } };
    const r = normalizeFileList([done('a', 'u/a.png'), bad], 3);
    expect(r.fileList.map((f) => f.uid)).toEqual(['a']);
    expect(r.errors).toEqual(['文件类型不支持']);
  });

  it('drops a failed upload with the server message from its body', () => {
    const failed: UploadFile = { uid: 'c', name: 'c.png', status: 'error', response: { success: false, code: 413, message: '文件过大' } };
    expect(normalizeFileList([failed]).errors).toEqual(['文件过大']);
    expect(normalizeFileList([{ uid: 'd', name: 'd', status: 'error' }]).errors).toEqual(['文件上传失败']);
  });

  it('keeps uploading files and cuts after dropping', () => {
    const uploading: UploadFile = { uid: 'u', name: 'u.png', status: 'uploading' };
    const r = normalizeFileList([done('a', 'x'), done('b', 'y'), uploading]);
    expect(r.fileList.map((f) => f.uid)).toEqual(['u']);
  });

  it('value is the url for one file, the urls for several', () => {
    expect(fileListToValue([done('a', 'p/a.png')])).toBe('p/a.png');
    expect(fileListToValue([done('a', 'p/a.png'), done('b', 'p/b.png')], 2)).toEqual(['p/a.png', 'p/b.png']);
    expect(fileListToValue([], 1)).toBeUndefined();
    expect(valueToUrls('a,b')).toEqual(['a', 'b']);
    expect(valueToUrls(null)).toEqual([]);
  });

  it('accepts .jpg .png .jpeg by default', () => {
    expect(DEFAULT_ACCEPT).toBe('.jpg,.png,.jpeg');
    expect(isAccepted('营业执照.JPG')).toBe(true);
    expect(isAccepted('a.jpeg')).toBe(true);
    expect(isAccepted('a.pdf')).toBe(false);
    expect(isAccepted('a.pdf', '.pdf')).toBe(true);
  });
});
