import {
  ChangeRequestStates,
  EnterpriseAuditStates,
  formatDateTime,
  stateLabel,
  TradingSuspensionStates,
  type DirectoryDetail,
  type DirectoryEntry,
  type EnterpriseDirectoryQuery,
  type SuspensionView,
} from '@coalx/shared';
import { and, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enterpriseChangeRequests, enterprises, users } from '../db/schema/index';
import { notFound } from '../errors';
import { shanghaiDayStart } from '../lib/shanghai-time';
import { listMembers } from '../modules/auth/accounts.service';
import { PLATFORM_AUDIT_STATUS, type Enterprise } from '../modules/enterprise/enterprise.service';
import { suspensionEndText, suspensionHistory, suspensionsInForce, type Suspension } from '../modules/enterprise/trading-rights.service';

/**
 * 企业名录: every enterprise with its audit state and trading state (暂停交易), its members and the history of its
 * audits and suspensions: a read across the enterprise and auth modules for the trading centre.
 */

async function userNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.select({ id: users.id, realname: users.realname, username: users.username }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, `${r.realname} (${r.username})`]));
}

function presentSuspension(s: Suspension, names: Map<number, string>, now: Date): SuspensionView {
  // the time rule: an active period whose end has passed is over, even before the scheduler marks it
  const status = s.status === 'active' && s.endsAt && s.endsAt <= now ? 'ended' : s.status;
  return {
    id: s.id,
    enterpriseId: s.enterpriseId,
    reason: s.reason,
    startsAt: formatDateTime(s.startsAt),
    endsAt: s.endsAt ? formatDateTime(s.endsAt) : null,
    status,
    statusText: stateLabel(TradingSuspensionStates, status),
    createdBy: names.get(s.createdBy) ?? '',
    liftedAt: s.liftedAt ? formatDateTime(s.liftedAt) : null,
    liftedBy: s.liftedBy ? (names.get(s.liftedBy) ?? '') : null,
    liftReason: s.liftReason,
  };
}

function tradingStateText(s: Suspension | undefined): string {
  if (!s) return '正常';
  return s.endsAt ? `暂停交易 至 ${suspensionEndText(s.endsAt)}` : '暂停交易（至恢复交易）';
}

/** Enterprises with a suspension in force at `now` (SQL, for the filter and the count). */
function suspendedNow(now: Date): SQL {
  return sql`EXISTS (SELECT 1 FROM enterprise_suspension s WHERE s.enterprise_id = ${enterprises.id} AND s.status = 'active' AND (s.ends_at IS NULL OR s.ends_at > ${now.toISOString()}::timestamptz))`;
}

/** Enterprises whose suspension in force ends later today (Asia/Shanghai): the operator's to-do 今日到期的暂停交易. */
function suspensionEndsToday(now: Date): SQL {
  return sql`EXISTS (SELECT 1 FROM enterprise_suspension s WHERE s.enterprise_id = ${enterprises.id} AND s.status = 'active' AND s.ends_at > ${now.toISOString()}::timestamptz AND s.ends_at < ${shanghaiDayStart(now, 1).toISOString()}::timestamptz)`;
}

async function present(db: Db, rows: Enterprise[], now: Date): Promise<DirectoryEntry[]> {
  const ids = rows.map((r) => r.id);
  const inForce = await suspensionsInForce(db, ids, now);
  const counts = ids.length
    ? await db.select({ id: users.enterpriseId, n: count() }).from(users).where(inArray(users.enterpriseId, ids)).groupBy(users.enterpriseId)
    : [];
  const memberCounts = new Map(counts.map((c) => [Number(c.id), Number(c.n)]));
  const names = await userNames(db, [...inForce.values()].map((s) => s.createdBy));
  return rows.map((e) => {
    const s = inForce.get(e.id);
    return {
      id: e.id,
      clientId: e.clientId,
      organName: e.organName,
      creditCode: e.creditCode,
      enterpriseType: e.enterpriseType,
      legalPerson: e.legalPerson,
      areaName: e.areaName,
      contactName: e.contactName,
      contactMobile: e.contactMobile,
      auditStatus: e.auditStatus,
      auditedAt: e.auditedAt ? formatDateTime(e.auditedAt) : null,
      tradingState: s ? 'suspended' : 'normal',
      tradingStateText: tradingStateText(s),
      suspension: s ? presentSuspension(s, names, now) : null,
      memberCount: memberCounts.get(e.id) ?? 0,
      createdAt: formatDateTime(e.createdAt),
    };
  });
}

