import type { z } from 'zod';
import type { DriverDetail, DriverEditSchema, DriverPage, DriverQuery, DriverRegisterSchema, DriverRejectSchema, DriverSummary } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** Driver calls (apps/server/src/modules/driver/driver.routes.ts is the contract). */

export type { DriverDetail, DriverPage, DriverSummary };
export type DriverRegister = z.input<typeof DriverRegisterSchema>;
export type DriverEdit = z.input<typeof DriverEditSchema>;
export type DriverReject = z.input<typeof DriverRejectSchema>;
/** The list filters (paging added by the call). */
export type DriverFilters = Partial<Omit<DriverQuery, 'pageNo' | 'pageSize'>>;

export const listDrivers = (params: DriverFilters & { pageNo: number; pageSize: number }) =>
  requestResult<DriverPage>('/api/driver/list', { params: { ...params } });

export const getDriver = (id: number) => requestResult<DriverDetail>(`/api/driver/${id}`);

export const registerDriver = (body: DriverRegister) => requestResult<DriverDetail>('/api/driver', { method: 'POST', data: body });

export const editDriver = (id: number, body: DriverEdit) => requestResult<DriverDetail>(`/api/driver/${id}`, { method: 'PUT', data: body });

export const disableDriver = (id: number) => requestResult<DriverDetail>(`/api/driver/${id}/disable`, { method: 'POST' });

export const resubmitDriver = (id: number) => requestResult<DriverDetail>(`/api/driver/${id}/resubmit`, { method: 'POST' });

export const approveDriver = (id: number) => requestResult<DriverDetail>(`/api/driver/${id}/approve`, { method: 'POST' });

export const rejectDriver = (id: number, body: DriverReject) => requestResult<DriverDetail>(`/api/driver/${id}/reject`, { method: 'POST', data: body });
