import type { RoleCode } from '@coalx/shared';

/**
 * Who is acting: every service call is made with this, so every query can be filtered by owner. Its own module, so
 * the authentication plugin and the session service both use it without importing each other.
 */
export interface Actor {
  userId: number;
  username: string;
  role: RoleCode;
  enterpriseId: number | null;
  sessionId: number;
}

export const TRADING_ROLES: readonly RoleCode[] = ['trader', 'enterprise_admin'];
export const PLATFORM_ROLES: readonly RoleCode[] = ['operator', 'admin'];
