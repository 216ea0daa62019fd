import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  decodeUkeySignature,
  formatDateTime,
  UKEY_CHALLENGE_TTL_MS,
  UKEY_REVOKE_REASONS,
  ukeyChallengeText,
  ukeyPayloadHash,
  type UkeyAction,
  type UkeyDevice,
  type UkeyCertificate,
  type UkeyRevokeReason,
  UkeyDeviceStates,
} from '@coalx/shared';
import * as x509 from '@peculiar/x509';
import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ukeyCertificates, ukeyChallenges, ukeyDevices, type UkeyCertificateRow, type UkeyDeviceRow } from '../../db/schema/index';
import { listMembers } from '../auth/accounts.service';
import { getEnterpriseInfo } from '../enterprise/enterprise.service';
import { badRequest, businessRule, conflict, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { transition } from '../../lib/transition';
import { checkPayPassword } from '../funds/pay-auth';
import type { PlatformCa } from './ca';
import { buildCrl, chainsToPlatformCa, describeCertificate, issueCertificate, readCsr, verifyRawSignature, type CertificateHolder } from './certificates';
import { ukeyPolicy } from './ukey.policy';

type DbOrTx = Db | Tx;

// ---------- states ----------

/** Moves a device along UkeyDeviceStates (shared/ukey/states.ts), publishing the move's event. */
function moveDevice(tx: Tx, device: UkeyDeviceRow, move: keyof typeof UkeyDeviceStates.moves, set: Partial<typeof ukeyDevices.$inferInsert>) {
  return transition(tx, UkeyDeviceStates, move, { table: ukeyDevices, where: eq(ukeyDevices.id, device.id), set, notFoundMessage: '数字证书不存在' });
}

async function lockDevice(tx: Tx, deviceId: number): Promise<UkeyDeviceRow> {
  const [device] = await tx.select().from(ukeyDevices).where(eq(ukeyDevices.id, deviceId)).for('update').limit(1);
  if (!device) throw notFound('数字证书不存在');
  return device;
}

async function holderOf(db: DbOrTx, userId: number, enterpriseId: number): Promise<CertificateHolder> {
  const enterprise = await getEnterpriseInfo(db as Db, enterpriseId);
  const member = (await listMembers(db as Db, enterpriseId)).find((m) => m.id === userId);
  if (!enterprise || !member) throw notFound('用户或企业不存在');
  if (enterprise.auditStatus !== 'approved') throw businessRule('企业未通过交易中心审核，不能签发数字证书');
  return { organName: enterprise.organName, creditCode: enterprise.creditCode, realname: member.realname, username: member.username };
}

/** "王强（trader01）" of each member of the enterprise, for lists. */
async function memberLabels(db: Db, enterpriseId: number): Promise<Map<number, string>> {
  return new Map((await listMembers(db, enterpriseId)).map((m) => [m.id, `${m.realname}（${m.username}）`]));
}

/** Issues the certificate for the device's key inside the transaction and makes it the device's current one. */
async function issueFor(tx: Tx, clock: Clock, ca: PlatformCa, device: UkeyDeviceRow, publicKey: x509.PublicKey, issuedBy: number) {
  const now = clock.now();
  const issued = await issueCertificate(ca, publicKey, await holderOf(tx, device.userId, device.enterpriseId), now);
  const [row] = await tx
    .insert(ukeyCertificates)
    .values({
      deviceId: device.id,
      enterpriseId: device.enterpriseId,
      userId: device.userId,
      serialNumber: issued.serialNumber,
      subject: issued.subject,
      issuer: issued.issuer,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      fingerprint: issued.fingerprint,
      keyId: issued.keyId,
      der: issued.der,
      issuedBy,
      createdAt: now,
    })
    .returning();
  // the key it replaces is superseded from this moment
  if (device.currentCertificateId) await revokeCertificate(tx, device.currentCertificateId, 'superseded', now);
  return row!;
}

async function revokeCertificate(tx: Tx, certificateId: number, reason: UkeyRevokeReason, now: Date) {
  await tx
    .update(ukeyCertificates)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(ukeyCertificates.id, certificateId), isNull(ukeyCertificates.revokedAt)));
}

