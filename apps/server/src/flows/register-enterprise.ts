import type { CheckExistResult, EnterpriseDetail, EnterpriseRegisterInput, EnterpriseResubmitInput } from '@coalx/shared';
import { EnterpriseAuditStates } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enterprises } from '../db/schema/index';
import { appError } from '../errors';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { transition } from '../lib/transition';
import { hashPassword } from '../lib/password';
import { createAccount, usernameTaken, verifyCredentials } from '../modules/auth/accounts.service';
import {
  assertIdentityFree,
  enterpriseConflict,
  fullAddress,
  requireLeafArea,
  saveAttachments,
} from '../modules/enterprise/enterprise.service';
import { claimRegistrationFiles } from '../modules/files/files.service';
import { getEnterpriseDetail } from '../queries/enterprise-detail';
import { checkSmsCode, consumeSmsCode } from '../modules/sms/sms.service';

/**
 * Registration (issue 3): a visitor's enterprise lands as pending audit, with the registrant's enterprise-admin
 * account and the claimed attachments, all in one transaction. The SMS code is used up inside it, so a double
 * click or a replay registers once; a duplicate name, code or username is refused before anything is written.
 */

export async function checkExist(db: Db, input: { organName?: string; creditCode?: string; username?: string }): Promise<CheckExistResult> {
  if (input.creditCode) {
    const [row] = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.creditCode, input.creditCode)).limit(1);
    if (row) return { exists: true, field: 'creditCode', message: '该统一社会信用代码已注册，请勿重复注册' };
  }
  if (input.organName) {
    const [row] = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.organName, input.organName)).limit(1);
    if (row) return { exists: true, field: 'organName', message: '该企业名称已注册，请勿重复注册' };
  }
  if (input.username && (await usernameTaken(db, input.username))) {
    return { exists: true, field: 'username', message: '该用户名已被使用，请换一个' };
  }
  return { exists: false, field: null, message: '可以注册' };
}

function enterpriseValues(input: EnterpriseRegisterInput | EnterpriseResubmitInput, area: { code: string; name: string }) {
  return {
    organName: input.organName,
    creditCode: input.creditCode,
    legalPerson: input.legalPerson,
    enterpriseType: input.enterpriseType,
    areaCode: area.code,
    areaName: area.name,
    addressDetail: input.addressDetail,
    address: fullAddress(area.name, input.addressDetail),
    contactName: input.contactName,
    contactMobile: input.contactMobile,
    contactEmail: input.contactEmail,
    bankName: input.bankName,
    bankBranch: input.bankBranch,
    bankAccountNo: input.bankAccountNo,
  };
}

export async function registerEnterprise(db: Db, clock: Clock, input: EnterpriseRegisterInput) {
  if (input.licenceUrl === input.authorizationUrl) throw appError('attachment_invalid', '营业执照与授权委托书不能是同一个文件');
  const area = await requireLeafArea(db, input.areaCode);
  const codeId = await checkSmsCode(db, clock, input.mobile, 'register', input.smsCode);
  await assertIdentityFree(db, input);
  if (await usernameTaken(db, input.username)) throw appError('username_exists', `用户名 ${input.username} 已被使用，请换一个`);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await consumeSmsCode(tx, clock, codeId);
      const now = clock.now();
      const [e] = await tx
        .insert(enterprises)
        .values({
          // replaced below by the number made from the id
          clientId: `tmp-${input.creditCode}`,
          ...enterpriseValues(input, area),
          auditStatus: 'pending',
          submittedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const clientId = `C${String(e!.id).padStart(6, '0')}`;
      await tx.update(enterprises).set({ clientId }).where(eq(enterprises.id, e!.id));
      await createAccount(tx, {
        username: input.username,
        realname: input.realname,
        mobile: input.mobile,
        passwordHash,
        role: 'enterprise_admin',
        enterpriseId: e!.id,
        isFirstLogin: false,
      });
      const files = await claimRegistrationFiles(tx, [input.licenceUrl, input.authorizationUrl], e!.id);
      await saveAttachments(tx, clock, e!.id, [
        { kind: 'licence', fileId: files.get(input.licenceUrl)! },
        { kind: 'authorization', fileId: files.get(input.authorizationUrl)! },
      ]);
      await publish(tx, 'enterprise.registered', { id: e!.id });
      return { clientId, organName: e!.organName, auditStatus: 'pending' };
    });
  } catch (err) {
    enterpriseConflict(err);
  }
}

/** The registrant of a rejected (or pending) enterprise, proven by the account chosen at registration. */
async function registrantEnterprise(db: Db, clock: Clock, username: string, password: string) {
  const user = await verifyCredentials(db, clock, username, password);
  if (user.enterpriseId === null) throw appError('business_rule', '该账号不属于任何企业');
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, user.enterpriseId)).limit(1);
  if (!e) throw appError('business_rule', '该账号不属于任何企业');
  return { user, enterprise: e };
}

/** What a rejected registrant sees to correct: the data sent, the reason, the attachments. */
export async function rejectedRegistration(db: Db, clock: Clock, username: string, password: string): Promise<EnterpriseDetail> {
  const { enterprise } = await registrantEnterprise(db, clock, username, password);
  if (enterprise.auditStatus === 'pending') throw appError('business_rule', '企业资料正在审核中，请耐心等待');
  if (enterprise.auditStatus === 'approved') throw appError('business_rule', '企业已审核通过，请直接登录');
  return getEnterpriseDetail(db, enterprise.id);
}

export async function resubmitRegistration(db: Db, clock: Clock, input: EnterpriseResubmitInput) {
  if (input.licenceUrl === input.authorizationUrl) throw appError('attachment_invalid', '营业执照与授权委托书不能是同一个文件');
  const { user, enterprise } = await registrantEnterprise(db, clock, input.username, input.password);
  if (enterprise.auditStatus !== 'rejected') {
    throw appError('audit_state', enterprise.auditStatus === 'pending' ? '企业资料正在审核中，无需重复提交' : '企业已审核通过，请直接登录');
  }
  void user;
  const area = await requireLeafArea(db, input.areaCode);
  await assertIdentityFree(db, input, enterprise.id);
  try {
    return await db.transaction(async (tx) => {
      const now = clock.now();
      const moved = await transition(tx, EnterpriseAuditStates, 'resubmit', {
        table: enterprises,
        where: eq(enterprises.id, enterprise.id),
        set: { ...enterpriseValues(input, area), auditReason: null, submittedAt: now, updatedAt: now },
        refusal: 'audit_state',
      });
      const files = await claimRegistrationFiles(tx, [input.licenceUrl, input.authorizationUrl], enterprise.id);
      await saveAttachments(tx, clock, enterprise.id, [
        { kind: 'licence', fileId: files.get(input.licenceUrl)! },
        { kind: 'authorization', fileId: files.get(input.authorizationUrl)! },
      ]);
      return { clientId: moved.clientId, organName: moved.organName, auditStatus: moved.auditStatus };
    });
  } catch (err) {
    enterpriseConflict(err);
  }
}
