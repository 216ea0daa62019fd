import { API_PREFIX } from '@coalx/shared';
import fp from 'fastify-plugin';
import { notSignedIn, tokenInvalid } from '../errors';
import type { Actor } from '../lib/actor';
import { resolveSession } from '../modules/auth/session.service';
import { authCacheOf } from '../modules/auth/session-cache';
import { peersOf } from '../lib/peers';

export type { Actor } from '../lib/actor';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export const TOKEN_HEADER = 'x-access-token';

function readToken(request: import('fastify').FastifyRequest): string | null {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header.trim()) return header.trim();
  // <img src> of a private file cannot send a header: the static route also accepts ?token=
  const query = request.query as Record<string, unknown> | undefined;
  const url = request.routeOptions.url ?? '';
  // nor can a browser's WebSocket: the live auction socket takes it as ?token= too
  if ((url.startsWith(`${API_PREFIX}/api/common/static`) || url === `${API_PREFIX}/ws/auction`) && typeof query?.token === 'string') {
    return query.token;
  }
  return null;
}

/**
 * Resolves the token of every API request. A route is closed to visitors unless its config says `permission: 'public'`;
 * a public route still sees the actor when a valid token comes along.
 */
export default fp(async (app) => {
  app.decorateRequest('actor', null);
  // sessions live in memory: this process must hear (and acknowledge) every invalidation (lib/peers.ts)
  const peers = peersOf(app.db);
  peers.onWarn = (message) => app.log.warn(message);
  authCacheOf(app.db);
  await peers.start(app.database);
  app.addHook('onClose', async () => peers.stop());
  app.addHook('onRequest', async (request) => {
    // web pages, the API documentation and unknown paths (answered 404 by the not-found handler) need no token
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith(API_PREFIX) || route.startsWith(`${API_PREFIX}/docs`) || request.is404) return;
    const isPublic = request.routeOptions.config?.permission === 'public';
    const token = readToken(request);
    if (!token) {
      if (!isPublic) throw notSignedIn();
      return;
    }
    const actor = await resolveSession(app.db, app.clock, token);
    if (!actor && !isPublic) throw tokenInvalid();
    request.actor = actor;
  });
});

export function requireActor(request: import('fastify').FastifyRequest): Actor {
  if (!request.actor) throw notSignedIn();
  return request.actor;
}
