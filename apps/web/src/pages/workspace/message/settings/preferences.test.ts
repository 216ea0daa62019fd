import { describe, expect, it } from 'vitest';
import { MESSAGE_CATEGORY_KEYS } from '@coalx/shared';
import { preferenceRows, settingsInput, settingsProblem, toggle } from './preferences';

describe('通知设置 rows', () => {
  it('has one row per category in the shared order, missing ones at the defaults (SMS on, e-mail off)', () => {
    const rows = preferenceRows([{ category: 'funds', sms: false, email: true }]);
    expect(rows.map((r) => r.category)).toEqual(MESSAGE_CATEGORY_KEYS);
    expect(rows.find((r) => r.category === 'funds')).toEqual({ category: 'funds', name: '资金', sms: false, email: true });
    expect(rows.find((r) => r.category === 'contract')).toEqual({ category: 'contract', name: '合同', sms: true, email: false });
  });

  it('switches one channel of one category', () => {
    const rows = preferenceRows([]);
    const next = toggle(rows, 'trade', 'email', true);
    expect(next.find((r) => r.category === 'trade')).toMatchObject({ sms: true, email: true });
    expect(next.filter((r) => r.email)).toHaveLength(1);
    expect(rows.some((r) => r.email)).toBe(false);
  });

  it('asks for an address before e-mail is switched on, and sends the address trimmed with bare rows', () => {
    const rows = toggle(preferenceRows([]), 'trade', 'email', true);
    expect(settingsProblem('  ', rows)).toBe('开启邮件通知前，请先填写接收邮箱');
    expect(settingsProblem('', preferenceRows([]))).toBeNull();
    expect(settingsProblem('a@b.cn', rows)).toBeNull();
    const input = settingsInput(' a@b.cn ', rows);
    expect(input.email).toBe('a@b.cn');
    expect(input.preferences[0]).toEqual({ category: 'trade', sms: true, email: true });
    expect(Object.keys(input.preferences[1]!)).toEqual(['category', 'sms', 'email']);
  });
});
