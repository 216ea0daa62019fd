import type { z } from 'zod';
import type {
  InitialPasswordResult,
  RoleOption,
  SessionsEndedSchema,
  StaffCreateInput,
  UserAdminPageSchema,
  UserAdminQuery,
  UserAdminRow,
  UserSession,
} from '@coalx/shared';
import { requestResult } from '@/app/request';

/** 用户管理 calls (apps/server/src/modules/auth/users-admin.routes.ts is the contract). */

export type { InitialPasswordResult, RoleOption, StaffCreateInput, UserAdminRow, UserSession };
export type UserAdminPage = z.infer<typeof UserAdminPageSchema>;
export type UserAdminFilters = Partial<Omit<UserAdminQuery, 'pageNo' | 'pageSize'>>;

const BASE = '/sys/user/admin';

export const listUsers = (params: UserAdminFilters & { pageNo: number; pageSize: number }) =>
  requestResult<UserAdminPage>(`${BASE}/list`, { params: { ...params } });

export const listRoleOptions = () => requestResult<RoleOption[]>(`${BASE}/roles`);

export const createStaff = (data: StaffCreateInput) => requestResult<InitialPasswordResult>(`${BASE}/add`, { method: 'POST', data });

export const setUserDisabled = (id: number, disabled: boolean) =>
  requestResult<null>(`${BASE}/${id}/disabled`, { method: 'PUT', data: { disabled } });

export const unlockUser = (id: number) => requestResult<null>(`${BASE}/${id}/unlock`, { method: 'POST' });

export const resetUserPassword = (id: number) => requestResult<InitialPasswordResult>(`${BASE}/${id}/resetPassword`, { method: 'POST' });

export const changeUserRole = (id: number, roleId: number) => requestResult<null>(`${BASE}/${id}/role`, { method: 'PUT', data: { roleId } });

export const listUserSessions = (id: number) => requestResult<UserSession[]>(`${BASE}/${id}/sessions`);

export const endUserSession = (id: number, sessionId: number) =>
  requestResult<null>(`${BASE}/${id}/sessions/${sessionId}`, { method: 'DELETE' });

export const endAllUserSessions = (id: number) =>
  requestResult<z.infer<typeof SessionsEndedSchema>>(`${BASE}/${id}/sessions`, { method: 'DELETE' });
