import type { RoleCode } from '@coalx/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users } from '../../db/schema/index';
import { TEST_PASSWORD, createEnterprise, createUser, loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { setUserDisabled } from './users-admin.service';

const API = '/trade-api/sys/user/admin';

describe.each(testDatabaseKinds())('用户管理 on %s', (kind) => {
  let t: TestApp;
  let admin: { user: { id: number; username: string }; token: string };
  let roleId: Record<RoleCode, number>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const rows = await t.database.db.select().from(roles);
    roleId = Object.fromEntries(rows.map((r) => [r.code, r.id])) as typeof roleId;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `${API}${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });
  const info = (token: string) => t.app.inject({ method: 'GET', url: '/trade-api/sys/user/info', headers: { 'x-access-token': token } });
  const login = (username: string, password: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username, password }, headers, ...(remoteAddress ? { remoteAddress } : {}) });
  const rowOf = async (username: string) => {
    const page = (await call('GET', `/list?username=${username}`, admin.token)).json().result;
    return page.records.find((r: { username: string }) => r.username === username);
  };

  it('refuses everyone but the system administrator, on every endpoint', async () => {
    const target = await createUser(t.database.db, { role: 'trader' });
    const endpoints: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', '/list'],
      ['GET', '/roles'],
      ['POST', '/add', { username: 'staffx1', realname: '王五', mobile: '13900000001', roleId: 1 }],
      ['PUT', `/${target.id}/disabled`, { disabled: true }],
      ['POST', `/${target.id}/unlock`],
      ['POST', `/${target.id}/resetPassword`],
      ['PUT', `/${target.id}/role`, { roleId: 1 }],
      ['GET', `/${target.id}/sessions`],
      ['DELETE', `/${target.id}/sessions`],
      ['DELETE', `/${target.id}/sessions/1`],
    ];
    for (const role of ['trader', 'enterprise_admin', 'operator'] as const) {
      const { token } = await signedIn(t.app, t.database.db, { role });
      for (const [method, url, payload] of endpoints) {
        const response = await call(method, url, token, payload);
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
        // the role's grants refuse first (no 用户管理 menu); the policy behind them says the same
        expect(response.json().message).toMatch(/用户管理|管理用户/);
      }
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `${API}/list` });
    expect(anonymous.statusCode).toBe(401);
    // nothing happened to the target
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ disabled: false, isFirstLogin: false, roleId: roleId.trader });
  });

  it('lists staff and enterprise members with enterprise, role, state, last sign-in and open sessions; searches each way', async () => {
    const enterprise = await createEnterprise(t.database.db, { organName: '晋北煤业集团有限公司' });
    const member = await createUser(t.database.db, { role: 'trader', enterpriseId: enterprise.id, username: 'jinbei_trader' });
    await t.database.db.update(users).set({ realname: '赵晋北' }).where(eq(users.id, member.id));
    await createUser(t.database.db, { role: 'operator', username: 'ops_listed' });
    const signIn = await login('jinbei_trader', TEST_PASSWORD, { 'user-agent': 'Mozilla/5.0 测试浏览器' }, '10.9.8.7');
    expect(signIn.statusCode).toBe(200);
    await login('jinbei_trader', TEST_PASSWORD);

    const row = await rowOf('jinbei_trader');
    expect(row).toMatchObject({
      realname: '赵晋北',
      enterpriseName: '晋北煤业集团有限公司',
      roleName: '交易员',
      roleBase: 'trader',
      state: 'normal',
      lockedUntil: null,
      isFirstLogin: false,
      openSessions: 2,
    });
    expect(row.lastLoginAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const staff = await rowOf('ops_listed');
    expect(staff).toMatchObject({ enterpriseId: null, enterpriseName: null, roleName: '交易中心运营', lastLoginAt: null, openSessions: 0 });

    const usernames = async (query: string) =>
      (await call('GET', `/list?pageSize=100&${query}`, admin.token)).json().result.records.map((r: { username: string }) => r.username);
    expect(await usernames(`realname=${encodeURIComponent('晋北')}`)).toEqual(['jinbei_trader']);
    expect(await usernames(`enterprise=${encodeURIComponent('晋北煤业')}`)).toEqual(['jinbei_trader']);
    const platform = await usernames(`enterprise=${encodeURIComponent('交易中心')}`);
    expect(platform).toContain('ops_listed');
    expect(platform).not.toContain('jinbei_trader');
    const operators = await usernames(`roleId=${roleId.operator}`);
    expect(operators).toContain('ops_listed');
    expect(operators).not.toContain('jinbei_trader');
    // a pattern character is searched for literally
    expect(await usernames('username=%25')).toEqual([]);

    const page = (await call('GET', '/list?pageNo=1&pageSize=2', admin.token)).json().result;
    expect(page.records).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(4);

    const bad = await call('GET', '/list?state=gone', admin.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('账号状态不正确');
  });

  it('creates a staff account whose first-login password is shown once and must be changed', async () => {
    const created = await call('POST', '/add', admin.token, { username: 'ops_new', realname: '钱运营', mobile: '13900000002', roleId: roleId.operator });
    expect(created.statusCode).toBe(200);
    const { initialPassword } = created.json().result;
    expect(initialPassword).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12}$/);
    const [stored] = await t.database.db.select().from(users).where(eq(users.username, 'ops_new'));
    expect(stored).toMatchObject({ enterpriseId: null, isFirstLogin: true, roleId: roleId.operator });
    expect(stored!.passwordHash).not.toContain(initialPassword);

    const token = await loginAs(t.app, 'ops_new', initialPassword);
    expect((await info(token)).json().result.isFirstLogin).toBe('1');
    const blocked = await t.app.inject({ method: 'GET', url: '/trade-api/sys/enterprise/audit/list', headers: { 'x-access-token': token } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error).toBe('password_change_required');
    // the list never shows the password again
    expect(JSON.stringify(await rowOf('ops_new'))).not.toContain(initialPassword);

    const again = await call('POST', '/add', admin.token, { username: 'ops_new', realname: '钱运营', mobile: '13900000002', roleId: roleId.operator });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('用户名 ops_new 已被使用，请换一个');
    const trader = await call('POST', '/add', admin.token, { username: 'ops_trader', realname: '孙交易', mobile: '13900000003', roleId: roleId.trader });
    expect(trader.statusCode).toBe(422);
    expect(trader.json().message).toBe('交易中心人员只能分配运营或系统管理员类的角色');
    const invalid = await call('POST', '/add', admin.token, { username: '1x', realname: '孙', mobile: '123', roleId: roleId.operator });
    expect(invalid.statusCode).toBe(400);
  });

  it('disabling ends the open session at once (401) and the account cannot sign in until enabled', async () => {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await info(token)).statusCode).toBe(200);
    const disabled = await call('PUT', `/${user.id}/disabled`, admin.token, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().message).toBe(`账号 ${user.username} 已停用，已登录的会话已全部结束`);
    expect((await info(token)).statusCode).toBe(401);
    expect((await login(user.username, TEST_PASSWORD)).json().error).toBe('account_disabled');
    expect(await rowOf(user.username)).toMatchObject({ state: 'disabled', openSessions: 0 });
    expect((await call('GET', `/list?state=disabled&username=${user.username}`, admin.token)).json().result.total).toBe(1);

    expect((await call('PUT', `/${user.id}/disabled`, admin.token, { disabled: false })).json().message).toBe(`账号 ${user.username} 已启用`);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await call('PUT', '/999999/disabled', admin.token, { disabled: true })).statusCode).toBe(404);
  });

  it('refuses to disable or demote yourself', async () => {
    const self = await call('PUT', `/${admin.user.id}/disabled`, admin.token, { disabled: true });
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe('不能停用自己的账号');
    const demote = await call('PUT', `/${admin.user.id}/role`, admin.token, { roleId: roleId.operator });
    expect(demote.statusCode).toBe(422);
    expect(demote.json().message).toBe('不能修改自己的角色');
    const reset = await call('POST', `/${admin.user.id}/resetPassword`, admin.token);
    expect(reset.statusCode).toBe(422);
    expect((await info(admin.token)).statusCode).toBe(200);
  });

  it('refuses to disable or demote the last enabled admin', async () => {
    const other = await signedIn(t.app, t.database.db, { role: 'admin' });
    // the only enabled admins are `admin` and `other`
    const adminIds = (await t.database.db.select({ id: users.id }).from(users).where(eq(users.roleId, roleId.admin))).map((r) => r.id);
    const spare = adminIds.filter((id) => id !== admin.user.id && id !== other.user.id);
    if (spare.length) await t.database.db.update(users).set({ disabled: true }).where(inArray(users.id, spare));

    try {
      // `admin` was just disabled by someone else while its request to disable `other` was on the way
      await t.database.db.update(users).set({ disabled: true }).where(eq(users.id, admin.user.id));
      const actor = { userId: admin.user.id, username: admin.user.username, role: 'admin' as const, enterpriseId: null, sessionId: 0 };
      await expect(setUserDisabled(t.database.db, t.clock, actor, other.user.id, true)).rejects.toMatchObject({
        status: 422,
        message: '这是最后一个启用的系统管理员账号，不能停用',
      });
      await t.database.db.update(users).set({ disabled: false }).where(eq(users.id, admin.user.id));

      // two admins demote each other at once: one wins, the platform keeps an enabled admin
      const [a, b] = await Promise.all([
        call('PUT', `/${other.user.id}/role`, admin.token, { roleId: roleId.operator }),
        call('PUT', `/${admin.user.id}/role`, other.token, { roleId: roleId.operator }),
      ]);
      // the loser is refused as the last admin, or, when the winner's change came first, is no admin any more (403)
      const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
      expect(won.statusCode).toBe(200);
      expect([403, 422]).toContain(lost.statusCode);
      if (lost.statusCode === 422) expect(lost.json().message).toBe('这是最后一个启用的系统管理员账号，不能改为其他角色');
      const stillAdmins = await t.database.db.select().from(users).where(inArray(users.id, [admin.user.id, other.user.id]));
      expect(stillAdmins.filter((u) => u.roleId === roleId.admin && !u.disabled)).toHaveLength(1);
    } finally {
      // back as it was for the other tests: `admin` an admin, `other` an operator
      await t.database.db.update(users).set({ roleId: roleId.admin, disabled: false }).where(eq(users.id, admin.user.id));
      await t.database.db.update(users).set({ roleId: roleId.operator }).where(eq(users.id, other.user.id));
      if (spare.length) await t.database.db.update(users).set({ disabled: false }).where(inArray(users.id, spare));
    }
  });

  it('changes a role only to one that fits the account', async () => {
    const member = await createUser(t.database.db, { role: 'trader' });
    const toOperator = await call('PUT', `/${member.id}/role`, admin.token, { roleId: roleId.operator });
    expect(toOperator.statusCode).toBe(422);
    expect(toOperator.json().message).toBe('企业用户只能分配交易员或企业管理员类的角色');
    const promoted = await call('PUT', `/${member.id}/role`, admin.token, { roleId: roleId.enterprise_admin });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().message).toBe(`账号 ${member.username} 的角色已改为「企业管理员」`);
    expect(await rowOf(member.username)).toMatchObject({ roleName: '企业管理员', roleBase: 'enterprise_admin' });

    const staff = await createUser(t.database.db, { role: 'operator' });
    const toTrader = await call('PUT', `/${staff.id}/role`, admin.token, { roleId: roleId.trader });
    expect(toTrader.json().message).toBe('交易中心人员只能分配运营或系统管理员类的角色');
    expect((await call('PUT', `/${staff.id}/role`, admin.token, { roleId: 999999 })).statusCode).toBe(404);

    const options = (await call('GET', '/roles', admin.token)).json().result;
    expect(options.find((r: { code: string }) => r.code === 'operator')).toMatchObject({ name: '交易中心运营', scope: 'staff', base: 'operator' });
    expect(options.find((r: { code: string }) => r.code === 'trader')).toMatchObject({ scope: 'enterprise' });
  });

  it('unlocks an account locked by wrong passwords', async () => {
    const user = await createUser(t.database.db, { role: 'trader' });
    for (let i = 0; i < 5; i++) await login(user.username, 'wrong-password1');
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(423);
    const row = await rowOf(user.username);
    expect(row.state).toBe('locked');
    expect(row.lockedUntil).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await call('GET', `/list?state=locked&username=${user.username}`, admin.token)).json().result.total).toBe(1);

    const unlocked = await call('POST', `/${user.id}/unlock`, admin.token);
    expect(unlocked.json().message).toBe(`账号 ${user.username} 已解锁，可以立即登录`);
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(stored).toMatchObject({ lockedUntil: null, failedLoginCount: 0 });
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(200);

    const notLocked = await call('POST', `/${user.id}/unlock`, admin.token);
    expect(notLocked.statusCode).toBe(422);
    expect(notLocked.json().message).toBe(`账号 ${user.username} 当前未被锁定，无需解锁`);
  });

  it('resets a password to a first-login one: old password and sessions stop, the next sign-in must change it', async () => {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const reset = await call('POST', `/${user.id}/resetPassword`, admin.token);
    expect(reset.statusCode).toBe(200);
    const { initialPassword } = reset.json().result;
    expect((await info(token)).statusCode).toBe(401);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(401);
    const fresh = await loginAs(t.app, user.username, initialPassword);
    expect((await info(fresh)).json().result.isFirstLogin).toBe('1');
    const trading = await t.app.inject({ method: 'GET', url: '/trade-api/sys/enterprise/member/list', headers: { 'x-access-token': fresh } });
    expect(trading.json().error).toBe('password_change_required');
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/trade-api/sys/user/updatePassword',
      headers: { 'x-access-token': fresh },
      payload: { oldPassword: initialPassword, password: 'newpass2026', confirmPassword: 'newpass2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await rowOf(user.username)).isFirstLogin).toBe(false);
  });

  it('lists open sessions with time, address and browser, and ends one or all', async () => {
    const user = await createUser(t.database.db, { role: 'trader' });
    const first = (await login(user.username, TEST_PASSWORD, { 'user-agent': 'Chrome 办公室' }, '10.0.0.1')).json().result.token;
    const second = (await login(user.username, TEST_PASSWORD, { 'user-agent': 'Firefox 家里' }, '10.0.0.2')).json().result.token;
    const third = (await login(user.username, TEST_PASSWORD, { 'user-agent': 'Edge 仓库' }, '10.0.0.3')).json().result.token;

    const list = (await call('GET', `/${user.id}/sessions`, admin.token)).json().result;
    expect(list).toHaveLength(3);
    const office = list.find((s: { ip: string }) => s.ip === '10.0.0.1');
    expect(office).toMatchObject({ userAgent: 'Chrome 办公室', current: false });
    expect(office.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const ended = await call('DELETE', `/${user.id}/sessions/${office.id}`, admin.token);
    expect(ended.json().message).toBe('会话已结束，该设备须重新登录');
    expect((await info(first)).statusCode).toBe(401);
    expect((await info(second)).statusCode).toBe(200);
    expect((await call('DELETE', `/${user.id}/sessions/${office.id}`, admin.token)).statusCode).toBe(404);
    // a session of another account is not reachable through this one
    const adminSession = (await call('GET', `/${admin.user.id}/sessions`, admin.token)).json().result.find((s: { current: boolean }) => s.current);
    expect(adminSession).toBeTruthy();
    expect((await call('DELETE', `/${user.id}/sessions/${adminSession.id}`, admin.token)).statusCode).toBe(404);

    const all = await call('DELETE', `/${user.id}/sessions`, admin.token);
    expect(all.json()).toMatchObject({ result: { ended: 2 }, message: '已结束 2 个会话' });
    expect((await info(second)).statusCode).toBe(401);
    expect((await info(third)).statusCode).toBe(401);
    expect((await call('GET', `/${user.id}/sessions`, admin.token)).json().result).toEqual([]);
    expect((await call('DELETE', `/${user.id}/sessions`, admin.token)).json().message).toBe('该账号没有登录中的会话');
  });
});
