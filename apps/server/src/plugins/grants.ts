import { API_PREFIX } from '@coalx/shared';
import fp from 'fastify-plugin';
import { forbidden, notSignedIn } from '../errors';
import { eventBusOf } from '../lib/events';
import type { Grant } from '../lib/policy';
import { grantsOf } from '../modules/auth/grants.service';

/**
 * Grants the server enforces (issue 27 item 1). Every API route declares in its config what it needs:
 *  - `'public'`: visitors may call it (a valid token still makes the actor known);
 *  - `'self'`: any signed-in user, about their own account (sign-out, own password, own profile);
 *  - a grant: the menu item and action the actor's role must hold (`'contract-sign.edit'`), or a list of which any
 *    one will do. A read may name the bare menu item (`'contract-list'`); a write always names an action.
 * The check runs in onRequest, right after authentication and before the body is parsed or validated, so a role
 * without the action gets 403 whatever it sends and learns nothing of the body's rules. A route without a
 * declaration stops the server at start-up; the declaration is in the OpenAPI document as `x-permission`.
 *
 * Grants live in memory: one small table read whole. They are reloaded
 *  - in the process that changed a role, right after its transaction commits (roles-admin.service calls
 *    `grantsOf(db).reload()` before answering, so the admin's next request already sees the change), and
 *  - in every process on the `role.grants_changed` event, which travels through PostgreSQL NOTIFY
 *    (lib/events.ts CROSS_PROCESS_EVENTS), so the other servers of one database follow within moments.
 * No time-based expiry: nothing else writes sys_role_permission while the server runs (the seed runs before start).
 */

export type RoutePermission = 'public' | 'self' | Grant;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the actor needs: `'public'`, `'self'`, or the menu item and action (`'listingTrade-deal.export'`); a list means any of them. */
    permission?: RoutePermission;
  }
  interface FastifyInstance {
    /** Every API route with what it declared, in registration order: the route-table tests walk it. */
    routeGrants: RouteGrant[];
  }
}

export interface RouteGrant {
  method: string;
  url: string;
  permission: RoutePermission;
}

export const GRANTS_VERSION_HEADER = 'x-grants-version';

/** The API routes that must declare a grant: everything under the API prefix but the API documentation. */
export function isApiRoute(url: string): boolean {
  return url.startsWith(API_PREFIX) && !url.startsWith(`${API_PREFIX}/docs`);
}

/** Reads change nothing: GET and HEAD. Everything else is a write and must name an action. */
export function isWriteMethod(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** The grant checks a declaration asks, or null for `public` and `self` (authentication alone decides). */
export function grantChecks(permission: RoutePermission): readonly string[] | null {
  if (permission === 'public' || permission === 'self') return null;
  return typeof permission === 'string' ? [permission] : permission;
}

export default fp(async (app) => {
  const grants = grantsOf(app.db);
  const stop = eventBusOf(app.db).on('role.grants_changed', () => grants.reload());
  app.addHook('onClose', async () => stop());

  const routeGrants: RouteGrant[] = [];
  app.decorate('routeGrants', routeGrants);
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const permission = route.config?.permission;
    if (permission === undefined) throw new Error(`route ${[route.method].flat().join(',')} ${route.url} declares no permission (public, self or a grant)`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeGrants.push({ method, url: route.url, permission });
  });

  // onRequest, after authenticate's: before the body is parsed, so a refused call never reaches validation
  app.addHook('onRequest', async (request, reply) => {
    const permission = request.routeOptions.config?.permission;
    const actor = request.actor;
    if (actor) reply.header(GRANTS_VERSION_HEADER, await grants.version(actor.roleId));
    if (permission === undefined || permission === 'public') return;
    if (!actor) throw notSignedIn();
    const checks = grantChecks(permission);
    if (!checks) return;
    for (const check of checks) if (await grants.allows(actor.roleId, check)) return;
    throw forbidden(grants.refusalMessage(checks[0]!));
  });
});
