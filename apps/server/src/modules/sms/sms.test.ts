import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsOutbox } from '../../db/schema/index';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { ensureAreas } from '../area/area.service';
import { lastCode, register, registrationPayload, sendSms, uniqueIp, uniqueMobile } from '../enterprise/onboarding.test-helpers';
import { shanghaiDayStart } from '../../lib/shanghai-time';

describe.each(testDatabaseKinds())('SMS codes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await ensureAreas(t.database.db);
  });
  afterAll(async () => t?.close());

  it('sends a 6-digit code through the outbox and tells the wait', async () => {
    const mobile = uniqueMobile();
    const response = await sendSms(t.app, mobile);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ code: 0, result: { expiresIn: 300, resendIn: 60 } });
    expect(await lastCode(t.database.db, mobile)).toMatch(/^\d{6}$/);
    const [message] = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile));
    expect(message!.content).toContain('5 分钟内有效');
  });

  it('refuses bad mobiles and scenes', async () => {
    for (const body of [{ mobile: '12345', scene: 'register' }, { mobile: '10000000000', scene: 'register' }, { mobile: '13800000000', scene: 'login' }, { mobile: '13800000000' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/trade-api/sys/sms/send', payload: body, remoteAddress: uniqueIp() });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/手机号码|短信场景/);
    }
  });

  it('one send per mobile per 60 s, and ten a day', async () => {
    const mobile = uniqueMobile();
    // the day is a Shanghai day: keep all eleven sends (about 11 minutes of clock) inside one
    const dayEnd = shanghaiDayStart(t.clock.now()).getTime() + 24 * 3600 * 1000;
    if (dayEnd - t.clock.now().getTime() < 15 * 61_000) t.clock.advance(dayEnd - t.clock.now().getTime() + 1000);
    expect((await sendSms(t.app, mobile)).statusCode).toBe(200);
    const early = await sendSms(t.app, mobile);
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toBe('验证码发送过于频繁，请 60 秒后再试');
    t.clock.advance(30_000);
    expect((await sendSms(t.app, mobile)).json().message).toBe('验证码发送过于频繁，请 30 秒后再试');
    for (let i = 2; i <= 10; i++) {
      t.clock.advance(61_000);
      expect((await sendSms(t.app, mobile)).statusCode, `send ${i}`).toBe(200);
    }
    t.clock.advance(61_000);
    const eleventh = await sendSms(t.app, mobile);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().message).toBe('该手机号今日获取验证码已达 10 次，请明天再试');
  });

  it('a flood of parallel sends to one mobile sends one code', async () => {
    const mobile = uniqueMobile();
    const responses = await Promise.all(Array.from({ length: 15 }, () => sendSms(t.app, mobile)));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(14);
    expect(await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile))).toHaveLength(1);
  });

  it('limits sends per address across mobiles', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await sendSms(t.app, uniqueMobile(), ip)).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses[20]).toBe(429);
  });

  it('a wrong code counts, the fifth voids it; a used or expired code fails', async () => {
    const payload = await registrationPayload(t.app, t.database.db);
    const wrong = payload.smsCode === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const response = await register(t.app, { ...payload, smsCode: wrong });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(`短信验证码错误，还可尝试 ${left} 次`);
    }
    const fifth = await register(t.app, { ...payload, smsCode: wrong });
    expect(fifth.json().message).toBe('短信验证码错误次数过多，已失效，请重新获取');
    const right = await register(t.app, payload);
    expect(right.statusCode).toBe(422);
    expect(right.json().message).toBe('短信验证码已失效，请重新获取');

    const fresh = await registrationPayload(t.app, t.database.db);
    t.clock.advance(300_001);
    const expired = await register(t.app, fresh);
    expect(expired.json().message).toBe('短信验证码已过期，请重新获取');

    const once = await registrationPayload(t.app, t.database.db);
    expect((await register(t.app, once)).statusCode).toBe(200);
    const reused = await register(t.app, { ...once, username: `${once.username}x`, organName: `${once.organName}二`, creditCode: (await registrationPayload(t.app, t.database.db)).creditCode });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe('短信验证码已使用，请重新获取');
  });

  it('a newer code replaces the older one', async () => {
    const payload = await registrationPayload(t.app, t.database.db);
    t.clock.advance(61_000);
    await sendSms(t.app, payload.mobile);
    const newer = await lastCode(t.database.db, payload.mobile);
    if (newer !== payload.smsCode) {
      const old = await register(t.app, payload);
      expect(old.statusCode).toBe(422);
    }
    expect((await register(t.app, { ...payload, smsCode: newer })).statusCode).toBe(200);
  });

  it('Shanghai day start', () => {
    expect(shanghaiDayStart(new Date('2026-03-01T15:59:59Z')).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(shanghaiDayStart(new Date('2026-03-01T16:00:00Z')).toISOString()).toBe('2026-03-01T16:00:00.000Z');
  });
});
