import { formatDateTime, UKEY_REVOKE_REASONS, type UkeyRevokeReason } from '@coalx/shared';
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { drivers, enterpriseChangeRequests, enterprises, enterpriseSuspensions, ukeyCertificates, ukeyDevices } from '../../db/schema/index';
import { registrantOf } from '../../modules/auth/accounts.service';
import type { Notice, NoticeRule, Reminder } from './types';

/**
 * Notices of accounts: registrations and changes of the legal data through 企业审核, key devices (数字证书) and
 * their expiry, drivers through 司机审核. Grants are the ones the acting routes ask (api/enterprise.routes.ts,
 * api/ukey.routes.ts, api/driver.routes.ts).
 */

/** the trading centre's 企业审核 and 司机审核 */
const ENTERPRISE_AUDITORS = 'operation-enterpriseAudit.edit';
const DRIVER_AUDITORS = 'logistics-driverAudit.edit';
/**
 * The enterprise admins: only they edit the enterprise's data (a trader reads 企业信息), and the same people the
 * key-device policy lets approve and revoke devices (modules/ukey/ukey.policy.ts).
 */
const ENTERPRISE_ADMINS = 'companyInfo.edit';
/** everyone of the enterprise (企业信息 is on every trading role's menu) */
const MEMBERS = 'companyInfo';
/** who registers and edits the enterprise's drivers (运输信息) */
const DRIVER_MANAGERS = 'logistics-transport';

const DAY_MS = 86_400_000;

async function enterpriseOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(enterprises).where(eq(enterprises.id, id)).limit(1);
  return row ?? null;
}

// ---------- registration and changes (企业审核) ----------

/** A registration sent (or corrected and sent again): the trading centre's queue. */
function registrationToAudit(again: boolean): NoticeRule {
  return async (tx, payload) => {
    const e = await enterpriseOf(tx, Number(payload.id));
    if (!e || e.auditStatus !== 'pending') return null;
    return {
      notices: [
        {
          to: { staffGrant: ENTERPRISE_AUDITORS },
          kind: 'todo.enterprise_audit',
          category: 'todo',
          title: again ? '企业注册资料已重新提交' : '待审核企业注册',
          content: `${e.organName}（统一社会信用代码 ${e.creditCode}）${again ? '按驳回意见修改后重新提交了注册资料' : '提交了企业注册'}，请核对营业执照与授权委托书后审核；通过后方可登录交易。`,
          link: '/operation/enterpriseAudit',
        },
      ],
    };
  };
}

const registrationApproved: NoticeRule = async (tx, payload) => {
  const e = await enterpriseOf(tx, Number(payload.id));
  if (!e) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [e.id], grant: MEMBERS },
        kind: 'enterprise.approved',
        category: 'account',
        title: '企业注册审核通过',
        content: `${e.organName} 的注册已通过交易中心审核（客户编号 ${e.clientId}）。首次登录请修改密码；入金后即可参与挂牌、竞价交易，交易员账号可在「企业信息」中添加。`,
        link: '/companyInfo',
      },
    ],
  };
};

/** A rejected registrant cannot sign in: the message waits for the account chosen at registration. */
const registrationRejected: NoticeRule = async (tx, payload) => {
  const e = await enterpriseOf(tx, Number(payload.id));
  const registrant = e && (await registrantOf(tx, e.id));
  if (!e || !registrant) return null;
  return {
    notices: [
      {
        to: { userIds: [registrant.id] },
        kind: 'enterprise.rejected',
        category: 'account',
        title: '企业注册审核未通过',
        content: `${e.organName} 的注册未通过交易中心审核，原因：${e.auditReason || '未说明'}。请使用注册时的账号在注册页面「修改后重新提交」。`,
        link: '/user/register?mode=resubmit',
      },
    ],
  };
};

async function changeOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({ c: enterpriseChangeRequests, name: enterprises.organName })
    .from(enterpriseChangeRequests)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseChangeRequests.enterpriseId))
    .where(eq(enterpriseChangeRequests.id, id))
    .limit(1);
  return row ?? null;
}

