import { z } from 'zod';
import { safeString } from '../text';

/** System switches (spec §4): '1' on, '0' off. */
export const SWITCH_CODES = { PayPassword: '支付密码', UkeySwitch: 'UKey 签章' } as const;
export type SwitchCode = keyof typeof SWITCH_CODES;

export const SwitchSchema = z.object({ code: safeString(), content: z.enum(['0', '1']), remark: safeString() });
export type SystemSwitch = z.infer<typeof SwitchSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), time: safeString() });
