import type { RoleCode } from '@coalx/shared';
import { forbidden } from '../errors';
import { PLATFORM_ROLES, type Actor } from './actor';

/**
 * Permissions are policies: each module's `<domain>.policy.ts` declares its rules once, and services and routes ask
 * `policy.can(actor, 'action', object)`, which throws the 403 (or the rule's own refusal). No role is compared
 * anywhere else.
 */
type Rule = (actor: Actor, object: never) => unknown;
type ObjectOf<R extends Rule> = Parameters<R>[1];
type ObjectArgs<R extends Rule> = [ObjectOf<R>] extends [never] ? [] : undefined extends ObjectOf<R> ? [object?: ObjectOf<R>] : [object: ObjectOf<R>];

export interface Policy<R extends Record<string, Rule>> {
  /** Throws unless the actor may; returns what the rule returns (e.g. the actor's own enterprise id). */
  can<A extends keyof R & string>(actor: Actor, action: A, ...object: ObjectArgs<R[A]>): ReturnType<R[A]>;
  /** The same rule as a yes/no, for reads that show less instead of refusing. */
  allows<A extends keyof R & string>(actor: Actor | null, action: A, ...object: ObjectArgs<R[A]>): boolean;
}

export function definePolicy<R extends Record<string, Rule>>(rules: R): Policy<R> {
  return {
    can(actor, action, ...object) {
      return (rules[action] as (actor: Actor, object: unknown) => ReturnType<R[typeof action]>)(actor, object[0]);
    },
    allows(actor, action, ...object) {
      if (!actor) return false;
      try {
        (rules[action] as (actor: Actor, object: unknown) => unknown)(actor, object[0]);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Throws 403 unless the actor holds one of the roles (for use inside policy rules). */
export function requireRole(actor: Actor, roles: readonly RoleCode[], message?: string): void {
  if (!roles.includes(actor.role)) throw forbidden(message);
}

/** True when the actor acts for the platform (operator or admin) rather than an enterprise. */
export function isPlatformStaff(actor: Actor): boolean {
  return PLATFORM_ROLES.includes(actor.role);
}