const changeRequested: NoticeRule = async (tx, payload) => {
  const row = await changeOf(tx, Number(payload.id));
  if (!row || row.c.status !== 'pending') return null;
  return {
    notices: [
      {
        to: { staffGrant: ENTERPRISE_AUDITORS },
        kind: 'todo.enterprise_change',
        category: 'todo',
        title: '待审核企业变更',
        content: `${row.name} 申请变更名称、信用代码、法人或银行账户等资料，请核对后通过或驳回；审核期间企业仍按原资料交易。`,
        link: '/operation/enterpriseAudit',
      },
    ],
  };
};

function changeDecided(approved: boolean): NoticeRule {
  return async (tx, payload) => {
    const row = await changeOf(tx, Number(payload.id));
    if (!row) return null;
    return {
      notices: [
        {
          to: { enterpriseIds: [row.c.enterpriseId], grant: ENTERPRISE_ADMINS },
          kind: approved ? 'enterprise.change_approved' : 'enterprise.change_rejected',
          category: 'account',
          title: approved ? '企业资料变更已通过' : '企业资料变更被驳回',
          content: approved
            ? `贵企业的资料变更申请已通过交易中心审核，新的企业名称、信用代码、法人与结算银行账户已生效（现名称 ${row.name}）；出金将付往新的结算账户。`
            : `贵企业的资料变更申请未通过交易中心审核，原因：${row.c.reason || '未说明'}。企业仍按原资料交易，如需变更请修改后重新申请。`,
          link: '/companyInfo',
        },
      ],
    };
  };
}

// ---------- trading rights (暂停交易) ----------

async function suspensionOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.id, id)).limit(1);
  return row ?? null;
}
const minutes = (at: Date) => formatDateTime(at).slice(0, 16);

/** Everyone of the enterprise hears that its trading stopped, why, until when, and what still goes on. */
const tradingSuspended: NoticeRule = async (tx, payload) => {
  const s = await suspensionOf(tx, Number(payload.id));
  if (!s || s.status !== 'active') return null;
  const until = s.endsAt ? `至 ${minutes(s.endsAt)}` : '至交易中心恢复交易';
  return {
    notices: [
      {
        to: { enterpriseIds: [s.enterpriseId], grant: MEMBERS },
        kind: 'enterprise.trading_suspended',
        category: 'account',
        title: '贵企业已被暂停交易',
        content: `交易中心已暂停贵企业交易（${until}），原因：${s.reason}。暂停期间不能发布挂牌或竞价、摘牌、报名或出价；已签合同的付款、发运、签收、结算与开票照常进行。如有疑问请联系交易中心。`,
        link: '/companyInfo',
        urgent: true,
      },
    ],
  };
};

function tradingResumed(early: boolean): NoticeRule {
  return async (tx, payload) => {
    const s = await suspensionOf(tx, Number(payload.id));
    if (!s) return null;
    return {
      notices: [
        {
          to: { enterpriseIds: [s.enterpriseId], grant: MEMBERS },
          kind: early ? 'enterprise.trading_resumed' : 'enterprise.trading_suspension_ended',
          category: 'account',
          title: '贵企业已恢复交易',
          content: early
            ? `交易中心已恢复贵企业交易${s.liftReason ? `，说明：${s.liftReason}` : ''}。现在可以正常发布挂牌、竞价，摘牌、报名和出价。`
            : `贵企业的暂停交易期限已到（${s.endsAt ? minutes(s.endsAt) : ''}），现已恢复交易，可以正常发布挂牌、竞价，摘牌、报名和出价。`,
          link: '/companyInfo',
        },
      ],
    };
  };
}

// ---------- key devices (数字证书) ----------

async function deviceOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(ukeyDevices).where(eq(ukeyDevices.id, id)).limit(1);
  return row ?? null;
}
type DeviceRow = NonNullable<Awaited<ReturnType<typeof deviceOf>>>;

