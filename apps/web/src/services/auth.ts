import type { LoginInput, LoginResult, UpdatePasswordInput, UserInfo, UserPermission } from '@coalx/shared';
import { request, requestResult } from '@/app/request';

export function login(data: LoginInput): Promise<LoginResult> {
  return requestResult<LoginResult>('/sys/login', { method: 'POST', data });
}

/** Logout; errors go to the caller (a 500 reloads the page, spec §4). */
export function logout() {
  return request<null>('/sys/logout', { skipErrorHandler: true });
}

export function getUserInfo(): Promise<UserInfo> {
  return requestResult<UserInfo>('/sys/user/info');
}

export function getUserPermission(): Promise<UserPermission> {
  return requestResult<UserPermission>('/sys/permission/getUserPermissionByToken');
}

export function updatePassword(data: UpdatePasswordInput) {
  return requestResult<unknown>('/sys/user/updatePassword', { method: 'PUT', data });
}
