import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions, users } from '../../db/schema/index';
import { createEnterprise, createUser, loginAs, signedIn, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

describe.each(testDatabaseKinds())('sign-in and session on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username, password } });
  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { 'x-access-token': token } : {} });

  it('signs in with token, userInfo and enterPriseInfo, success true', async () => {
    const user = await createUser(t.database.db, { role: 'enterprise_admin' });
    const response = await login(user.username, TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, code: 0 });
    expect(body.result.token).toMatch(/^[\w-]{40,}$/);
    expect(body.result.userInfo).toMatchObject({ username: user.username, isFirstLogin: '0', role: { code: 'enterprise_admin' } });
    expect(body.result.userInfo.role.permissions.length).toBeGreaterThan(0);
    expect(body.result.enterPriseInfo.organName).toMatch(/测试煤业/);
    // only the hash is stored
    const stored = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored[0]!.tokenHash).not.toBe(body.result.token);
  });

  it('refuses a wrong password and an unknown user with the same message shape', async () => {
    const user = await createUser(t.database.db);
    const wrong = await login(user.username, 'nope');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ success: false, error: 'bad_credentials' });
    expect(wrong.json().message).toContain('用户名或密码错误');
    const unknown = await login('nobody-here', 'nope');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('用户名或密码错误');
  });

  it('locks the account for 15 minutes after five wrong passwords and says until when', async () => {
    const user = await createUser(t.database.db);
    for (let i = 0; i < 4; i++) expect((await login(user.username, 'wrong')).statusCode).toBe(401);
    const fifth = await login(user.username, 'wrong');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().message).toMatch(/锁定至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    // even the right password is refused while locked
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(423);
    t.clock.advance(15 * 60 * 1000 + 1000);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts concurrent wrong passwords exactly and locks', async () => {
    const user = await createUser(t.database.db);
    const results = await Promise.all(Array.from({ length: 8 }, () => login(user.username, 'wrong')));
    expect(results.every((r) => r.statusCode === 401 || r.statusCode === 423)).toBe(true);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.failedLoginCount).toBeGreaterThanOrEqual(5);
    expect(row!.lockedUntil).not.toBeNull();
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(423);
  });

  it('keeps out the users of an enterprise not yet audited or rejected', async () => {
    const pending = await createEnterprise(t.database.db, { auditStatus: 'pending' });
    const user = await createUser(t.database.db, { enterpriseId: pending.id });
    const response = await login(user.username, TEST_PASSWORD);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'enterprise_not_audited' });
    expect(response.json().message).toContain('审核中');
    const rejected = await createEnterprise(t.database.db, { auditStatus: 'rejected', auditReason: '营业执照不清晰' });
    const other = await createUser(t.database.db, { enterpriseId: rejected.id });
    expect((await login(other.username, TEST_PASSWORD)).json().message).toContain('营业执照不清晰');
  });

  it('answers 401 with "token invalid" for a bogus, idle or too old token', async () => {
    const bogus = await get('/trade-api/sys/user/info', 'not-a-real-token');
    expect(bogus.statusCode).toBe(401);
    expect(bogus.json().message).toContain('token invalid');

    const { token } = await signedIn(t.app, t.database.db);
    expect((await get('/trade-api/sys/user/info', token)).statusCode).toBe(200);
    t.clock.advance(2 * 3600 * 1000 + 1000);
    const idle = await get('/trade-api/sys/user/info', token);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().message).toContain('token invalid');

    // active every hour, still ends 12 hours after sign-in
    const active = await signedIn(t.app, t.database.db);
    for (let hour = 0; hour < 11; hour++) {
      t.clock.advance(3600 * 1000);
      expect((await get('/trade-api/sys/user/info', active.token)).statusCode).toBe(200);
    }
    t.clock.advance(3600 * 1000 + 1000);
    expect((await get('/trade-api/sys/user/info', active.token)).statusCode).toBe(401);
  });

  it('logout ends the session', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    expect((await get('/trade-api/sys/logout', token)).statusCode).toBe(200);
    expect((await get('/trade-api/sys/user/info', token)).statusCode).toBe(401);
  });

  it('asks for sign-in on private endpoints', async () => {
    const response = await get('/trade-api/sys/permission/getUserPermissionByToken');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toContain('token invalid');
  });

  it('user info carries role permissions with action sets', async () => {
    const { token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const info = (await get('/trade-api/sys/user/info', token)).json().result;
    const companyInfo = info.role.permissions.find((p: { permissionId: string }) => p.permissionId === 'companyInfo');
    expect(companyInfo.actionEntitySet.map((a: { action: string }) => a.action).sort()).toEqual(['get', 'query']);
    expect(info.role.permissions.some((p: { permissionId: string }) => p.permissionId === 'index')).toBe(true);
  });

  it('changes the password: rules, mismatch, wrong old password, first-login flag, other sessions', async () => {
    const user = await createUser(t.database.db, { isFirstLogin: true });
    const token = await loginAs(t.app, user.username);
    const other = await loginAs(t.app, user.username);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/trade-api/sys/user/updatePassword', headers: { 'x-access-token': token }, payload });

    const weak = await put({ oldPassword: TEST_PASSWORD, password: 'abcdefgh', confirmPassword: 'abcdefgh' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toContain('字母和数字');
    const mismatch = await put({ oldPassword: TEST_PASSWORD, password: 'abcd1234', confirmPassword: 'abcd12345' });
    expect(mismatch.json().message).toContain('两次输入的密码不匹配!');
    const wrongOld = await put({ oldPassword: 'nope', password: 'abcd1234', confirmPassword: 'abcd1234' });
    expect(wrongOld.statusCode).toBe(422);
    expect(wrongOld.json().message).toBe('原密码错误');

    const done = await put({ oldPassword: TEST_PASSWORD, password: 'abcd1234', confirmPassword: 'abcd1234' });
    expect(done.statusCode).toBe(200);
    expect((await get('/trade-api/sys/user/info', token)).json().result.isFirstLogin).toBe('0');
    expect((await get('/trade-api/sys/user/info', other)).statusCode).toBe(401);
    expect((await login(user.username, 'abcd1234')).statusCode).toBe(200);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(401);
  });
});

describe('login rate limit per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { loginRateLimit: 3 });
  });
  afterAll(async () => t?.close());

  it('refuses the fourth attempt within a minute with 429 and a Chinese message', async () => {
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username: 'x', password: 'y' }, remoteAddress: '10.1.2.3' });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: 'too_many_requests' });
    expect(limited.json().message).toContain('登录尝试过于频繁');
  });
});

describe('login rate limit behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { loginRateLimit: 3, trustProxy: '10.9.0.0/24' });
  });
  afterAll(async () => t?.close());

  const attempt = (remoteAddress: string, forwardedFor: string) =>
    t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username: 'x', password: 'y' }, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  it('counts per forwarded client when the request comes through the trusted proxy', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt('10.9.0.5', '203.0.113.1')).statusCode).toBe(401);
    expect((await attempt('10.9.0.5', '203.0.113.1')).statusCode).toBe(429);
    // another client behind the same proxy has its own count
    expect((await attempt('10.9.0.5', '203.0.113.2')).statusCode).toBe(401);
  });

  it('ignores the header from anyone else: a client cannot pick its own address', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt('198.51.100.7', `192.0.2.${i}`)).statusCode).toBe(401);
    expect((await attempt('198.51.100.7', '192.0.2.99')).statusCode).toBe(429);
  });
});
