import type { Holiday, HolidayInput, SystemParameter, SystemParameterCode } from '@coalx/shared';
import { request, requestResult } from '@/app/request';

/** 系统参数 and holiday calls (apps/server/src/modules/system/parameters.routes.ts is the contract). */
export const PARAMETERS_QUERY_KEY = ['system', 'parameters'] as const;
export const holidaysQueryKey = (year: number) => ['system', 'holidays', year] as const;

export function listParameters(): Promise<SystemParameter[]> {
  return requestResult('/sys/param/list');
}

/** Answers the whole list again and the message naming the new value. */
export async function updateParameter(code: SystemParameterCode, value: number): Promise<{ list: SystemParameter[]; message: string }> {
  const body = await request<SystemParameter[]>('/sys/param/update', { method: 'PUT', data: { code, value } });
  return { list: body.result, message: body.message };
}

/** The public parameters (spec §7 "common param"), e.g. the reasonable price range: code → value. */
export function commonParams(codes: SystemParameterCode[]): Promise<Record<string, number>> {
  return requestResult('/sys/common/param', { params: { codes: codes.join(',') } });
}

export function listHolidays(year: number): Promise<Holiday[]> {
  return requestResult('/sys/holiday/list', { params: { year } });
}

export async function addHoliday(input: HolidayInput): Promise<string> {
  return (await request<null>('/sys/holiday/add', { method: 'POST', data: input })).message;
}

export async function addHolidays(items: HolidayInput[]): Promise<string> {
  return (await request<null>('/sys/holiday/batchAdd', { method: 'POST', data: { items } })).message;
}

export async function deleteHoliday(day: string): Promise<string> {
  return (await request<null>('/sys/holiday/delete', { method: 'POST', data: { day } })).message;
}
