import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  SMS_CODE_TTL_SECONDS,
  SMS_DAILY_LIMIT,
  SMS_MAX_WRONG_TRIES,
  SMS_RESEND_SECONDS,
  SMS_SCENES,
  formatDateTime,
  type SmsSendInput,
} from '@coalx/shared';
import { and, count, desc, eq, gte, isNull, like, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { smsCodes, smsOutbox } from '../../db/schema/index';
import { appError } from '../../errors';
import type { Clock } from '../../lib/clock';
import { shanghaiDayStart } from '../../lib/shanghai-time';
import type { SmsProvider } from './sms.provider';

function hashCode(code: string, salt: string) {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

/**
 * Sends a 6-digit code through `provider` (the app's delivery channel: the outbox, a real gateway, or a failing one
 * in tests): one per mobile every 60 s, 10 a day; a new code voids the previous one. The checks and the insert run
 * under a per-mobile advisory lock, so a burst of parallel requests cannot slip past the limits.
 */
export async function sendSmsCode(db: Db, clock: Clock, provider: SmsProvider, input: SmsSendInput, ip: string) {
  const now = clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(12).toString('base64url');
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sms:${input.mobile}`}))`);
    const [last] = await tx
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.mobile, input.mobile))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (last) {
      const wait = Math.ceil((last.createdAt.getTime() + SMS_RESEND_SECONDS * 1000 - now.getTime()) / 1000);
      if (wait > 0) throw appError('sms_too_frequent', `验证码发送过于频繁，请 ${wait} 秒后再试`);
    }
    const [{ sentToday } = { sentToday: 0 }] = await tx
      .select({ sentToday: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.mobile, input.mobile), gte(smsCodes.createdAt, shanghaiDayStart(now))));
    if (sentToday >= SMS_DAILY_LIMIT) throw appError('sms_too_frequent', `该手机号今日获取验证码已达 ${SMS_DAILY_LIMIT} 次，请明天再试`);
    await tx
      .update(smsCodes)
      .set({ voidedAt: now })
      .where(and(eq(smsCodes.mobile, input.mobile), eq(smsCodes.scene, input.scene), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)));
    await tx.insert(smsCodes).values({
      mobile: input.mobile,
      scene: input.scene,
      codeHash: hashCode(code, salt),
      salt,
      expiresAt: new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
      ip,
      createdAt: now,
    });
    // delivered inside the transaction: a provider failure leaves no code that nobody received
    await provider.send(tx, clock, {
      mobile: input.mobile,
      scene: input.scene,
      content: `【CoalX】您的${SMS_SCENES[input.scene]}验证码为 ${code}，${SMS_CODE_TTL_SECONDS / 60} 分钟内有效，请勿泄露给他人。`,
    });
  });
  return { expiresIn: SMS_CODE_TTL_SECONDS, resendIn: SMS_RESEND_SECONDS };
}

/**
 * Checks a code without using it up; a wrong code counts (committed at once) and the fifth wrong one voids it.
 * Returns the code's id for `consumeSmsCode` inside the caller's transaction.
 */
export async function checkSmsCode(db: Db, clock: Clock, mobile: string, scene: string, code: string): Promise<number> {
  const now = clock.now();
  const [active] = await db
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.mobile, mobile), eq(smsCodes.scene, scene)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (!active) throw appError('sms_code_invalid', '请先获取短信验证码');
  if (active.usedAt) throw appError('sms_code_invalid', '短信验证码已使用，请重新获取');
  if (active.voidedAt) throw appError('sms_code_invalid', '短信验证码已失效，请重新获取');
  if (active.expiresAt <= now) throw appError('sms_code_invalid', '短信验证码已过期，请重新获取');
  const expected = Buffer.from(active.codeHash, 'hex');
  const actual = Buffer.from(hashCode(code, active.salt), 'hex');
  if (!timingSafeEqual(expected, actual)) {
    const [row] = await db
      .update(smsCodes)
      .set({
        wrongTries: sql`${smsCodes.wrongTries} + 1`,
        voidedAt: sql`CASE WHEN ${smsCodes.wrongTries} + 1 >= ${SMS_MAX_WRONG_TRIES} THEN ${now.toISOString()}::timestamptz ELSE NULL END`,
      })
      .where(and(eq(smsCodes.id, active.id), isNull(smsCodes.voidedAt), isNull(smsCodes.usedAt)))
      .returning({ wrongTries: smsCodes.wrongTries });
    const left = SMS_MAX_WRONG_TRIES - (row?.wrongTries ?? SMS_MAX_WRONG_TRIES);
    if (left <= 0) throw appError('sms_code_invalid', '短信验证码错误次数过多，已失效，请重新获取');
    throw appError('sms_code_invalid', `短信验证码错误，还可尝试 ${left} 次`);
  }
  return active.id;
}

/** Uses the code up; of two requests racing with the same code only one gets it. */
export async function consumeSmsCode(tx: Tx, clock: Clock, id: number) {
  const used = await tx
    .update(smsCodes)
    .set({ usedAt: clock.now() })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)))
    .returning({ id: smsCodes.id });
  if (used.length === 0) throw appError('sms_code_invalid', '短信验证码已使用，请勿重复提交');
}

export async function listOutbox(db: Db, query: { pageNo: number; pageSize: number; mobile?: string }) {
  const where = query.mobile ? like(smsOutbox.mobile, `${query.mobile.replace(/[%_\\]/g, '')}%`) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(smsOutbox).where(where);
  const rows = await db
    .select()
    .from(smsOutbox)
    .where(where)
    .orderBy(desc(smsOutbox.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return {
    records: rows.map((r) => ({ id: r.id, mobile: r.mobile, scene: r.scene, content: r.content, provider: r.provider, createdAt: formatDateTime(r.createdAt) })),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}
