import { canTransition, ChangeRequestStates, EnterpriseAuditStates, refusedMoveMessage } from '@coalx/shared';
import { and, count, desc, eq, ilike, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enterpriseChangeRequests, enterprises } from '../../db/schema/index';
import { appError, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { transition } from '../../lib/transition';
import { registrantOf, requireFirstLoginPasswordChange } from '../auth/accounts.service';
import { enterpriseConflict, PLATFORM_AUDIT_STATUS, presentChange, presentDetail, saveAttachments } from './enterprise.service';

/** The trading centre's audit of registrations and of changes to the legal data. */

function likePattern(keyword: string) {
  return `%${keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

export async function listForAudit(db: Db, query: { pageNo: number; pageSize: number; auditStatus?: string; keyword?: string }) {
  const where = and(
    // the platform's own funds holder is no registration
    ne(enterprises.auditStatus, PLATFORM_AUDIT_STATUS),
    query.auditStatus ? eq(enterprises.auditStatus, query.auditStatus) : undefined,
    query.keyword ? or(ilike(enterprises.organName, likePattern(query.keyword)), ilike(enterprises.creditCode, likePattern(query.keyword))) : undefined,
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(enterprises).where(where);
  const rows = await db
    .select()
    .from(enterprises)
    .where(where)
    .orderBy(desc(enterprises.submittedAt), desc(enterprises.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const records = [];
  for (const row of rows) records.push(await presentDetail(db, row));
  return { records, total, current: query.pageNo, size: query.pageSize };
}

async function decide(db: Db, clock: Clock, id: number, to: 'approved' | 'rejected', reason: string | null) {
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, id)).limit(1);
  if (!e || e.auditStatus === PLATFORM_AUDIT_STATUS) throw notFound('企业不存在');
  await db.transaction(async (tx) => {
    const now = clock.now();
    // of two operators deciding at once only the first counts
    await transition(tx, EnterpriseAuditStates, to === 'approved' ? 'approve' : 'reject', {
      table: enterprises,
      where: eq(enterprises.id, id),
      set: { auditReason: reason, auditedAt: now, updatedAt: now },
      refusal: 'audit_state',
    });
    if (to === 'approved') {
      const registrant = await registrantOf(tx, id);
      if (registrant) await requireFirstLoginPasswordChange(tx, registrant.id);
    }
  });
  const [after] = await db.select().from(enterprises).where(eq(enterprises.id, id)).limit(1);
  return presentDetail(db, after!);
}

export const approveEnterprise = (db: Db, clock: Clock, id: number) => decide(db, clock, id, 'approved', null);
export const rejectEnterprise = (db: Db, clock: Clock, id: number, reason: string) => decide(db, clock, id, 'rejected', reason);

export async function listChanges(db: Db, query: { pageNo: number; pageSize: number; status?: string }) {
  const where = query.status ? eq(enterpriseChangeRequests.status, query.status) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(enterpriseChangeRequests).where(where);
  const rows = await db
    .select({ change: enterpriseChangeRequests, enterpriseName: enterprises.organName })
    .from(enterpriseChangeRequests)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseChangeRequests.enterpriseId))
    .where(where)
    .orderBy(desc(enterpriseChangeRequests.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const records = [];
  for (const row of rows) records.push(await presentChange(db, row.change, row.enterpriseName));
  return { records, total, current: query.pageNo, size: query.pageSize };
}

async function decideChange(db: Db, clock: Clock, reviewerId: number, id: number, to: 'approved' | 'rejected', reason: string | null) {
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
  const [after] = await db.select().from(enterpriseChangeRequests).where(eq(enterpriseChangeRequests.id, id)).limit(1);
  const [e] = await db.select({ organName: enterprises.organName }).from(enterprises).where(eq(enterprises.id, change.enterpriseId));
  return presentChange(db, after!, e!.organName);
}

export const approveChange = (db: Db, clock: Clock, reviewerId: number, id: number) => decideChange(db, clock, reviewerId, id, 'approved', null);
export const rejectChange = (db: Db, clock: Clock, reviewerId: number, id: number, reason: string) =>
  decideChange(db, clock, reviewerId, id, 'rejected', reason);
