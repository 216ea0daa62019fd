import type { RoleCode } from '@coalx/shared';

/**
 * Who is acting: every service call is made with this, so every query can be filtered by owner. Its own module, so
 * the authentication plugin and the session service both use it without importing each other.
 */
export interface Actor {
  userId: number;
  username: string;
  /**
   * The BASE role (trader, enterprise_admin, operator, admin): what every policy compares. A custom role based on
   * trader is a trader here; what it may open and do beyond that is its grants, named by `roleId`.
   */
  role: RoleCode;
  /**
   * The sys_role row whose grants apply (plugins/grants.ts). Every session's actor has it; actors the server makes
   * for itself (demo data, jobs) have none and never pass the grants check, which only runs on requests.
   */
  roleId?: number;
  enterpriseId: number | null;
  sessionId: number;
  /** Signed in with an initial password not yet changed (plugins/first-login.ts). */
  mustChangePassword?: boolean;
}

export const TRADING_ROLES: readonly RoleCode[] = ['trader', 'enterprise_admin'];
export const PLATFORM_ROLES: readonly RoleCode[] = ['operator', 'admin'];
