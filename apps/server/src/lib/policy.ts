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

/** Whether the actor's role holds a grant ('menuItem' or 'menuItem.action'): the grants the server enforces per route. */
export type Grant = string | readonly string[];
export type GrantCheck = (check: string) => boolean;

/** One verdict: the rule to ask, whether the object's state admits the move, and the object when not the shared one. */
export interface Verdict<RuleName extends string> {
  rule: RuleName;
  when?: boolean;
  on?: unknown;
}

export interface Policy<R extends Record<string, Rule>> {
  /** The route grant (menu item and action) an action needs besides its rule, when it needs one. */
  grantOf(action: keyof R & string): Grant | undefined;
  /**
   * The page's verdicts (outline's serialized policies): for each name, whether the actor's role holds the action's
   * grant and the rule allows it on this object, and the object's state admits the move (`when`, default true).
   * The page shows exactly these buttons; the routes check the same grant and rule again.
   */
  verdicts<V extends string>(actor: Actor, held: GrantCheck, object: unknown, actions: Record<V, Verdict<keyof R & string>>): Record<V, boolean>;
  /** Throws unless the actor may; returns what the rule returns (e.g. the actor's own enterprise id). */
  can<A extends keyof R & string>(actor: Actor, action: A, ...object: ObjectArgs<R[A]>): ReturnType<R[A]>;
  /** The same rule as a yes/no, for reads that show less instead of refusing. */
  allows<A extends keyof R & string>(actor: Actor | null, action: A, ...object: ObjectArgs<R[A]>): boolean;
}

export function definePolicy<R extends Record<string, Rule>>(rules: R, grants: Partial<Record<keyof R & string, Grant>> = {}): Policy<R> {
  const allows = (actor: Actor, action: keyof R & string, object: unknown) => {
    try {
      (rules[action] as (actor: Actor, object: unknown) => unknown)(actor, object);
      return true;
    } catch {
      return false;
    }
  };
  return {
    grantOf: (action) => grants[action],
    verdicts(actor, held, object, actions) {
      const entries = Object.entries(actions) as [string, Verdict<keyof R & string>][];
      return Object.fromEntries(
        entries.map(([name, { rule, when = true, on = object }]) => {
          const grant = grants[rule];
          return [name, when && holds(held, grant) && allows(actor, rule, on)];
        }),
      ) as Record<(typeof entries)[number][0], boolean> as never;
    },
    can(actor, action, ...object) {
      return (rules[action] as (actor: Actor, object: unknown) => ReturnType<R[typeof action]>)(actor, object[0]);
    },
    allows(actor, action, ...object) {
      return actor !== null && allows(actor, action, object[0]);
    },
  };
}

/** A grant is held when the role holds it, or one of a list (as the route's `config.permission`); none needed: held. */
function holds(held: GrantCheck, grant: Grant | undefined): boolean {
  if (grant === undefined) return true;
  return typeof grant === 'string' ? held(grant) : grant.some(held);
}

/** The names of the allowed verdicts, in their declared order (the `actions` lists of list rows). */
export function allowedActions<V extends string>(verdicts: Record<V, boolean>): V[] {
  return (Object.keys(verdicts) as V[]).filter((name) => verdicts[name]);
}

/** Throws 403 unless the actor holds one of the roles (for use inside policy rules). */
export function requireRole(actor: Actor, roles: readonly RoleCode[], message?: string): void {
  if (!roles.includes(actor.role)) throw forbidden(message);
}

/** True when the actor acts for the platform (operator or admin) rather than an enterprise. */
export function isPlatformStaff(actor: Actor): boolean {
  return PLATFORM_ROLES.includes(actor.role);
}
