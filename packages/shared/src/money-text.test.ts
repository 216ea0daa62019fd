import { describe, expect, it } from 'vitest';
import { fenToYuanText, kgToTonsText, tonsTextToKg, yuanTextToFen } from './money';

describe('tons and yuan typed by the trader', () => {
  it('converts tons with up to 3 decimals to integer kg without float error', () => {
    expect(tonsTextToKg('20000')).toBe(20_000_000);
    expect(tonsTextToKg('0.001')).toBe(1);
    expect(tonsTextToKg('1.005')).toBe(1005);
    expect(tonsTextToKg(' 12.5 ')).toBe(12_500);
    expect(tonsTextToKg('1.0001')).toBeNull();
    expect(tonsTextToKg('-1')).toBeNull();
    expect(tonsTextToKg('abc')).toBeNull();
    expect(tonsTextToKg('')).toBeNull();
    expect(tonsTextToKg(undefined)).toBeNull();
  });

  it('converts yuan with up to 2 decimals to integer fen, refusing negatives', () => {
    expect(yuanTextToFen('780')).toBe(78_000);
    expect(yuanTextToFen('0.1')).toBe(10);
    expect(yuanTextToFen('1.13')).toBe(113); // 1.13 * 100 is 112.99999999999999 in floats
    expect(yuanTextToFen('0')).toBe(0);
    expect(yuanTextToFen('1.234')).toBeNull();
    expect(yuanTextToFen('-5')).toBeNull();
    expect(yuanTextToFen('1e3')).toBeNull();
  });

  it('turns kg and fen back into input texts', () => {
    expect(kgToTonsText(20_000_000)).toBe('20000');
    expect(kgToTonsText(1_500)).toBe('1.5');
    expect(kgToTonsText(1_005)).toBe('1.005');
    expect(fenToYuanText(78_000)).toBe('780');
    expect(fenToYuanText(78_050)).toBe('780.5');
    expect(fenToYuanText(113)).toBe('1.13');
    for (const t of ['0.001', '7', '123.45']) expect(kgToTonsText(tonsTextToKg(t)!)).toBe(t);
  });
});
