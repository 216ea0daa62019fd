import type { EnterpriseDetail } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { registrantOf, requireFirstLoginPasswordChange } from '../modules/auth/accounts.service';
import { decideRegistration } from '../modules/enterprise/audit.service';
import { getEnterpriseDetail } from '../queries/enterprise-detail';

/** 企业审核: approving a registration lets its registrant in (a new password at the first sign-in); rejecting tells why. */
async function decide(db: Db, clock: Clock, id: number, to: 'approved' | 'rejected', reason: string | null): Promise<EnterpriseDetail> {
  await db.transaction(async (tx) => {
    await decideRegistration(tx, id, to, reason, clock.now());
    if (to !== 'approved') return;
    const registrant = await registrantOf(tx, id);
    if (registrant) await requireFirstLoginPasswordChange(tx, registrant.id);
  });
  return getEnterpriseDetail(db, id);
}

export const approveEnterprise = (db: Db, clock: Clock, id: number) => decide(db, clock, id, 'approved', null);

export const rejectEnterprise = (db: Db, clock: Clock, id: number, reason: string) => decide(db, clock, id, 'rejected', reason);
