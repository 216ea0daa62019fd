import fp from 'fastify-plugin';
import { forbidden } from '../errors';
import { eventBusOf } from '../lib/events';
import { grantsOf } from '../modules/auth/grants.service';

/**
 * Grants the server enforces (issue 17 item 2). A route names what it needs in its config:
 * `config: { permission: 'auctionTrade' }` (the menu item) or `'financial-payRecord.export'` (item and action), or a
 * list of which any one will do. After authentication, this plugin answers 403 with a Chinese message when the
 * actor's role (actor.roleId, the real role, not the base role the policies compare) lacks it. So removing `export`
 * from a role closes its Excel export at the server, not only its button.
 *
 * Grants live in memory: one small table read whole. They are reloaded
 *  - in the process that changed a role, right after its transaction commits (roles-admin.service calls
 *    `grantsOf(db).reload()` before answering, so the admin's next request already sees the change), and
 *  - in every process on the `role.grants_changed` event, which travels through PostgreSQL NOTIFY
 *    (lib/events.ts CROSS_PROCESS_EVENTS), so the other servers of one database follow within moments.
 * No time-based expiry: nothing else writes sys_role_permission while the server runs (the seed runs before start).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Menu item (`auctionTrade`) or item and action (`listingTrade-deal.export`) the actor's role must hold; a list means any of them. */
    permission?: string | readonly string[];
  }
}

export const GRANTS_VERSION_HEADER = 'x-grants-version';

export default fp(async (app) => {
  const grants = grantsOf(app.db);
  const stop = eventBusOf(app.db).on('role.grants_changed', () => grants.reload());
  app.addHook('onClose', async () => stop());

  // preHandler: after authentication (onRequest) and after the body is validated, so a malformed call is still a 400
  app.addHook('preHandler', async (request, reply) => {
    const actor = request.actor;
    if (!actor) return;
    reply.header(GRANTS_VERSION_HEADER, await grants.version(actor.roleId));
    const required = request.routeOptions.config?.permission;
    if (required === undefined) return;
    const checks = typeof required === 'string' ? [required] : required;
    for (const check of checks) if (await grants.allows(actor.roleId, check)) return;
    throw forbidden(grants.refusalMessage(checks[0]!));
  });
});
