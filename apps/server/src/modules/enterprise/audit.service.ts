import { canTransition, ChangeRequestStates, EnterpriseAuditStates, refusedMoveMessage } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { enterpriseChangeRequests, enterprises } from '../../db/schema/index';
import { appError, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { transition } from '../../lib/transition';
import { enterpriseConflict, PLATFORM_AUDIT_STATUS, saveAttachments } from './enterprise.service';

/** The trading centre's audit of registrations and of changes to the legal data: the enterprise's own writes. */

/**
 * 企业审核: the operator approves or rejects a registration (of two operators deciding at once only the first counts).
 * Letting the registrant in is the flow's part (flows/audit-registration.ts).
 */
export async function decideRegistration(tx: Tx, id: number, to: 'approved' | 'rejected', reason: string | null, now: Date) {
  const [e] = await tx.select().from(enterprises).where(eq(enterprises.id, id)).limit(1);
  if (!e || e.auditStatus === PLATFORM_AUDIT_STATUS) throw notFound('企业不存在');
  await transition(tx, EnterpriseAuditStates, to === 'approved' ? 'approve' : 'reject', {
    table: enterprises,
    where: eq(enterprises.id, id),
    set: { auditReason: reason, auditedAt: now, updatedAt: now },
    refusal: 'audit_state',
  });
}

/** 变更审核: an approved change rewrites the legal data at once; returns the change request's id. */
async function decideChange(db: Db, clock: Clock, reviewerId: number, id: number, to: 'approved' | 'rejected', reason: string | null): Promise<number> {
  const [change] = await db.select().from(enterpriseChangeRequests).where(eq(enterpriseChangeRequests.id, id)).limit(1);
  if (!change) throw notFound('变更申请不存在');
  if (!canTransition(ChangeRequestStates, change.status, to)) throw appError('audit_state', refusedMoveMessage(ChangeRequestStates, change.status, to));
  try {
    await db.transaction(async (tx) => {
      const now = clock.now();
      await transition(tx, ChangeRequestStates, to === 'approved' ? 'approve' : 'reject', {
        table: enterpriseChangeRequests,
        where: eq(enterpriseChangeRequests.id, id),
        set: { reason, reviewedBy: reviewerId, reviewedAt: now, updatedAt: now },
        refusal: 'audit_state',
      });
      if (to !== 'approved') return;
      await tx
        .update(enterprises)
        .set({
          organName: change.organName,
          creditCode: change.creditCode,
          legalPerson: change.legalPerson,
          bankName: change.bankName,
          bankBranch: change.bankBranch,
          bankAccountNo: change.bankAccountNo,
          auditedAt: now,
          updatedAt: now,
        })
        .where(eq(enterprises.id, change.enterpriseId));
      if (change.licenceFileId) await saveAttachments(tx, clock, change.enterpriseId, [{ kind: 'licence', fileId: change.licenceFileId }]);
    });
  } catch (err) {
    // the new name or code was registered by another enterprise after the application
    enterpriseConflict(err);
  }
  return id;
}

export const approveChange = (db: Db, clock: Clock, reviewerId: number, id: number) => decideChange(db, clock, reviewerId, id, 'approved', null);

export const rejectChange = (db: Db, clock: Clock, reviewerId: number, id: number, reason: string) =>
  decideChange(db, clock, reviewerId, id, 'rejected', reason);
