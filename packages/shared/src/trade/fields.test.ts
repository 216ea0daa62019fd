import { describe, expect, it } from 'vitest';
import { JournalQuerySchema } from '../funds/schemas';
import { dayField, isCalendarDay } from './fields';

describe('calendar days', () => {
  it('accepts real days, leap days included, and refuses impossible ones', () => {
    expect(isCalendarDay('2026-11-23')).toBe(true);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', '2026-1-1']) {
      expect(isCalendarDay(bad), bad).toBe(false);
    }
    expect(dayField('交收开始日期').safeParse('2026-02-30').error?.issues[0]?.message).toBe('交收开始日期不是有效日期');
    // the funds journal's date filter was a 500 on such a day; now it is a 400 with this message
    expect(JournalQuerySchema.safeParse({ dateFrom: '2026-02-31' }).error?.issues[0]?.message).toBe('开始日期不是有效日期');
  });
});
