import { ATTACHMENT_KINDS, formatDateTime, type Attachment, type AttachmentKind, type EnterpriseChangeApplyInput, type EnterpriseInfo, type EnterpriseUpdateInput } from '@coalx/shared';
import { and, asc, eq, ilike, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { enterpriseAttachments, enterpriseChangeRequests, enterprises, type Enterprise } from '../../db/schema/index';
import { appError, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { uniqueViolation } from '../../lib/db-errors';
import { publish } from '../../lib/events';
import { resolveLeafArea } from '../area/area.service';
import { filesByIds, ownedFileId } from '../files/files.service';

export type { Enterprise };

/** One enterprise's row (audit state, bank account, client number) for other modules' checks; null when unknown. */
export async function findEnterprise(db: Db | Tx, enterpriseId: number): Promise<Enterprise | null> {
  const [row] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId)).limit(1);
  return row ?? null;
}

/** Enterprise id → organisation name, for other modules' lists: one query for a whole page. */
/** An enterprise by its 统一社会信用代码 (a 定向 offer names its buyer so); null when none. */
export async function enterpriseByCreditCode(db: Db | Tx, creditCode: string): Promise<Enterprise | null> {
  const [row] = await db.select().from(enterprises).where(eq(enterprises.creditCode, creditCode)).limit(1);
  return row ?? null;
}

export async function enterpriseNames(db: Db | Tx, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: enterprises.id, organName: enterprises.organName }).from(enterprises).where(inArray(enterprises.id, unique));
  return new Map(rows.map((r) => [r.id, r.organName]));
}

/** Legal persons (法定代表人) by enterprise id: the index method treats two enterprises with one legal person as one group. */
export async function legalPersonsOf(db: Db | Tx, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: enterprises.id, legalPerson: enterprises.legalPerson }).from(enterprises).where(inArray(enterprises.id, unique));
  return new Map(rows.map((r) => [r.id, r.legalPerson.trim()]));
}

/** Enterprises whose name matches a LIKE pattern (用户管理's search by enterprise), as a subquery of ids. */
export function enterpriseIdsNamed(db: Db | Tx, pattern: string) {
  return db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(and(ilike(enterprises.organName, pattern), ne(enterprises.auditStatus, PLATFORM_AUDIT_STATUS)));
}

/** The enterprise a client number (客户编号) names, for the public halls' publisher filter; null when none does. */
export async function enterpriseIdByClientId(db: Db | Tx, clientId: string): Promise<number | null> {
  const [row] = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.clientId, clientId)).limit(1);
  return row?.id ?? null;
}

export async function getEnterpriseInfo(db: Db, enterpriseId: number | null): Promise<EnterpriseInfo> {
  if (enterpriseId === null) return null;
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId)).limit(1);
  if (!e) return null;
  return {
    organName: e.organName,
    clientId: e.clientId,
    creditCode: e.creditCode,
    enterpriseType: e.enterpriseType,
    auditStatus: e.auditStatus,
    legalPerson: e.legalPerson,
    contactName: e.contactName,
    contactMobile: e.contactMobile,
    address: e.address,
  };
}

/** The registered address for display. */
export function fullAddress(areaName: string, detail: string) {
  return `${areaName.replace(/\//g, '')}${detail}`;
}

/** Area code → name, refusing anything but a leaf of the picker. */
export async function requireLeafArea(db: Db, code: string) {
  const area = await resolveLeafArea(db, code);
  if (!area) throw appError('validation_failed', '请选择所在地区（选到区县）');
  return area;
}

/** A unique violation on the enterprise's name or code → the Chinese message the registrant needs. */
export function enterpriseConflict(err: unknown): never {
  const constraint = uniqueViolation(err);
  if (constraint?.includes('organ_name')) throw appError('enterprise_exists', '该企业名称已注册，请勿重复注册');
  if (constraint?.includes('credit_code')) throw appError('enterprise_exists', '该统一社会信用代码已注册，请勿重复注册');
  throw err;
}

/** Another enterprise already using the name or the code (an audited one, or one waiting for the audit). */
export async function assertIdentityFree(db: Db | Tx, input: { organName: string; creditCode: string }, exceptId?: number) {
  const rows = await db
    .select({ id: enterprises.id, organName: enterprises.organName, creditCode: enterprises.creditCode })
    .from(enterprises)
    .where(
      and(
        or(eq(enterprises.organName, input.organName), eq(enterprises.creditCode, input.creditCode)),
        exceptId === undefined ? undefined : ne(enterprises.id, exceptId),
      ),
    );
  if (rows.some((r) => r.creditCode === input.creditCode)) throw appError('enterprise_exists', '该统一社会信用代码已注册，请勿重复注册');
  if (rows.some((r) => r.organName === input.organName)) throw appError('enterprise_exists', '该企业名称已注册，请勿重复注册');
}

