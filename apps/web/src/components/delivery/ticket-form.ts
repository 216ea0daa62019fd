import type { FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { kgToTonsText, tonsTextToKg, type WeighTicketInput } from '@coalx/shared';

/** A weigh ticket as typed: tons as text (up to 3 places), the time, the photo's key. */
export interface TicketFormValues {
  ticketNo: string;
  gross: string;
  tare: string;
  net: string;
  weighedAt: Dayjs | string;
  photo: string;
}

/** A weight field's rule: tons above 0 with at most 3 places. */
export const tonsRule = (label: string) => ({
  validator: async (_: unknown, value: string) => {
    if (!value) throw new Error(`请输入${label}`);
    const kg = tonsTextToKg(value);
    if (kg === null || kg <= 0) throw new Error(`${label}须为大于 0 的吨数，最多 3 位小数`);
  },
});

/** Fills the net from gross − tare once both are typed (on leaving either field). */
export function fillNet(form: FormInstance) {
  const gross = tonsTextToKg(form.getFieldValue('gross'));
  const tare = tonsTextToKg(form.getFieldValue('tare'));
  if (gross !== null && tare !== null && gross > tare) form.setFieldValue('net', kgToTonsText(gross - tare));
}

/** The ticket the server takes, in kilograms, from what was typed (the rules above have passed). */
export function ticketFromForm(values: TicketFormValues): WeighTicketInput {
  return {
    ticketNo: values.ticketNo.trim(),
    grossKg: tonsTextToKg(values.gross)!,
    tareKg: tonsTextToKg(values.tare)!,
    netKg: tonsTextToKg(values.net)!,
    weighedAt: dayjs(values.weighedAt).format(),
    photo: values.photo,
  };
}