/** The device's holder and the enterprise admins (one message each: a holder who is an admin gets the first). */
function toHolderAndAdmins(d: DeviceRow, notice: Omit<Notice, 'to' | 'category' | 'link'> & { forAdmins: string }): Notice[] {
  const { forAdmins, ...rest } = notice;
  return [
    { ...rest, to: { userIds: [d.userId] }, category: 'account', link: '/ukeyManage/info' },
    { ...rest, content: forAdmins, to: { enterpriseIds: [d.enterpriseId], grant: ENTERPRISE_ADMINS }, category: 'account', link: '/ukeyManage/info' },
  ];
}

async function currentCertificate(tx: Tx, d: DeviceRow) {
  if (d.currentCertificateId === null) return null;
  const [row] = await tx.select().from(ukeyCertificates).where(eq(ukeyCertificates.id, d.currentCertificateId)).limit(1);
  return row ?? null;
}

const deviceIssued: NoticeRule = async (tx, payload) => {
  const d = await deviceOf(tx, Number(payload.id));
  if (!d) return null;
  const cert = await currentCertificate(tx, d);
  const until = cert ? `，有效期至 ${formatDateTime(cert.notAfter)}` : '';
  return {
    notices: toHolderAndAdmins(d, {
      kind: 'ukey.device_issued',
      title: '数字证书已启用',
      content: `您申请的数字证书「${d.name}」已批准并签发${until}，可用于签署合同和资金操作的验证。`,
      forAdmins: `本企业的数字证书「${d.name}」已批准并签发${until}。`,
    }),
  };
};

const deviceRejected: NoticeRule = async (tx, payload) => {
  const d = await deviceOf(tx, Number(payload.id));
  if (!d) return null;
  const reason = d.rejectReason ? `，原因：${d.rejectReason}` : '';
  return {
    notices: toHolderAndAdmins(d, {
      kind: 'ukey.device_rejected',
      title: '数字证书申请被驳回',
      content: `您的数字证书申请「${d.name}」被企业管理员驳回${reason}。如需使用请重新申请。`,
      forAdmins: `本企业的数字证书申请「${d.name}」已驳回${reason}。`,
    }),
  };
};

const deviceRevoked: NoticeRule = async (tx, payload) => {
  const d = await deviceOf(tx, Number(payload.id));
  if (!d) return null;
  const reason = d.revokeReason ? `（${UKEY_REVOKE_REASONS[d.revokeReason as UkeyRevokeReason] ?? d.revokeReason}）` : '';
  return {
    notices: toHolderAndAdmins(d, {
      kind: 'ukey.device_revoked',
      title: '数字证书已注销',
      content: `数字证书「${d.name}」已于 ${formatDateTime(d.revokedAt ?? d.updatedAt)} 注销${reason}，不能再用于签署；如需继续签署请重新申请数字证书。`,
      forAdmins: `本企业的数字证书「${d.name}」已于 ${formatDateTime(d.revokedAt ?? d.updatedAt)} 注销${reason}。`,
    }),
  };
};

/** Scheduled: 30 days before the certificate in use expires. */
const deviceExpiring: NoticeRule = async (tx, payload, at) => {
  const d = await deviceOf(tx, Number(payload.id));
  if (!d || !['active', 'renewing'].includes(d.status)) return null;
  const cert = await currentCertificate(tx, d);
  if (!cert || cert.id !== Number(payload.certificateId) || cert.revokedAt !== null || cert.notAfter <= at) return null;
  return {
    notices: toHolderAndAdmins(d, {
      kind: 'ukey.expiring_30d',
      title: '数字证书即将过期',
      content: `您的数字证书「${d.name}」将于 ${formatDateTime(cert.notAfter)} 过期，过期后不能签署合同。请在「证书信息」中更新证书（更新后旧证书随即注销）。`,
      forAdmins: `本企业的数字证书「${d.name}」将于 ${formatDateTime(cert.notAfter)} 过期，请提醒持有人及时更新并审批。`,
      dueAt: cert.notAfter,
    }),
  };
};

