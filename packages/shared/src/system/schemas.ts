import { z } from 'zod';

/** System switches (spec §4): '1' on, '0' off. */
export const SWITCH_CODES = { PayPassword: '支付密码', UkeySwitch: 'UKey 签章' } as const;
export type SwitchCode = keyof typeof SWITCH_CODES;

export const SwitchSchema = z.object({ code: z.string(), content: z.enum(['0', '1']), remark: z.string() });
export type SystemSwitch = z.infer<typeof SwitchSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), time: z.string() });
