import type { ChangeRequest, EnterpriseDetail } from '@coalx/shared';
import { formatDateTime } from '@coalx/shared';
import { and, count, desc, eq, ilike, ne, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enterpriseChangeRequests, enterprises } from '../db/schema/index';
import { notFound } from '../errors';
import { accountNames, registrantOf } from '../modules/auth/accounts.service';
import { listAttachments, PLATFORM_AUDIT_STATUS, type Enterprise } from '../modules/enterprise/enterprise.service';
import { filesByIds } from '../modules/files/files.service';

/**
 * Enterprises as the 企业信息 page and the trading centre's audit queues show them: the enterprise's data with its
 * registrant's and applicants' names from the accounts (a read across the enterprise and auth modules).
 */

export async function presentChange(db: Db, row: typeof enterpriseChangeRequests.$inferSelect, enterpriseName: string): Promise<ChangeRequest> {
  const applicant = await accountNames(db, row.appliedBy);
  const [licence] = row.licenceFileId ? await filesByIds(db, [row.licenceFileId]) : [];
  return {
    id: row.id,
    enterpriseId: row.enterpriseId,
    enterpriseName,
    organName: row.organName,
    creditCode: row.creditCode,
    legalPerson: row.legalPerson,
    bankName: row.bankName,
    bankBranch: row.bankBranch,
    bankAccountNo: row.bankAccountNo,
    licenceUrl: licence?.storageKey ?? null,
    status: row.status,
    reason: row.reason,
    appliedBy: applicant ? `${applicant.realname} (${applicant.username})` : '',
    createdAt: formatDateTime(row.createdAt),
    reviewedAt: row.reviewedAt ? formatDateTime(row.reviewedAt) : null,
  };
}

export async function presentDetail(db: Db, e: Enterprise): Promise<EnterpriseDetail> {
  const registrant = await registrantOf(db, e.id);
  const [pending] = await db
    .select()
    .from(enterpriseChangeRequests)
    .where(and(eq(enterpriseChangeRequests.enterpriseId, e.id), eq(enterpriseChangeRequests.status, 'pending')))
    .limit(1);
  return {
    id: e.id,
    clientId: e.clientId,
    organName: e.organName,
    creditCode: e.creditCode,
    enterpriseType: e.enterpriseType,
    legalPerson: e.legalPerson,
    areaCode: e.areaCode,
    areaName: e.areaName,
    addressDetail: e.addressDetail,
    address: e.address,
    contactName: e.contactName,
    contactMobile: e.contactMobile,
    contactEmail: e.contactEmail,
    bankName: e.bankName,
    bankBranch: e.bankBranch,
    bankAccountNo: e.bankAccountNo,
    auditStatus: e.auditStatus,
    auditReason: e.auditReason,
    auditedAt: e.auditedAt ? formatDateTime(e.auditedAt) : null,
    submittedAt: e.submittedAt ? formatDateTime(e.submittedAt) : null,
    createdAt: formatDateTime(e.createdAt),
    registrant: registrant ? { username: registrant.username, realname: registrant.realname, mobile: registrant.mobile } : null,
    attachments: await listAttachments(db, e.id),
    pendingChange: pending ? await presentChange(db, pending, e.organName) : null,
  };
}

export async function getEnterpriseDetail(db: Db, enterpriseId: number): Promise<EnterpriseDetail> {
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId)).limit(1);
  if (!e) throw notFound('企业不存在');
  return presentDetail(db, e);
}

/** The change request as the audit queue shows it, by id. */
export async function changeRequestView(db: Db, id: number): Promise<ChangeRequest> {
  const [row] = await db
    .select({ change: enterpriseChangeRequests, enterpriseName: enterprises.organName })
    .from(enterpriseChangeRequests)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseChangeRequests.enterpriseId))
    .where(eq(enterpriseChangeRequests.id, id))
    .limit(1);
  if (!row) throw notFound('变更申请不存在');
  return presentChange(db, row.change, row.enterpriseName);
}

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