// ---------- apply, approve, renew, revoke ----------

/**
 * 申请: the browser's PKCS#10 and a device name. A trader's request waits for the enterprise admin; the admin's
 * own is issued at once when it carries the right pay password.
 */
export async function applyDevice(db: Db, clock: Clock, ca: PlatformCa, actor: Actor, input: { deviceName: string; csr: string; payPassword?: string }) {
  const enterpriseId = ukeyPolicy.can(actor, 'hold');
  const request = await readCsr(input.csr);
  // the enterprise admin approves their own request by giving the pay password
  const issueNow = ukeyPolicy.allows(actor, 'decide', { enterpriseId, userId: actor.userId });
  if (issueNow) {
    if (!input.payPassword) throw businessRule('企业管理员申请数字证书须输入支付密码');
    await checkPayPassword(db, clock, enterpriseId, input.payPassword);
  }
  await holderOf(db, actor.userId, enterpriseId);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [device] = await tx
      .insert(ukeyDevices)
      .values({
        enterpriseId,
        userId: actor.userId,
        name: input.deviceName,
        status: 'pending',
        pendingCsr: request.der,
        pendingKeyId: request.keyId,
        requestedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!issueNow) return device!;
    return finishIssue(tx, clock, ca, device!, 'issue', request.csr.publicKey, actor.userId);
  });
}

async function finishIssue(tx: Tx, clock: Clock, ca: PlatformCa, device: UkeyDeviceRow, move: 'issue' | 'renew', publicKey: x509.PublicKey, issuedBy: number) {
  const certificate = await issueFor(tx, clock, ca, device, publicKey, issuedBy);
  return moveDevice(tx, device, move, { currentCertificateId: certificate.id, pendingCsr: null, pendingKeyId: null, decidedBy: issuedBy, rejectReason: null, updatedAt: clock.now() });
}

/** The enterprise admin approves a waiting request (a new device or a renewal): the CA issues the certificate. */
export async function approveDevice(db: Db, clock: Clock, ca: PlatformCa, actor: Actor, deviceId: number) {
  return db.transaction(async (tx) => {
    const device = await lockDevice(tx, deviceId);
    ukeyPolicy.can(actor, 'decide', device);
    if (!device.pendingCsr) throw conflict('该数字证书没有待审批的申请');
    const { csr } = await readCsr(device.pendingCsr);
    return finishIssue(tx, clock, ca, device, device.status === 'renewing' ? 'renew' : 'issue', csr.publicKey, actor.userId);
  });
}

export async function rejectDevice(db: Db, clock: Clock, actor: Actor, input: { deviceId: number; reason: string }) {
  return db.transaction(async (tx) => {
    const device = await lockDevice(tx, input.deviceId);
    ukeyPolicy.can(actor, 'decide', device);
    return moveDevice(tx, device, device.status === 'renewing' ? 'rejectRenewal' : 'reject', {
      pendingCsr: null,
      pendingKeyId: null,
      rejectReason: input.reason,
      decidedBy: actor.userId,
      updatedAt: clock.now(),
    });
  });
}

/** 更新: the device's user brings a new key; issued at once for the admin (pay password), else it waits. */
export async function renewDevice(db: Db, clock: Clock, ca: PlatformCa, actor: Actor, input: { deviceId: number; csr: string; payPassword?: string }) {
  const enterpriseId = ukeyPolicy.can(actor, 'hold');
  const request = await readCsr(input.csr);
  const issueNow = ukeyPolicy.allows(actor, 'decide', { enterpriseId, userId: actor.userId });
  if (issueNow) {
    if (!input.payPassword) throw businessRule('企业管理员更新数字证书须输入支付密码');
    await checkPayPassword(db, clock, enterpriseId, input.payPassword);
  }
  return db.transaction(async (tx) => {
    const device = await lockDevice(tx, input.deviceId);
    ukeyPolicy.can(actor, 'renew', device);
    if (issueNow) return finishIssue(tx, clock, ca, device, 'renew', request.csr.publicKey, actor.userId);
    const now = clock.now();
    return moveDevice(tx, device, 'requestRenewal', { pendingCsr: request.der, pendingKeyId: request.keyId, requestedAt: now, rejectReason: null, updatedAt: now });
  });
}

