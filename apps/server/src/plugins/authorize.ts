import type { RoleCode } from '@coalx/shared';
import { forbidden } from '../errors';
import type { Actor } from './authenticate';

export const TRADING_ROLES: RoleCode[] = ['trader', 'enterprise_admin'];
export const PLATFORM_ROLES: RoleCode[] = ['operator', 'admin'];

/** Throws 403 unless the actor holds one of the roles. */
export function requireRole(actor: Actor, roles: RoleCode[], message?: string): void {
  if (!roles.includes(actor.role)) throw forbidden(message);
}

/** True when the actor acts for the platform (operator or admin) rather than an enterprise. */
export function isPlatformStaff(actor: Actor): boolean {
  return PLATFORM_ROLES.includes(actor.role);
}
