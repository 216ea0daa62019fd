import { API_PREFIX } from '@coalx/shared';
import fp from 'fastify-plugin';
import { appError, notSignedIn, tokenInvalid } from '../errors';
import type { Actor } from '../lib/actor';
import { isFileRoute, type FileLinkQuery } from '../lib/file-links';
import { resolveSession, resolveSessionById } from '../modules/auth/session.service';
import { authCacheOf } from '../modules/auth/session-cache';
import { peersOf } from '../lib/peers';

export type { Actor } from '../lib/actor';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export const TOKEN_HEADER = 'x-access-token';

/**
 * The token comes in the header only, never in an address (issue 27 item 9: addresses end up in the history, proxy
 * logs and Referer headers). What cannot send a header has its own way: an <img src> or a download link of a private
 * file uses a short-lived signed link (lib/file-links.ts, below), the live auction socket sends the token in its
 * first message (api/auction.routes.ts).
 */
function readToken(request: import('fastify').FastifyRequest): string | null {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header.trim()) return header.trim();
  return null;
}

/** The actor of a signed file link on a file route, or null when the request carries none; refused when it is bad. */
async function signedLinkActor(app: import('fastify').FastifyInstance, request: import('fastify').FastifyRequest): Promise<Actor | null> {
  const query = request.query as FileLinkQuery | undefined;
  if (query?.signature === undefined || !isFileRoute(request.routeOptions.url ?? '')) return null;
  const pathname = request.url.split('?', 1)[0]!;
  const link = app.fileLinks.check(pathname, query, app.clock.now());
  if (!link.ok) throw appError('file_link_refused', link.reason === 'expired' ? '文件链接已过期，请返回页面重新打开' : undefined);
  const actor = await resolveSessionById(app.db, app.clock, link.sessionId);
  if (!actor || actor.userId !== link.userId) throw appError('file_link_refused', '文件链接已失效，请重新登录后打开');
  return actor;
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
      const linked = await signedLinkActor(app, request);
      if (linked) {
        request.actor = linked;
        return;
      }
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