/** 删除: a waiting request is withdrawn; a working device's certificate goes on the revocation list at once. */
export async function revokeDevice(db: Db, clock: Clock, actor: Actor, input: { deviceId: number; reason: UkeyRevokeReason }) {
  return db.transaction(async (tx) => {
    const device = await lockDevice(tx, input.deviceId);
    ukeyPolicy.can(actor, 'revoke', device);
    const now = clock.now();
    const revoked = await moveDevice(tx, device, 'revoke', { pendingCsr: null, pendingKeyId: null, revokedAt: now, revokeReason: input.reason, updatedAt: now });
    if (device.currentCertificateId) await revokeCertificate(tx, device.currentCertificateId, input.reason, now);
    return revoked;
  });
}

// ---------- query ----------

function certificateView(row: UkeyCertificateRow, userName: string, now: Date): UkeyCertificate {
  return {
    id: row.id,
    deviceId: row.deviceId,
    serialNumber: row.serialNumber,
    subject: row.subject,
    issuer: row.issuer,
    notBefore: formatDateTime(row.notBefore),
    notAfter: formatDateTime(row.notAfter),
    fingerprint: row.fingerprint.match(/../g)!.join(':').toUpperCase(),
    keyId: row.keyId,
    status: row.revokedAt ? 'revoked' : now > row.notAfter ? 'expired' : 'valid',
    revokedAt: row.revokedAt ? formatDateTime(row.revokedAt) : null,
    revokeReason: row.revokeReason ? (UKEY_REVOKE_REASONS[row.revokeReason as UkeyRevokeReason] ?? row.revokeReason) : null,
    userName,
    createdAt: formatDateTime(row.createdAt),
  };
}

/** 查询: the enterprise's devices, newest first, each with its current certificate. */
export async function listDevices(db: Db, clock: Clock, actor: Actor): Promise<{ records: UkeyDevice[]; canApprove: boolean }> {
  const enterpriseId = ukeyPolicy.can(actor, 'hold');
  const now = clock.now();
  const labels = await memberLabels(db, enterpriseId);
  const rows = await db
    .select({ d: ukeyDevices, c: ukeyCertificates })
    .from(ukeyDevices)
    .leftJoin(ukeyCertificates, eq(ukeyCertificates.id, ukeyDevices.currentCertificateId))
    .where(eq(ukeyDevices.enterpriseId, enterpriseId))
    .orderBy(desc(ukeyDevices.id));
  const records = rows.map(({ d, c }) => ({
    id: d.id,
    name: d.name,
    status: d.status as UkeyDevice['status'],
    userId: d.userId,
    userName: labels.get(d.userId) ?? '',
    mine: d.userId === actor.userId,
    requestedAt: formatDateTime(d.requestedAt),
    pendingKeyId: d.pendingKeyId,
    rejectReason: d.rejectReason,
    revokedAt: d.revokedAt ? formatDateTime(d.revokedAt) : null,
    revokeReason: d.revokeReason ? (UKEY_REVOKE_REASONS[d.revokeReason as UkeyRevokeReason] ?? d.revokeReason) : null,
    lastUsedAt: d.lastUsedAt ? formatDateTime(d.lastUsedAt) : null,
    certificate: c ? certificateView(c, labels.get(d.userId) ?? '', now) : null,
  }));
  return { records, canApprove: ukeyPolicy.allows(actor, 'decide', { enterpriseId, userId: -1 }) };
}

