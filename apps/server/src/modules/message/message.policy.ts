import type { Actor } from '../../lib/actor';
import { definePolicy } from '../../lib/policy';

/**
 * Messages belong to one user: every query is filtered by the reader's own id, so there is nothing another user's
 * id could open. The rule is the signed-in reader itself (plugins/grants.ts's `self`).
 */
export const messagePolicy = definePolicy({
  readOwn(actor: Actor) {
    return actor.userId;
  },
  editOwnSettings(actor: Actor) {
    return actor.userId;
  },
});
