import { formatDateTime } from '@coalx/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payPasswords } from '../../db/schema/index';
import { findEnterprise } from '../enterprise/enterprise.service';
import { listSwitches } from '../system/system.service';
import { appError, businessRule } from '../../errors';
import type { Clock } from '../../lib/clock';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { Actor } from '../../lib/actor';
import { fundsPolicy } from './funds.policy';

export const MAX_PAY_PASSWORD_FAILURES = 5;
export const PAY_PASSWORD_LOCK_MS = 30 * 60 * 1000;

/**
 * Verifies a key-device (UKey) signature over the action and its request fields (`payload`). The app builds the
 * platform-CA verifier (modules/ukey) once and every money-moving call is given it. A verifier may throw a refusal
 * that says why (revoked, expired, replayed…) instead of answering false.
 */
export interface UkeyVerifier {
  verify(input: { db: Db; clock: Clock; actor: Actor; action: string; payload: Record<string, unknown>; signature: string }): Promise<boolean>;
}

/** The system switches (sys_switch codes) that put a check in front of money-moving actions. */
export const PAYMENT_AUTH_SWITCHES = { payPassword: 'PayPassword', ukey: 'UkeySwitch' } as const;

export async function paymentAuthSwitches(db: Db) {
  const rows = await listSwitches(db);
  const on = (code: string) => rows.some((r) => r.code === code && r.content === '1');
  return { payPassword: on(PAYMENT_AUTH_SWITCHES.payPassword), ukey: on(PAYMENT_AUTH_SWITCHES.ukey) };
}

/**
 * The check in front of every money-moving action (spec §4): with UkeySwitch on a key signature (checked by
 * `ukey`), with PayPassword on the pay password, with both off nothing.
 */
export async function verifyPaymentAuth(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier,
  actor: Actor,
  action: string,
  input: { payPassword?: string; ukeySignature?: string },
): Promise<void> {
  const enterpriseId = fundsPolicy.can(actor, 'ownAccount', '只有企业用户可以动用资金');
  const on = await paymentAuthSwitches(db);
  if (on.ukey) {
    if (!input.ukeySignature) throw businessRule('请使用 UKey 签章确认本次操作');
    const payload = input as Record<string, unknown>;
    if (!(await ukey.verify({ db, clock, actor, action, payload, signature: input.ukeySignature }))) {
      throw businessRule('UKey 签章验证未通过');
    }
    return;
  }
  if (!on.payPassword) return;
  if (!input.payPassword) throw businessRule('请输入支付密码');
  await checkPayPassword(db, clock, enterpriseId, input.payPassword);
}

export async function checkPayPassword(db: Db, clock: Clock, enterpriseId: number, given: string) {
  const [row] = await db.select().from(payPasswords).where(eq(payPasswords.enterpriseId, enterpriseId)).limit(1);
  if (!row) throw businessRule('尚未设置支付密码，请企业管理员先在「资金资产」中设置');
  const now = clock.now();
  if (row.lockedUntil && row.lockedUntil > now) {
    throw appError('account_locked', `支付密码连续错误 ${MAX_PAY_PASSWORD_FAILURES} 次，支付功能已锁定至 ${formatDateTime(row.lockedUntil)}`);
  }
  if (await verifyPassword(given, row.passwordHash)) {
    if (row.failedCount > 0) await db.update(payPasswords).set({ failedCount: 0, lockedUntil: null }).where(eq(payPasswords.enterpriseId, enterpriseId));
    return;
  }
  const lockUntil = new Date(now.getTime() + PAY_PASSWORD_LOCK_MS);
  const restart = sql`(${payPasswords.lockedUntil} IS NOT NULL AND ${payPasswords.lockedUntil} <= ${now})`;
  const [updated] = await db
    .update(payPasswords)
    .set({
      failedCount: sql`CASE WHEN ${restart} THEN 1 ELSE ${payPasswords.failedCount} + 1 END`,
      lockedUntil: sql`CASE WHEN (CASE WHEN ${restart} THEN 1 ELSE ${payPasswords.failedCount} + 1 END) >= ${MAX_PAY_PASSWORD_FAILURES} THEN ${lockUntil}::timestamptz ELSE NULL END`,
    })
    .where(eq(payPasswords.enterpriseId, enterpriseId))
    .returning();
  if (updated?.lockedUntil) {
    throw appError('account_locked', `支付密码连续错误 ${MAX_PAY_PASSWORD_FAILURES} 次，支付功能已锁定至 ${formatDateTime(updated.lockedUntil)}`);
  }
  throw businessRule(`支付密码错误，还可尝试 ${MAX_PAY_PASSWORD_FAILURES - (updated?.failedCount ?? 0)} 次`);
}

export async function payPasswordStatus(db: Db, clock: Clock, enterpriseId: number) {
  const [row] = await db.select().from(payPasswords).where(eq(payPasswords.enterpriseId, enterpriseId)).limit(1);
  const locked = row?.lockedUntil && row.lockedUntil > clock.now() ? row.lockedUntil : null;
  return { isSet: Boolean(row), lockedUntil: locked ? formatDateTime(locked) : null };
}

/** The enterprise admin sets the pay password, or changes it by giving the old one. */
export async function setPayPassword(db: Db, clock: Clock, actor: Actor, input: { password: string; oldPassword?: string }) {
  const enterpriseId = fundsPolicy.can(actor, 'setPayPassword');
  const [existing] = await db.select().from(payPasswords).where(eq(payPasswords.enterpriseId, enterpriseId)).limit(1);
  if (existing) {
    if (!input.oldPassword) throw businessRule('请输入原支付密码');
    await checkPayPassword(db, clock, enterpriseId, input.oldPassword);
  }
  const passwordHash = await hashPassword(input.password);
  await db
    .insert(payPasswords)
    .values({ enterpriseId, passwordHash })
    .onConflictDoUpdate({ target: payPasswords.enterpriseId, set: { passwordHash, failedCount: 0, lockedUntil: null, updatedAt: clock.now() } });
}

export async function enterpriseClientId(db: Db, enterpriseId: number) {
  return (await findEnterprise(db, enterpriseId))?.clientId ?? '';
}
