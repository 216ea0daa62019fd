import { z } from 'zod';
import { safeString } from '../text';

/** Field builders shared by the listing and auction schemas, so both speak to traders in the same words. */
export const textField = (label: string, max: number) =>
  safeString({ error: `请输入${label}` }).trim().min(1, `请输入${label}`).max(max, `${label}不超过 ${max} 字`);
/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused, not rolled over to March). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && year <= 9999 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
export const dayField = (label: string) =>
  safeString({ error: `请选择${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
    .refine(isCalendarDay, `${label}不是有效日期`);
export const instantField = (label: string) => z.iso.datetime({ offset: true, error: `${label}格式不正确` });

export const pageFields = {
  pageNo: z.number().int().min(1).max(100000).default(1),
  pageSize: z.number().int().min(1).max(100).default(10),
};

/** How the goods are priced, moved and delivered: the same for a listing and an auction (DESIGN.md §6). */
export const deliveryFields = {
  priceType: z.enum(['factory_tax', 'pithead', 'delivered'], { error: '请选择价格类型' }),
  transport: z.enum(['road', 'rail', 'water'], { error: '请选择运输方式' }),
  deliveryProvince: textField('交收省份', 30),
  deliveryCity: textField('交收城市', 30),
  deliveryDistrict: safeString().trim().max(30, '交收区县不超过 30 字').default(''),
  deliveryPlace: textField('交收地点', 100),
  deliveryDateStart: dayField('交收开始日期'),
  deliveryDateEnd: dayField('交收结束日期'),
};

export const deliveryViewFields = {
  priceType: safeString(),
  transport: safeString(),
  deliveryProvince: safeString(),
  deliveryCity: safeString(),
  deliveryDistrict: safeString(),
  deliveryPlace: safeString(),
  deliveryDateStart: safeString(),
  deliveryDateEnd: safeString(),
};