export async function saveAttachments(tx: Tx, clock: Clock, enterpriseId: number, files: { kind: AttachmentKind; fileId: number }[]) {
  for (const { kind, fileId } of files) {
    const current = await tx
      .select()
      .from(enterpriseAttachments)
      .where(and(eq(enterpriseAttachments.enterpriseId, enterpriseId), eq(enterpriseAttachments.kind, kind), isNull(enterpriseAttachments.replacedAt)));
    if (current.length === 1 && current[0]!.fileId === fileId) continue;
    await tx
      .update(enterpriseAttachments)
      .set({ replacedAt: clock.now() })
      .where(and(eq(enterpriseAttachments.enterpriseId, enterpriseId), eq(enterpriseAttachments.kind, kind), isNull(enterpriseAttachments.replacedAt)));
    await tx.insert(enterpriseAttachments).values({ enterpriseId, kind, fileId, createdAt: clock.now() });
  }
}

export async function listAttachments(db: Db, enterpriseId: number): Promise<Attachment[]> {
  const rows = await db
    .select()
    .from(enterpriseAttachments)
    .where(and(eq(enterpriseAttachments.enterpriseId, enterpriseId), isNull(enterpriseAttachments.replacedAt)))
    .orderBy(asc(enterpriseAttachments.id));
  const files = new Map((await filesByIds(db, rows.map((r) => r.fileId))).map((f) => [f.id, f]));
  return rows.flatMap((r) => {
    const file = files.get(r.fileId);
    if (!file) return [];
    return [
      {
        id: r.id,
        kind: r.kind,
        kindText: ATTACHMENT_KINDS[r.kind as AttachmentKind] ?? r.kind,
        url: file.storageKey,
        name: file.originalName,
        contentType: file.contentType,
        size: file.size,
        createdAt: formatDateTime(r.createdAt),
      },
    ];
  });
}

/** Contact and office address: no audit needed, applied at once. */
export async function updateContact(db: Db, clock: Clock, enterpriseId: number, input: EnterpriseUpdateInput) {
  const area = await requireLeafArea(db, input.areaCode);
  await db
    .update(enterprises)
    .set({
      areaCode: area.code,
      areaName: area.name,
      addressDetail: input.addressDetail,
      address: fullAddress(area.name, input.addressDetail),
      contactName: input.contactName,
      contactMobile: input.contactMobile,
      contactEmail: input.contactEmail,
      updatedAt: clock.now(),
    })
    .where(eq(enterprises.id, enterpriseId));
}

/** Legal data: a change request for the trading centre; the enterprise keeps trading on the audited data. */
export async function applyChange(db: Db, clock: Clock, actor: { userId: number; enterpriseId: number }, input: EnterpriseChangeApplyInput) {
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, actor.enterpriseId)).limit(1);
  if (!e) throw notFound('企业不存在');
  if (e.auditStatus !== 'approved') throw appError('business_rule', '企业审核通过后才能申请变更资料');
  const same =
    e.organName === input.organName &&
    e.creditCode === input.creditCode &&
    e.legalPerson === input.legalPerson &&
    e.bankName === input.bankName &&
    e.bankBranch === input.bankBranch &&
    e.bankAccountNo === input.bankAccountNo &&
    !input.licenceUrl;
  if (same) throw appError('business_rule', '资料没有变化，无需提交变更');
  await assertIdentityFree(db, input, e.id);
  try {
    await db.transaction(async (tx) => {
      const licenceFileId = input.licenceUrl ? await ownedFileId(tx, input.licenceUrl, e.id) : null;
      const [change] = await tx.insert(enterpriseChangeRequests).values({
        enterpriseId: e.id,
        organName: input.organName,
        creditCode: input.creditCode,
        legalPerson: input.legalPerson,
        bankName: input.bankName,
        bankBranch: input.bankBranch,
        bankAccountNo: input.bankAccountNo,
        licenceFileId,
        appliedBy: actor.userId,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      }).returning({ id: enterpriseChangeRequests.id });
      await publish(tx, 'enterprise.change_requested', { id: change!.id });
    });
  } catch (err) {
    if (uniqueViolation(err)?.includes('one_pending')) throw appError('business_rule', '已有待审核的变更申请，请等待交易中心审核');
    throw err;
  }
}

/**
 * The platform's own funds holder (平台服务费账户): an enterprise row the settlement's service fee is credited to, so
 * the fee is an ordinary account in the one ledger (reconcile and Σ of all accounts include it). Made on first use
 * with the audit status 'platform', which no trader list or audit queue shows.
 */
export const PLATFORM_CLIENT_ID = 'PLATFORM';
/** its audit status: every list of enterprises (audit queue, user search) leaves it out */
export const PLATFORM_AUDIT_STATUS = 'platform';
/** The platform's funds holder when one was made (the first settlement fee makes it), without making it. */
export async function existingPlatformEnterpriseId(db: Db | Tx): Promise<number | null> {
  const [row] = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.clientId, PLATFORM_CLIENT_ID)).limit(1);
  return row?.id ?? null;
}

export async function platformEnterpriseId(tx: Db | Tx): Promise<number> {
  const find = () => tx.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.clientId, PLATFORM_CLIENT_ID)).limit(1);
  const [existing] = await find();
  if (existing) return existing.id;
  await tx
    .insert(enterprises)
    .values({
      clientId: PLATFORM_CLIENT_ID,
      organName: 'CoalX 平台服务费账户',
      creditCode: '000000000000000000',
      enterpriseType: 'platform',
      legalPerson: '—',
      auditStatus: PLATFORM_AUDIT_STATUS,
    })
    .onConflictDoNothing();
  const [made] = await find();
  return made!.id;
}
