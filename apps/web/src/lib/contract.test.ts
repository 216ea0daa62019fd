import { describe, expect, it } from 'vitest';
import { canSign, counterpartyOf, deadlineText, depositOutcome, isUrgent, paperFileProblem } from './contract';

const base = { mySide: 'seller' as const, status: 'pending', sellerSignedAt: null, buyerSignedAt: null, sellerName: '卖方企业', buyerName: '买方企业' };

describe('contract helpers', () => {
  it('reads the deadline in hours and minutes, rounding minutes up, and 已逾期 once past', () => {
    expect(deadlineText(5 * 3_600_000 + 30 * 60_000)).toBe('剩余 5 小时 30 分');
    expect(deadlineText(30 * 3_600_000 + 1)).toBe('剩余 30 小时 1 分');
    expect(deadlineText(59_000)).toBe('剩余 1 分');
    expect(deadlineText(0)).toBe('已逾期');
    expect(isUrgent(4 * 3_600_000 - 1)).toBe(true);
    expect(isUrgent(4 * 3_600_000)).toBe(false);
  });

  it('lets a party sign only while signable and not yet signed by its side', () => {
    expect(canSign(base)).toBe(true);
    expect(canSign({ ...base, status: 'buyer_signed', buyerSignedAt: '2026-11-23 10:00:00' })).toBe(true);
    expect(canSign({ ...base, status: 'seller_signed', sellerSignedAt: '2026-11-23 10:00:00' })).toBe(false);
    expect(canSign({ ...base, status: 'overdue' })).toBe(false);
    expect(canSign({ ...base, status: 'effective' })).toBe(false);
    expect(canSign({ ...base, mySide: null })).toBe(false);
  });

  it('names the other party, none for the trading centre', () => {
    expect(counterpartyOf(base)).toBe('买方企业');
    expect(counterpartyOf({ ...base, mySide: 'buyer' })).toBe('卖方企业');
    expect(counterpartyOf({ ...base, mySide: null })).toBeNull();
  });

  it('refuses paper copies that are not PDF/JPG/PNG, empty or over 10 MB', () => {
    expect(paperFileProblem({ name: '合同.PDF', size: 1000 })).toBeNull();
    expect(paperFileProblem({ name: '合同.jpeg', size: 1000 })).toBeNull();
    expect(paperFileProblem({ name: '合同.docx', size: 1000 })).toBe('请选择 PDF、JPG 或 PNG 文件');
    expect(paperFileProblem({ name: '合同.png', size: 10 * 1024 * 1024 + 1 })).toBe('文件不能超过 10 MB');
    expect(paperFileProblem({ name: '合同.png', size: 0 })).toBe('文件内容为空');
  });

  it('says where the deposits go under each ruling, with the amount', () => {
    const c = { depositFen: 20_000_000, sellerName: '晋北煤业', buyerName: '华东电力' };
    expect(depositOutcome(c, 'buyer')).toBe('违约方买方（华东电力）的履约保证金 ¥200,000.00 将划转给守约方卖方（晋北煤业），守约方保证金释放。');
    expect(depositOutcome(c, 'seller')).toContain('违约方卖方（晋北煤业）的履约保证金 ¥200,000.00 将划转给守约方买方（华东电力）');
    expect(depositOutcome(c, 'none')).toBe('双方均无违约，双方保证金将释放。');
  });
});