export async function enterpriseDirectory(db: Db, now: Date, query: EnterpriseDirectoryQuery) {
  const filters: SQL[] = [ne(enterprises.auditStatus, PLATFORM_AUDIT_STATUS)];
  const keyword = query.keyword?.trim();
  if (keyword) {
    const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(enterprises.organName, like), ilike(enterprises.creditCode, like), ilike(enterprises.clientId, like))!);
  }
  if (query.auditStatus) filters.push(eq(enterprises.auditStatus, query.auditStatus));
  if (query.enterpriseType) filters.push(eq(enterprises.enterpriseType, query.enterpriseType));
  if (query.tradingState === 'suspended') filters.push(suspendedNow(now));
  if (query.tradingState === 'normal') filters.push(sql`NOT ${suspendedNow(now)}`);
  if (query.endsToday) filters.push(suspensionEndsToday(now));
  const where = and(...filters);
  const [{ total }] = (await db.select({ total: count() }).from(enterprises).where(where)) as [{ total: number }];
  const rows = await db
    .select()
    .from(enterprises)
    .where(where)
    .orderBy(desc(enterprises.createdAt), desc(enterprises.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: await present(db, rows, now), total: Number(total), current: query.pageNo, size: query.pageSize };
}

export async function enterpriseDirectoryDetail(db: Db, now: Date, id: number): Promise<DirectoryDetail> {
  const [e] = await db.select().from(enterprises).where(and(eq(enterprises.id, id), ne(enterprises.auditStatus, PLATFORM_AUDIT_STATUS))).limit(1);
  if (!e) throw notFound('企业不存在');
  const [entry] = await present(db, [e], now);
  const changes = await db.select().from(enterpriseChangeRequests).where(eq(enterpriseChangeRequests.enterpriseId, id)).orderBy(desc(enterpriseChangeRequests.createdAt));
  const history = await suspensionHistory(db, id);
  const names = await userNames(db, history.flatMap((s) => [s.createdBy, ...(s.liftedBy ? [s.liftedBy] : [])]));
  const audits: DirectoryDetail['audits'] = [
    {
      kind: 'registration',
      title: '企业注册审核',
      status: e.auditStatus,
      statusText: stateLabel(EnterpriseAuditStates, e.auditStatus),
      reason: e.auditReason,
      at: formatDateTime(e.submittedAt ?? e.createdAt),
      decidedAt: e.auditedAt ? formatDateTime(e.auditedAt) : null,
    },
    ...changes.map((c) => ({
      kind: 'change' as const,
      title: `资料变更申请（${c.organName}）`,
      status: c.status,
      statusText: stateLabel(ChangeRequestStates, c.status),
      reason: c.reason,
      at: formatDateTime(c.createdAt),
      decidedAt: c.reviewedAt ? formatDateTime(c.reviewedAt) : null,
    })),
  ];
  const suspended = entry!.tradingState === 'suspended';
  return {
    ...entry!,
    address: e.address,
    bankName: e.bankName,
    bankAccountNo: e.bankAccountNo,
    members: await listMembers(db, id),
    audits,
    suspensions: history.map((s) => presentSuspension(s, names, now)),
    can: { suspend: !suspended && e.auditStatus === 'approved', lift: suspended },
  };
}
