import { z } from 'zod';
import { safeString } from '../text';
import { SYSTEM_PARAMETER_CODES, type SystemParameterCode } from './parameters';

/** System switches (spec §4): '1' on, '0' off. */
export const SWITCH_CODES = { PayPassword: '支付密码', UkeySwitch: 'UKey 签章' } as const;
export type SwitchCode = keyof typeof SWITCH_CODES;
/**
 * What a fresh installation starts with: money moves only with the enterprise's pay password; the key-device
 * signature is the centre's choice (it needs every trader to hold a certificate first). Inserted once, never
 * overwritten: the admin's later choice in 系统开关 stays.
 */
export const SWITCH_DEFAULTS: Record<SwitchCode, '0' | '1'> = { PayPassword: '1', UkeySwitch: '0' };

export const SwitchSchema = z.object({ code: safeString(), content: z.enum(['0', '1']), remark: safeString() });
export type SystemSwitch = z.infer<typeof SwitchSchema>;

/** The process is alive (liveness): answered without the database, which it reports as it finds it. */
export const HealthSchema = z.object({ status: z.literal('ok'), database: z.enum(['ok', 'unavailable']), time: safeString() });

/** The process can serve (readiness): what a load balancer asks before sending it requests. */
export const ReadySchema = z.object({
  status: z.literal('ready'),
  checks: z.object({ database: z.boolean(), migrations: z.boolean(), notifications: z.boolean(), draining: z.boolean() }),
});

/* 数据字典 (admin): items of every dictionary with their order, state and how many records hold them. */

const dictCode = safeString({ error: '请选择数据字典' }).trim().regex(/^[a-z][a-z0-9_]{1,39}$/, '数据字典编码不正确');
const dictValue = safeString({ error: '请输入字典值' })
  .trim()
  .min(1, '请输入字典值')
  .max(32, '字典值不超过 32 个字符')
  .regex(/^[A-Za-z0-9_-]+$/, '字典值只能包含字母、数字、下划线或连字符');
const dictText = safeString({ error: '请输入显示文字' }).trim().min(1, '请输入显示文字').max(20, '显示文字不超过 20 字');
const dictSort = z
  .number({ error: '排序须为 0 至 999 的整数' })
  .min(0, '排序须为 0 至 999 的整数')
  .max(999, '排序须为 0 至 999 的整数')
  .int('排序须为 0 至 999 的整数');

export const DictAdminItemSchema = z.object({
  value: safeString(),
  text: safeString(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** records that hold this value (0 when the dictionary is not stored by any record) */
  inUse: z.number().int(),
});
export type DictAdminItem = z.infer<typeof DictAdminItemSchema>;

export const DictAdminDictionarySchema = z.object({
  code: safeString(),
  name: safeString(),
  /** where records hold its values, e.g. '挂牌、竞价、成交记录'; empty when none does */
  usedBy: safeString(),
  items: z.array(DictAdminItemSchema),
});
export type DictAdminDictionary = z.infer<typeof DictAdminDictionarySchema>;

export const DictAdminListSchema = z.object({ version: z.number().int(), dictionaries: z.array(DictAdminDictionarySchema) });
export type DictAdminList = z.infer<typeof DictAdminListSchema>;

export const DictItemAddSchema = z.object({ dictCode, value: dictValue, text: dictText, sort: dictSort });
export type DictItemAddInput = z.infer<typeof DictItemAddSchema>;

/** The value names records, so it is never edited: only its text, order and state. */
export const DictItemEditSchema = z.object({ dictCode, value: dictValue, text: dictText, sort: dictSort, enabled: z.boolean({ error: '请选择是否启用' }) });
export type DictItemEditInput = z.infer<typeof DictItemEditSchema>;

export const DictItemKeySchema = z.object({ dictCode, value: dictValue });
export type DictItemKey = z.infer<typeof DictItemKeySchema>;

/* 系统参数 (spec §7 "common param") */

export const SystemParameterSchema = z.object({
  code: safeString(),
  label: safeString(),
  group: safeString(),
  unit: safeString(),
  kind: z.enum(['integer', 'decimal', 'fen']),
  decimals: z.number().int(),
  value: z.number(),
  default: z.number(),
  min: z.number(),
  max: z.number(),
  remark: safeString(),
  /** set by the admin (false: the default applies) */
  customized: z.boolean(),
  updatedAt: safeString().nullable(),
});
export type SystemParameter = z.infer<typeof SystemParameterSchema>;

export const SystemParameterUpdateSchema = z.object({
  code: z.enum(SYSTEM_PARAMETER_CODES as [SystemParameterCode, ...SystemParameterCode[]], { error: '参数不存在' }),
  // the range of each parameter is checked by the server against its definition (parameterValueProblem)
  value: z.number({ error: '请输入参数值' }),
});
export type SystemParameterUpdateInput = z.infer<typeof SystemParameterUpdateSchema>;

export const CommonParamQuerySchema = z.object({
  codes: safeString({ error: '请指定参数' }).trim().min(1, '请指定参数').max(500, '参数过多'),
});
/** code → value of the public parameters asked for */
export const CommonParamResultSchema = z.record(safeString(), z.number());

/* 节假日 (sys_holiday): days off and the weekend days worked instead (调休) */

const holidayDay = safeString({ error: '请选择日期' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式须为 YYYY-MM-DD')
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
  }, '日期不存在')
  .refine((day) => day >= '2000-01-01' && day <= '2099-12-31', '日期须在 2000 至 2099 年之间');

export const HolidaySchema = z.object({ day: safeString(), name: safeString(), workday: z.boolean() });
export type Holiday = z.infer<typeof HolidaySchema>;

export const HolidayInputSchema = z.object({
  day: holidayDay,
  name: safeString({ error: '请输入名称' }).trim().min(1, '请输入名称').max(20, '名称不超过 20 字'),
  workday: z.boolean({ error: '请选择放假或调休上班' }),
});
export type HolidayInput = z.infer<typeof HolidayInputSchema>;

export const HolidayBatchSchema = z.object({
  items: z.array(HolidayInputSchema, { error: '请填写节假日' }).min(1, '请至少填写一天').max(120, '一次最多添加 120 天'),
});
export type HolidayBatchInput = z.infer<typeof HolidayBatchSchema>;

export const HolidayYearQuerySchema = z.object({
  year: z.coerce.number({ error: '请选择年份' }).min(2000, '年份须在 2000 至 2099 之间').max(2099, '年份须在 2000 至 2099 之间').int('年份须为整数'),
});

export const HolidayDayKeySchema = z.object({ day: holidayDay });
