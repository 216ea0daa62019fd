import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { amountInWords, bankReceiptPng } from './bank-receipt';

describe('demo bank receipts', () => {
  it('writes amounts in capital numerals as banks print them', () => {
    expect(amountInWords(3_000_000_000)).toBe('叁仟万元整');
    expect(amountInWords(12_000_000_000)).toBe('壹亿贰仟万元整');
    expect(amountInWords(1_000_500)).toBe('壹万零伍元整');
    expect(amountInWords(12_345_678_901)).toBe('壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元零壹分');
    expect(amountInWords(105_050)).toBe('壹仟零伍拾元伍角整');
    expect(amountInWords(0)).toBe('零元整');
  });

  it('draws a receipt with ink on it, and refuses a character it has no glyph for', () => {
    const receipt = { bank: '中国银行', serialNo: '2026112300010', date: '2026-11-23', payerName: '津沽能源贸易有限公司', payerAccount: '275072001234', payeeName: '煤炭交易中心客户保证金专户', payeeAccount: '0200 0456', payeeBank: '中国工商银行', amountFen: 120_000_000 };
    const png = bankReceiptPng(receipt);
    const idat = png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
    const raw = inflateSync(idat);
    // dark ink (text) and the red seal are both there
    let dark = 0;
    let red = 0;
    const stride = 900 * 3 + 1; // each row: its filter byte, then RGB
    for (let y = 0; y < 500; y++) {
      for (let i = y * stride + 1; i < (y + 1) * stride; i += 3) {
        if (raw[i]! < 90 && raw[i + 1]! < 90 && raw[i + 2]! < 90) dark++;
        if (raw[i]! > 180 && raw[i + 1]! < 90 && raw[i + 2]! < 90) red++;
      }
    }
    expect(dark).toBeGreaterThan(2000);
    expect(red).toBeGreaterThan(500);
    expect(() => bankReceiptPng({ ...receipt, payerName: '鑫' })).toThrow('回单字形表缺少「鑫」');
  });
});
