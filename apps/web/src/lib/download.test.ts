import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download';

describe('fileNameOf', () => {
  it('reads the RFC 5987 name the export sends', () => {
    expect(fileNameOf(`attachment; filename*=UTF-8''${encodeURIComponent('支付记录.xlsx')}`, 'x.xlsx')).toBe('支付记录.xlsx');
  });
  it('falls back to a plain name, then to the default', () => {
    expect(fileNameOf('attachment; filename="journal.xlsx"', 'x.xlsx')).toBe('journal.xlsx');
    expect(fileNameOf(null, '支付记录.xlsx')).toBe('支付记录.xlsx');
  });
  it('keeps the fallback’s extension when the server’s name has none', () => {
    expect(fileNameOf(`attachment; filename*=UTF-8''${encodeURIComponent('长协')}`, '长协.xlsx')).toBe('长协.xlsx');
    expect(fileNameOf(`attachment; filename*=UTF-8''${encodeURIComponent('长协市场')}`, 'x.xlsx')).toBe('长协市场.xlsx');
  });
});