/** 证书查询: every certificate the enterprise was issued (renewed ones too), optionally of one device. */
export async function listCertificates(db: Db, clock: Clock, actor: Actor, deviceId?: number): Promise<UkeyCertificate[]> {
  const enterpriseId = ukeyPolicy.can(actor, 'hold');
  const now = clock.now();
  const labels = await memberLabels(db, enterpriseId);
  const rows = await db
    .select()
    .from(ukeyCertificates)
    .where(and(eq(ukeyCertificates.enterpriseId, enterpriseId), deviceId ? eq(ukeyCertificates.deviceId, deviceId) : undefined))
    .orderBy(desc(ukeyCertificates.id));
  return rows.map((c) => certificateView(c, labels.get(c.userId) ?? '', now));
}

/** The certificate's DER for download (any certificate of the caller's enterprise). */
export async function certificateDer(db: Db, actor: Actor, certificateId: number): Promise<{ der: Buffer; serialNumber: string }> {
  const [row] = await db.select().from(ukeyCertificates).where(eq(ukeyCertificates.id, certificateId)).limit(1);
  if (!row) throw notFound('证书不存在');
  ukeyPolicy.can(actor, 'see', row);
  return { der: Buffer.from(row.der, 'base64'), serialNumber: row.serialNumber };
}

/** The public revocation list: every revoked certificate of the platform CA. */
export async function revocationList(db: Db, clock: Clock, ca: PlatformCa): Promise<Uint8Array> {
  const rows = await db
    .select({ serialNumber: ukeyCertificates.serialNumber, revokedAt: ukeyCertificates.revokedAt, reason: ukeyCertificates.revokeReason })
    .from(ukeyCertificates)
    .where(isNotNull(ukeyCertificates.revokedAt))
    .orderBy(asc(ukeyCertificates.revokedAt));
  return buildCrl(ca, rows.map((r) => ({ serialNumber: r.serialNumber, revokedAt: r.revokedAt!, reason: r.reason })), clock.now());
}

export async function isRevokedSerial(db: DbOrTx, serialNumber: string): Promise<{ revokedAt: Date; reason: string | null } | null> {
  const [row] = await db
    .select({ revokedAt: ukeyCertificates.revokedAt, reason: ukeyCertificates.revokeReason })
    .from(ukeyCertificates)
    .where(and(eq(ukeyCertificates.serialNumber, serialNumber), isNotNull(ukeyCertificates.revokedAt)))
    .limit(1);
  return row ? { revokedAt: row.revokedAt!, reason: row.reason } : null;
}

// ---------- the certificate a signature may use ----------

export interface UsableCertificate {
  device: UkeyDeviceRow;
  row: UkeyCertificateRow;
  certificate: x509.X509Certificate;
  der: Uint8Array;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  fingerprint: string;
}

/**
 * The device's current certificate, after checking that it is the acting user's, of their enterprise, chains to
 * the platform CA, is valid now (server clock) and is not revoked. Every refusal is a Chinese 4xx.
 */
export async function usableCertificate(tx: DbOrTx, clock: Clock, ca: PlatformCa, actor: Actor, deviceId: number): Promise<UsableCertificate> {
  const [device] = await tx.select().from(ukeyDevices).where(eq(ukeyDevices.id, deviceId)).limit(1);
  if (!device) throw notFound('数字证书不存在');
  ukeyPolicy.can(actor, 'use', device);
  if (device.status === 'revoked') throw businessRule('该数字证书已注销，请重新申请');
  if (!device.currentCertificateId) throw businessRule('该数字证书尚未签发，请等待企业管理员审批');
  const [row] = await tx.select().from(ukeyCertificates).where(eq(ukeyCertificates.id, device.currentCertificateId)).limit(1);
  if (!row) throw businessRule('该数字证书尚未签发，请等待企业管理员审批');
  if (row.revokedAt) throw businessRule(`该数字证书已于 ${formatDateTime(row.revokedAt)} 吊销，不能使用`);
  const der = new Uint8Array(Buffer.from(row.der, 'base64'));
  const certificate = new x509.X509Certificate(der);
  const chain = await chainsToPlatformCa(ca, certificate, clock.now());
  if (chain === 'other_ca') throw businessRule('该数字证书不是本平台 CA 签发的，不能使用');
  if (chain === 'not_yet_valid') throw businessRule(`该数字证书自 ${formatDateTime(certificate.notBefore)} 起生效`);
  if (chain === 'expired') throw businessRule(`该数字证书已于 ${formatDateTime(certificate.notAfter)} 过期，请更新证书`);
  if (row.enterpriseId !== actor.enterpriseId || row.userId !== actor.userId) throw businessRule('该数字证书不属于当前用户');
  const { serialNumber, subject, issuer, notBefore, notAfter, fingerprint } = await describeCertificate(certificate);
  return { device, row, certificate, der, serialNumber, subject, issuer, notBefore, notAfter, fingerprint };
}

