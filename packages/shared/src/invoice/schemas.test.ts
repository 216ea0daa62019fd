import { describe, expect, it } from 'vitest';
import { INVOICE_RATES, InvoiceCreateSchema, invoiceAmountProblem, invoiceNumberProblem, invoiceSplitOf, invoiceTaxOf } from './schemas';

const good = { kind: 'special', medium: 'digital', code: '', number: '24112000000012345678', issuedOn: '2026-03-02', amount: 100_000_00, rate: 13, tax: 13_000_00, total: 113_000_00, file: '2026/03/02/x.pdf' };
const problems = (input: object) => {
  const parsed = InvoiceCreateSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('invoice rules', () => {
  it('tax is the amount × rate rounded half up to the fen', () => {
    expect(invoiceTaxOf(100, 13)).toBe(13);
    expect(invoiceTaxOf(50, 13)).toBe(7); // 6.5
    expect(invoiceTaxOf(49, 13)).toBe(6); // 6.37
    expect(invoiceTaxOf(1_234_567, 9)).toBe(111_111); // 111111.03
  });

  it('numbers by medium: 数电 20 digits and no code; paper 8 digits with a 10- or 12-digit code', () => {
    expect(invoiceNumberProblem('digital', '', '1'.repeat(20))).toBeNull();
    expect(invoiceNumberProblem('digital', '', '1'.repeat(19))?.message).toBe('数电发票号码应为 20 位数字');
    expect(invoiceNumberProblem('digital', '1234567890', '1'.repeat(20))?.message).toBe('数电发票没有发票代码');
    expect(invoiceNumberProblem('paper', '1400191130', '01234567')).toBeNull();
    expect(invoiceNumberProblem('paper', '140019113011', '01234567')).toBeNull();
    expect(invoiceNumberProblem('paper', '14001911301', '01234567')?.path).toBe('code');
    expect(invoiceNumberProblem('paper', '1400191130', '0123456')?.message).toBe('纸质发票号码应为 8 位数字');
  });

  it('codes by kind: a 专票 has a 10-digit code, a 普票 a 10- or 12-digit one, a 数电 invoice of either kind none', () => {
    expect(invoiceNumberProblem('paper', '1400191130', '01234567', 'special')).toBeNull();
    expect(invoiceNumberProblem('paper', '140019113011', '01234567', 'special')).toEqual({ path: 'code', message: '增值税专用发票代码应为 10 位数字' });
    expect(invoiceNumberProblem('paper', '1400191130', '01234567', 'ordinary')).toBeNull();
    expect(invoiceNumberProblem('paper', '140019113011', '01234567', 'ordinary')).toBeNull();
    expect(invoiceNumberProblem('paper', '14001911301', '01234567', 'ordinary')?.message).toBe('纸质发票代码应为 10 位或 12 位数字');
    expect(invoiceNumberProblem('digital', '', '1'.repeat(20), 'special')).toBeNull();
    expect(invoiceNumberProblem('digital', '1400191130', '1'.repeat(20), 'ordinary')?.message).toBe('数电发票没有发票代码');
    expect(problems({ ...good, medium: 'paper', code: '140019113011', number: '01234567' })).toEqual(['增值税专用发票代码应为 10 位数字']);
    expect(problems({ ...good, kind: 'ordinary', medium: 'paper', code: '140019113011', number: '01234567' })).toEqual([]);
  });

  it('any total splits exactly into an amount and its tax (within the printed rounding) at every rate', () => {
    for (const rate of INVOICE_RATES) {
      for (const total of [1, 2, 113, 114, 1_000_001, 42_275_000, 99_999_999_999]) {
        const { amount, tax } = invoiceSplitOf(total, rate);
        expect(amount + tax).toBe(total);
        expect(invoiceAmountProblem(amount, rate, tax, total), `${total} at ${rate}%`).toBeNull();
      }
    }
    expect(invoiceSplitOf(22_600_000, 13)).toEqual({ amount: 20_000_000, tax: 2_600_000 });
  });

  it('the form: a good invoice passes; tax off by more than a fen, a wrong total, another rate are refused', () => {
    expect(problems(good)).toEqual([]);
    expect(problems({ ...good, tax: 13_000_01, total: 113_000_01 })).toEqual([]); // ±1 fen
    expect(problems({ ...good, tax: 13_000_02, total: 113_000_02 })[0]).toMatch(/^税额应为不含税金额 × 13%/);
    expect(problems({ ...good, total: 113_000_01 })).toEqual(['价税合计应等于不含税金额加税额']);
    expect(problems({ ...good, rate: 10 })).toEqual(['税率只能是 13%、9%、6% 或 3%']);
    expect(problems({ ...good, number: '123' })).toEqual(['数电发票号码应为 20 位数字']);
  });
});