// ---------- drivers (司机审核) ----------

async function driverOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(drivers).where(eq(drivers.id, id)).limit(1);
  return row ?? null;
}

function driverToAudit(again: boolean): NoticeRule {
  return async (tx, payload) => {
    const d = await driverOf(tx, Number(payload.id));
    if (!d || d.status !== 'pending') return null;
    const e = await enterpriseOf(tx, d.enterpriseId);
    return {
      notices: [
        {
          to: { staffGrant: DRIVER_AUDITORS },
          kind: 'todo.driver_audit',
          category: 'todo',
          title: again ? '司机资料已重新提交' : '待审核司机',
          content: `${e?.organName ?? ''} ${again ? '重新提交了' : '登记了'}司机 ${d.name}（车牌 ${d.plateNo}），请核对身份证、驾驶证、行驶证照片，通过后方可派车。`,
          link: '/logistics/driverAudit',
        },
      ],
    };
  };
}

function driverDecided(approved: boolean): NoticeRule {
  return async (tx, payload) => {
    const d = await driverOf(tx, Number(payload.id));
    if (!d) return null;
    return {
      notices: [
        {
          to: { enterpriseIds: [d.enterpriseId], grant: DRIVER_MANAGERS },
          kind: approved ? 'driver.approved' : 'driver.rejected',
          category: 'delivery',
          title: approved ? '司机审核通过' : '司机审核被驳回',
          content: approved
            ? `司机 ${d.name}（车牌 ${d.plateNo}）已通过交易中心审核，可以派车。`
            : `司机 ${d.name}（车牌 ${d.plateNo}）未通过交易中心审核${d.auditNote ? `，原因：${d.auditNote}` : ''}。请按驳回原因修改司机信息后重新提交审核。`,
          link: '/logistics/transport?tab=drivers',
        },
      ],
    };
  };
}

export const ACCOUNT_RULES: Record<string, NoticeRule> = {
  'enterprise.registered': registrationToAudit(false),
  'enterprise.resubmitted': registrationToAudit(true),
  'enterprise.approved': registrationApproved,
  'enterprise.rejected': registrationRejected,
  'enterprise.change_requested': changeRequested,
  'enterprise.change_approved': changeDecided(true),
  'enterprise.change_rejected': changeDecided(false),
  'enterprise.trading_suspended': tradingSuspended,
  'enterprise.trading_resumed': tradingResumed(true),
  'enterprise.trading_suspension_ended': tradingResumed(false),
  'ukey.device_issued': deviceIssued,
  'ukey.device_rejected': deviceRejected,
  'ukey.device_revoked': deviceRevoked,
  'ukey.expiring_30d': deviceExpiring,
  'driver.registered': driverToAudit(false),
  'driver.resubmitted': driverToAudit(true),
  'driver.approved': driverDecided(true),
  'driver.rejected': driverDecided(false),
};

/** 30 days before a working device's current certificate expires (a renewal makes a new certificate: a new key). */
export const ACCOUNT_REMINDERS: Reminder[] = [
  {
    name: 'ukey.expiring_30d',
    async due(db, now) {
      const rows = await db
        .select({ deviceId: ukeyDevices.id, certificateId: ukeyCertificates.id, notAfter: ukeyCertificates.notAfter })
        .from(ukeyDevices)
        .innerJoin(ukeyCertificates, eq(ukeyCertificates.id, ukeyDevices.currentCertificateId))
        .where(
          and(
            inArray(ukeyDevices.status, ['active', 'renewing']),
            isNull(ukeyCertificates.revokedAt),
            gt(ukeyCertificates.notAfter, now),
            lte(ukeyCertificates.notAfter, new Date(now.getTime() + 30 * DAY_MS)),
          ),
        );
      return rows.map((r) => ({
        key: `ukey.expiring_30d:${r.certificateId}:${r.notAfter.toISOString()}`,
        payload: { id: r.deviceId, certificateId: r.certificateId },
      }));
    },
  },
];
