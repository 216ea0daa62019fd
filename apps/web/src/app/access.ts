import { hasPermission, type UserInfo } from '@coalx/shared';
import { session, useSession } from './session';

type Permissions = UserInfo['role']['permissions'];

/** Error of spec §6 when the user info has no role with at least one permission. */
export const ROLES_REQUIRED_MESSAGE = 'getInfo: roles must be a non-null array !';

/** Throws the spec's message unless the user has a role holding at least one permission. */
export function assertRoles(userInfo: UserInfo | null | undefined): asserts userInfo is UserInfo {
  const permissions = userInfo?.role?.permissions;
  if (!Array.isArray(permissions) || permissions.length === 0) throw new Error(ROLES_REQUIRED_MESSAGE);
}

export interface Access {
  /** permissionId → action list (spec §3: actionEntitySet turned into an action list). */
  actionList: Record<string, string[]>;
  /** Public pages: home and the trading hall. */
  canIndex: boolean;
  canListing: boolean;
  canWorkspace: boolean;
  /** 'permissionId' or 'permissionId.action'. */
  has: (check: string) => boolean;
}

export function buildAccess(userInfo: UserInfo | null | undefined): Access {
  const permissions: Permissions = userInfo?.role?.permissions ?? [];
  const actionList = Object.fromEntries(permissions.map((p) => [p.permissionId, p.actionEntitySet.map((a) => a.action)]));
  const has = (check: string) => hasPermission(permissions, check);
  return { actionList, canIndex: has('index'), canListing: has('listing'), canWorkspace: has('workspace'), has };
}

/** `hasAction('permissionId.action')` against the signed-in user's role (spec §6). */
export function hasAction(check: string, userInfo: UserInfo | null | undefined = session.get().userInfo): boolean {
  return hasPermission(userInfo?.role?.permissions ?? [], check);
}

/**
 * Whether an action-guarded element stays (spec §6): it is removed only when the page's permission exists in the
 * role but lacks the action. `check` is 'permissionId.action', or just 'action' to use the current page's permission.
 */
export function isActionAllowed(
  permissions: Permissions | null | undefined,
  check: string,
  pagePermission?: string | null,
): boolean {
  const dot = check.lastIndexOf('.');
  const permissionId = dot < 0 ? pagePermission : check.slice(0, dot);
  const action = dot < 0 ? check : check.slice(dot + 1);
  if (!permissionId) return true;
  const permission = (permissions ?? []).find((p) => p.permissionId === permissionId);
  if (!permission) return true;
  return permission.actionEntitySet.some((a) => a.action === action);
}

export function useAccess(): Access {
  const { userInfo } = useSession();
  return buildAccess(userInfo);
}
