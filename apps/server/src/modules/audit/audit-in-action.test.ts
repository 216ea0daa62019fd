import { ROLE_GRANTS } from '@coalx/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, roles, users } from '../../db/schema/index';
import { createUser, loginAs, signedIn, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

/** Issue 27 item 2: no action without its trace. */
describe.each(testDatabaseKinds())('audit rows with the action on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object | string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url: `/trade-api${url}`,
      headers: { ...(token ? { 'x-access-token': token } : {}), ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });
  async function rows(action: string) {
    await t.app.auditTrail.flush();
    return t.database.db.select().from(auditLogs).where(eq(auditLogs.action, action)).orderBy(desc(auditLogs.id));
  }
  const staffRole = async () => (await t.database.db.select().from(roles).where(eq(roles.code, 'operator')))[0]!.id;

  it('a lone surrogate in any text is refused in Chinese and nothing is stored; the refusal itself is recorded', async () => {
    const before = (await rows('新建账号')).length;
    // the body as the reproduction sent it: JSON escapes a lone high surrogate
    const body = `{"username":"shadow01","realname":"影子\\ud800","mobile":"13800000001","roleId":${await staffRole()}}`;
    const refused = await call('POST', '/sys/user/admin/add', admin, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('请求参数有误，包含无法识别的字符');
    expect(await t.database.db.select().from(users).where(eq(users.username, 'shadow01'))).toEqual([]);
    const [row] = await rows('新建账号');
    expect((await rows('新建账号')).length).toBe(before + 1);
    expect(row).toMatchObject({ result: 'refused', statusCode: 400 });
    expect((row!.body as { realname: string }).realname).toBe('影子\ufffd');

    // a lone low surrogate in a key, and in a query string, too
    expect((await call('POST', '/sys/user/admin/add', admin, `{"\\udc00":"x"}`)).json().message).toBe('请求参数有误，包含无法识别的字符');
    expect((await call('GET', '/sys/auditLog/list?username=%ED%A0%80', admin)).statusCode).toBeLessThan(500);
  });

  it('when the audit row cannot be written, the action does not happen', async () => {
    const db = t.database.db;
    const setParam = (value: number) => call('PUT', '/sys/param/update', admin, { code: 'auto_sign_for_days', value });
    expect((await setParam(4)).statusCode).toBe(200);
    await db.execute(sql.raw(`CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit store unavailable'; END $$ LANGUAGE plpgsql`));
    await db.execute(sql.raw(`CREATE TRIGGER test_refuse_audit BEFORE INSERT ON sys_audit_log FOR EACH ROW WHEN (NEW.action = '修改系统参数') EXECUTE FUNCTION test_refuse_audit()`));
    try {
      const failed = await setParam(6);
      expect(failed.statusCode).toBe(500);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER test_refuse_audit ON sys_audit_log'));
    }
    const list = (await call('GET', '/sys/param/list', admin)).json().result as { code: string; value: number }[];
    expect(list.find((p) => p.code === 'auto_sign_for_days')!.value).toBe(4);
  });

  it('a parameter change records its old and new value, written with the change', async () => {
    const changed = await call('PUT', '/sys/param/update', admin, { code: 'auto_sign_for_days', value: 7 });
    expect(changed.statusCode).toBe(200);
    // by its request: the refusal of the test before may be written (after its answer) later than this row
    const row = (await rows('修改系统参数')).find((r) => r.requestId === changed.headers['x-request-id']);
    expect(row).toMatchObject({ result: 'success', changes: { auto_sign_for_days: [4, 7] } });
  });

  it('sign-in, a failed sign-in, the lockout and sign-out are recorded with the address and the browser', async () => {
    const user = await createUser(t.database.db, { role: 'trader' });
    const agent = { 'user-agent': 'Mozilla/5.0 测试浏览器' };
    const good = await t.app.inject({ method: 'POST', url: '/trade-api/sys/login', headers: agent, payload: { username: user.username, password: TEST_PASSWORD } });
    expect(good.statusCode, good.body).toBe(200);
    const token = good.json().result.token as string;
    const bad = await t.app.inject({ method: 'POST', url: '/trade-api/sys/login', headers: agent, payload: { username: user.username, password: 'wrong-password-1' } });
    expect(bad.statusCode).toBe(401);
    const unknown = await t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username: 'nobody_here', password: 'wrong-password-1' } });
    expect(unknown.statusCode).toBe(401);
    expect((await call('GET', '/sys/logout', token)).statusCode).toBe(200);

    const [signIn] = await t.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, '登录'), eq(auditLogs.userId, user.id)));
    expect(signIn).toMatchObject({ username: user.username, result: 'success', ip: '127.0.0.1', role: '交易员', objectType: '用户', objectId: user.username });
    expect(signIn!.body).toEqual({ userAgent: 'Mozilla/5.0 测试浏览器' });
    const failures = await rows('登录失败');
    expect(failures.find((r) => r.userId === user.id)).toMatchObject({ result: 'refused', errorCode: 'bad_credentials', statusCode: 401 });
    expect(failures.find((r) => r.username === 'nobody_here')).toMatchObject({ userId: null, result: 'refused' });
    expect(JSON.stringify(failures)).not.toContain('wrong-password-1');
    expect((await rows('退出登录')).find((r) => r.userId === user.id)).toMatchObject({ result: 'success' });

    // five wrong passwords lock the account: the try that locks it is 账号锁定
    for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username: user.username, password: 'wrong-password-1' } });
    expect((await rows('账号锁定')).find((r) => r.userId === user.id)).toMatchObject({ result: 'refused', errorCode: 'account_locked' });
  });

  it('names the actor by the real role: a custom role, not its base role', async () => {
    const grants = ROLE_GRANTS.operator.map((g) => ({ permissionId: g.permissionId, actions: g.actions }));
    const created = await call('POST', '/sys/role/add', admin, { name: '驻场运营', baseRole: 'operator', description: '现场', grants });
    expect(created.statusCode, created.body).toBe(200);
    const user = await createUser(t.database.db, { role: 'operator' });
    await t.database.db.update(users).set({ roleId: created.json().result.id }).where(eq(users.id, user.id));
    const token = await loginAs(t.app, user.username);
    await call('POST', '/api/driver/999999/approve', token, {});
    const [row] = await rows('审核通过司机');
    expect(row).toMatchObject({ userId: user.id, role: '驻场运营' });
  });
});
