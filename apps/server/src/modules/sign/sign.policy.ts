import { forbidden } from '../../errors';
import { TRADING_ROLES, type Actor } from '../../lib/actor';
import { definePolicy, requireRole } from '../../lib/policy';

export type EnterpriseActor = Actor & { enterpriseId: number };

function enterpriseUser(actor: Actor, message: string): EnterpriseActor {
  requireRole(actor, TRADING_ROLES, message);
  if (actor.enterpriseId === null) throw forbidden(message);
  return actor as EnterpriseActor;
}

/** Who may sign and see signed documents: enterprise users, each for their own enterprise and key device. */
export const signPolicy = definePolicy({
  /** signs with a key device of the actor's own; whether the device may sign is the certificate authority's check */
  sign: (actor: Actor) => enterpriseUser(actor, '只有企业用户可以签章'),
  listOwn: (actor: Actor) => enterpriseUser(actor, '只有企业用户可以查看本企业的签章记录'),
  /** a signing session is completed only by the user who opened it */
  completeSession(actor: Actor, session: { userId: number; enterpriseId: number }) {
    if (session.userId !== actor.userId || session.enterpriseId !== actor.enterpriseId) throw forbidden('不能完成他人的签章');
  },
});