// ---------- signing service ----------

/** A single-use challenge for one action and the SHA-256 of its payload, valid 5 minutes. */
export async function createChallenge(db: Db, clock: Clock, actor: Actor, input: { action: UkeyAction; payloadHash: string }) {
  const enterpriseId = ukeyPolicy.can(actor, 'hold');
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + UKEY_CHALLENGE_TTL_MS);
  const [row] = await db
    .insert(ukeyChallenges)
    .values({ id: randomUUID(), userId: actor.userId, enterpriseId, action: input.action, payloadHash: input.payloadHash, nonce: randomBytes(16).toString('hex'), expiresAt, createdAt: now })
    .returning();
  return challengeView(row!);
}

function challengeView(row: typeof ukeyChallenges.$inferSelect) {
  const fields = { id: row.id, action: row.action as UkeyAction, payloadHash: row.payloadHash, nonce: row.nonce, expiresAt: row.expiresAt.toISOString() };
  return { ...fields, text: ukeyChallengeText(fields) };
}

/**
 * The check behind UkeySwitch: `signature` (challenge id, device id, r||s) must sign the challenge issued to this
 * user for this action and this payload, with a usable certificate. The challenge is spent in the same
 * transaction, so a replay finds it used. Throws the reason in Chinese; returns the certificate used.
 */
export async function verifyActionSignature(
  db: Db,
  clock: Clock,
  ca: PlatformCa,
  actor: Actor,
  input: { action: UkeyAction; payload: Record<string, unknown>; signature: string },
): Promise<UsableCertificate> {
  const decoded = decodeUkeySignature(input.signature);
  if (!decoded) throw badRequest('数字证书签名格式不正确');
  const raw = new Uint8Array(Buffer.from(decoded.signature, 'base64url'));
  if (raw.length !== 64) throw badRequest('数字证书签名格式不正确');
  const payloadHash = await ukeyPayloadHash(input.action, input.payload);
  return db.transaction(async (tx) => {
    const [challenge] = await tx.select().from(ukeyChallenges).where(eq(ukeyChallenges.id, decoded.challengeId)).for('update').limit(1);
    if (!challenge || challenge.userId !== actor.userId) throw businessRule('签名挑战不存在，请重新签名');
    if (challenge.usedAt) throw businessRule('该签名已使用过，每次操作须重新签名');
    const now = clock.now();
    if (now > challenge.expiresAt) throw businessRule('签名已超过 5 分钟有效期，请重新签名');
    if (challenge.action !== input.action || challenge.payloadHash !== payloadHash) throw businessRule('签名内容与本次操作不一致，请重新签名');
    const usable = await usableCertificate(tx, clock, ca, actor, decoded.deviceId);
    const text = new TextEncoder().encode(challengeView(challenge).text);
    if (!(await verifyRawSignature(usable.certificate, text, raw))) throw businessRule('数字证书签名验证未通过');
    const spent = await tx
      .update(ukeyChallenges)
      .set({ usedAt: now, deviceId: usable.device.id })
      .where(and(eq(ukeyChallenges.id, challenge.id), isNull(ukeyChallenges.usedAt)))
      .returning({ id: ukeyChallenges.id });
    if (spent.length === 0) throw businessRule('该签名已使用过，每次操作须重新签名');
    await tx.update(ukeyDevices).set({ lastUsedAt: now }).where(eq(ukeyDevices.id, usable.device.id));
    return usable;
  });
}

