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

/**
 * Every action that moves an enterprise's money, or commits it to a deal it must pay for, on its own user's
 * request: the one list (issue 27). Each runs `verifyPaymentAuth` with its name before anything moves; the key
 * signs the fields `UKEY_ACTIONS` (packages/shared) names for it. `route` is the request that does it, walked by
 * money-actions.test.ts with each switch on and off, and cross-checked there against every route whose handler
 * can reach the ledger (`move`). `certificateSigned`: the action is itself a certificate signature (a contract),
 * so the key switch adds nothing and only the pay password is asked.
 */
export const MONEY_ACTIONS = {
  listing_subscribe: { label: '摘牌', route: 'POST /api/listedAnswerApply', certificateSigned: false },
  auction_enrol: { label: '竞价报名', route: 'POST /api/bidEnroll/add', certificateSigned: false },
  withdrawal: { label: '出金', route: 'POST /api/funds/withdraw/apply', certificateSigned: false },
  order_pay: { label: '支付货款', route: 'POST /api/order/:id/pay', certificateSigned: false },
  statement_confirm: { label: '确认结算', route: 'POST /api/settlement/statements/:id/confirm', certificateSigned: false },
  call_off_confirm: { label: '确认月度调运', route: 'POST /api/longTerm/callOff/:callOffId/decide', certificateSigned: false },
  contract_sign: { label: '签署合同', route: 'POST /api/contract/:id/sign/prepare', certificateSigned: true },
} as const;
export type MoneyAction = keyof typeof MONEY_ACTIONS;

/** The second factor a money request carries (request fields, as the shared schemas name them). */
export interface PaymentAuthInput {
  payPassword?: string;
  ukeySignature?: string;
}

export async function paymentAuthSwitches(db: Db) {
  const rows = await listSwitches(db);
  const on = (code: string) => rows.some((r) => r.code === code && r.content === '1');
  return { payPassword: on(PAYMENT_AUTH_SWITCHES.payPassword), ukey: on(PAYMENT_AUTH_SWITCHES.ukey) };
}

/**
 * The one check in front of every money action (MONEY_ACTIONS, spec §4 "an action first requires the pay password
 * form or a ukey signature"): with UkeySwitch on, a key signature of a challenge naming the action and the SHA-256
 * of its signed fields (`signed`: the request as received plus the ids from the path), checked by `ukey`; otherwise,
 * with PayPassword on, the enterprise's pay password; with both off nothing. A certificate-signed action (a
 * contract) asks only the pay password, whatever the key switch says. Refusals are 422 in Chinese; it runs before
 * the action's transaction, so a refused request moves nothing, while a wrong password still counts.
 */
export async function verifyPaymentAuth<Signed extends PaymentAuthInput>(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier | null,
  actor: Actor,
  action: MoneyAction,
  signed: Signed,
): Promise<void> {
  const enterpriseId = fundsPolicy.can(actor, 'ownAccount', '只有企业用户可以动用资金');
  const on = await paymentAuthSwitches(db);
  if (on.ukey && !MONEY_ACTIONS[action].certificateSigned) {
    if (!signed.ukeySignature) throw businessRule('请使用 UKey 签章确认本次操作');
    if (!ukey) throw businessRule('UKey 签章验证未通过');
    const payload = signed as Record<string, unknown>;
    if (!(await ukey.verify({ db, clock, actor, action, payload, signature: signed.ukeySignature }))) {
      throw businessRule('UKey 签章验证未通过');
    }
    return;
  }
  if (!on.payPassword) return;
  if (!signed.payPassword) throw businessRule('请输入支付密码');
  await checkPayPassword(db, clock, enterpriseId, signed.payPassword);
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
