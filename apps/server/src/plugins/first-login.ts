import { API_PREFIX } from '@coalx/shared';
import fp from 'fastify-plugin';
import { appError } from '../errors';

/** What a member who signed in with an initial password may still do: read who they are and change it. */
export const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set(
  ['/sys/user/info', '/sys/permission/getUserPermissionByToken', '/sys/dict/getAllDictItems', '/sys/user/updatePassword', '/sys/logout'].map(
    (path) => API_PREFIX + path,
  ),
);

/**
 * First sign-in with an initial password (spec: isFirstLogin '1'): until the password is changed the server, not
 * only the web app, refuses every member action with 403. Visitor routes still answer, as to a visitor, so the
 * public pages keep working while the trader is sent to change the password.
 */
export default fp(async (app) => {
  app.addHook('onRequest', async (request) => {
    const actor = request.actor;
    if (!actor?.mustChangePassword) return;
    if (ALLOWED_BEFORE_PASSWORD_CHANGE.has(request.routeOptions.url ?? '')) return;
    if (request.routeOptions.config?.permission === 'public') {
      request.actor = null;
      return;
    }
    throw appError('password_change_required');
  });
});
