import type { HolidayInput } from '@coalx/shared';

/** sys_meta key set once these were inserted (a later release with more years uses a new key). */
export const PRC_HOLIDAYS_MARKER = 'prc_holidays_2026_2027';

/**
 * PRC public holidays as product data (节假日), inserted once per installation by ensureDefaultHolidays.
 *
 * 2026: the State Council's notice (国办发明电, 2025-11-04), with its days off and the weekend days worked (调休).
 * 2027: only the statutory days themselves (全国年节及纪念日放假办法), whose dates are certain: the State Council
 * had not published the 2027 arrangement (its bridging days and 调休 workdays) when this was written, and the 2027
 * Spring Festival falls on a new moon too close to midnight to be sure of the day, so 春节 2027 and the 调休 days
 * are left to the admin to enter from the notice (系统参数 → 节假日, 批量添加).
 */
export const PRC_HOLIDAYS: readonly HolidayInput[] = [
  { day: '2026-01-01', name: '元旦', workday: false },
  { day: '2026-01-02', name: '元旦', workday: false },
  { day: '2026-01-03', name: '元旦', workday: false },
  { day: '2026-01-04', name: '元旦调休上班', workday: true },
  { day: '2026-02-14', name: '春节调休上班', workday: true },
  { day: '2026-02-15', name: '春节', workday: false },
  { day: '2026-02-16', name: '春节', workday: false },
  { day: '2026-02-17', name: '春节', workday: false },
  { day: '2026-02-18', name: '春节', workday: false },
  { day: '2026-02-19', name: '春节', workday: false },
  { day: '2026-02-20', name: '春节', workday: false },
  { day: '2026-02-21', name: '春节', workday: false },
  { day: '2026-02-22', name: '春节', workday: false },
  { day: '2026-02-23', name: '春节', workday: false },
  { day: '2026-02-28', name: '春节调休上班', workday: true },
  { day: '2026-04-04', name: '清明节', workday: false },
  { day: '2026-04-05', name: '清明节', workday: false },
  { day: '2026-04-06', name: '清明节', workday: false },
  { day: '2026-05-01', name: '劳动节', workday: false },
  { day: '2026-05-02', name: '劳动节', workday: false },
  { day: '2026-05-03', name: '劳动节', workday: false },
  { day: '2026-05-04', name: '劳动节', workday: false },
  { day: '2026-05-05', name: '劳动节', workday: false },
  { day: '2026-05-09', name: '劳动节调休上班', workday: true },
  { day: '2026-06-19', name: '端午节', workday: false },
  { day: '2026-06-20', name: '端午节', workday: false },
  { day: '2026-06-21', name: '端午节', workday: false },
  { day: '2026-09-20', name: '国庆节调休上班', workday: true },
  { day: '2026-09-25', name: '中秋节', workday: false },
  { day: '2026-09-26', name: '中秋节', workday: false },
  { day: '2026-09-27', name: '中秋节', workday: false },
  { day: '2026-10-01', name: '国庆节', workday: false },
  { day: '2026-10-02', name: '国庆节', workday: false },
  { day: '2026-10-03', name: '国庆节', workday: false },
  { day: '2026-10-04', name: '国庆节', workday: false },
  { day: '2026-10-05', name: '国庆节', workday: false },
  { day: '2026-10-06', name: '国庆节', workday: false },
  { day: '2026-10-07', name: '国庆节', workday: false },
  { day: '2026-10-10', name: '国庆节调休上班', workday: true },
  { day: '2027-01-01', name: '元旦', workday: false },
  { day: '2027-04-05', name: '清明节', workday: false },
  { day: '2027-05-01', name: '劳动节', workday: false },
  { day: '2027-05-02', name: '劳动节', workday: false },
  { day: '2027-06-09', name: '端午节', workday: false },
  { day: '2027-09-15', name: '中秋节', workday: false },
  { day: '2027-10-01', name: '国庆节', workday: false },
  { day: '2027-10-02', name: '国庆节', workday: false },
  { day: '2027-10-03', name: '国庆节', workday: false },
];
