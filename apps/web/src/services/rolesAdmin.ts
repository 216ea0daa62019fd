import type { RoleAddInput, RoleCode, RoleCopyInput, RoleDetail, RoleEditInput, RoleMenuNode, RoleRecord } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** 角色管理 calls (apps/server/src/modules/auth/roles-admin.routes.ts is the contract). */

export type { RoleDetail, RoleMenuNode, RoleRecord };

export function listRoles(): Promise<RoleRecord[]> {
  return requestResult<RoleRecord[]>('/sys/role/list');
}

export function getRoleDetail(id: number): Promise<RoleDetail> {
  return requestResult<RoleDetail>('/sys/role/detail', { params: { id } });
}

/** The menu items and actions a role of the base may be granted. */
export function getRoleMenuTree(baseRole: RoleCode): Promise<RoleMenuNode[]> {
  return requestResult<RoleMenuNode[]>('/sys/role/menuTree', { params: { baseRole } });
}

export function addRole(data: RoleAddInput): Promise<RoleDetail> {
  return requestResult<RoleDetail>('/sys/role/add', { method: 'POST', data });
}

export function copyRole(data: RoleCopyInput): Promise<RoleDetail> {
  return requestResult<RoleDetail>('/sys/role/copy', { method: 'POST', data });
}

export function editRole(data: RoleEditInput): Promise<RoleDetail> {
  return requestResult<RoleDetail>('/sys/role/edit', { method: 'PUT', data });
}

export function deleteRole(id: number): Promise<null> {
  return requestResult<null>('/sys/role/delete', { method: 'POST', data: { id } });
}
