import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { Database } from '../../db/client';
import { openPostgres } from '../../lib/database';
import { roles, sessions, users } from '../../db/schema/index';
import { peersOf } from '../../lib/peers';
import { TEST_PASSWORD, createUser, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { copyRole, editRole } from './roles-admin.service';
import { authCacheOf } from './session-cache';
import { hashToken } from './session.service';

const ADMIN_API = '/trade-api/sys/user/admin';
const NEW_PASSWORD = 'newpass123';

const requestOn = (app: FastifyInstance) => ({
  info: (token: string) => app.inject({ method: 'GET', url: '/trade-api/sys/user/info', headers: { 'x-access-token': token } }),
  call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
    app.inject({ method, url, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) }),
  login: async (username: string, password = TEST_PASSWORD) =>
    (await app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username, password } })).json().result.token as string,
});

describe.each(testDatabaseKinds())('sessions in memory on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let on: ReturnType<typeof requestOn>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    on = requestOn(t.app);
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
  });
  afterAll(async () => t?.close());

  it('answers a signed-in request from memory: the same bytes as the schema, no table read', async () => {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const first = await on.info(token);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = first.json();
    expect(body).toMatchObject({ success: true, code: 0, message: '操作成功', result: { id: String(user.id), username: user.username, role: { code: 'trader' } } });
    expect(typeof body.result.grantsVersion).toBe('string');
    expect(typeof body.result.dictVersion).toBe('number');
    expect(typeof body.timestamp).toBe('number');
    // a change made behind the server's back is not seen: proof that nothing was read
    await t.database.db.update(users).set({ realname: '改名未通知' }).where(eq(users.id, user.id));
    expect((await on.info(token)).json().result.realname).toBe('测试用户');
    authCacheOf(t.database.db).apply({ users: [user.id] });
    expect((await on.info(token)).json().result.realname).toBe('改名未通知');
  });

  it('keeps the 2 h idle limit and the 12 h cap from memory, writing last_seen at most once a minute', async () => {
    const { token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await on.info(token)).statusCode).toBe(200);
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    const seen = async () => (await t.database.db.select().from(sessions).where(eq(sessions.id, session!.id)))[0]!.lastSeenAt.getTime();
    const written = await seen();
    t.clock.advance(30_000);
    expect((await on.info(token)).statusCode).toBe(200);
    expect(await seen()).toBe(written);
    t.clock.advance(31_000);
    expect((await on.info(token)).statusCode).toBe(200);
    expect(await seen()).toBe(t.clock.now().getTime());
    for (let hour = 0; hour < 11; hour++) {
      t.clock.advance(3600 * 1000);
      expect((await on.info(token)).statusCode).toBe(200);
    }
    t.clock.advance(3600 * 1000);
    expect((await on.info(token)).statusCode).toBe(401);

    const idle = (await signedIn(t.app, t.database.db, { role: 'trader' })).token;
    expect((await on.info(idle)).statusCode).toBe(200);
    t.clock.advance(2 * 3600 * 1000 + 1000);
    expect((await on.info(idle)).statusCode).toBe(401);
  });

  it('logout, ending one or all sessions, disabling and resetting refuse the token at once', async () => {
    // the clock moved 14 h in the test before: a fresh administrator session
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
    const logout = (await signedIn(t.app, t.database.db, { role: 'trader' })).token;
    expect((await on.info(logout)).statusCode).toBe(200);
    expect((await on.call('GET', '/trade-api/sys/logout', logout)).statusCode).toBe(200);
    expect((await on.info(logout)).statusCode).toBe(401);

    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const second = await on.login(user.username);
    expect((await on.info(token)).statusCode).toBe(200);
    expect((await on.info(second)).statusCode).toBe(200);
    const [one] = (await on.call('GET', `${ADMIN_API}/${user.id}/sessions`, admin)).json().result;
    expect((await on.call('DELETE', `${ADMIN_API}/${user.id}/sessions/${one.id}`, admin)).statusCode).toBe(200);
    const answers = [(await on.info(token)).statusCode, (await on.info(second)).statusCode];
    expect(answers.sort()).toEqual([200, 401]);
    expect((await on.call('DELETE', `${ADMIN_API}/${user.id}/sessions`, admin)).statusCode).toBe(200);
    expect((await on.info(token)).statusCode).toBe(401);
    expect((await on.info(second)).statusCode).toBe(401);

    const disabled = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await on.info(disabled.token)).statusCode).toBe(200);
    expect((await on.call('PUT', `${ADMIN_API}/${disabled.user.id}/disabled`, admin, { disabled: true })).statusCode).toBe(200);
    expect((await on.info(disabled.token)).statusCode).toBe(401);

    const reset = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await on.info(reset.token)).statusCode).toBe(200);
    expect((await on.call('POST', `${ADMIN_API}/${reset.user.id}/resetPassword`, admin)).statusCode).toBe(200);
    expect((await on.info(reset.token)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions and the first-login flag at once', async () => {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader', isFirstLogin: true });
    const other = await on.login(user.username);
    expect((await on.info(token)).json().result.isFirstLogin).toBe('1');
    expect((await on.info(other)).statusCode).toBe(200);
    const changed = await on.call('PUT', '/trade-api/sys/user/updatePassword', token, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect((await on.info(token)).json().result.isFirstLogin).toBe('0');
    expect((await on.info(other)).statusCode).toBe(401);
  });

  it('a role change, a role rename and new grants show in the next answer', async () => {
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await on.info(token)).json().result.role.name).toBe('交易员');
    const [trader] = await t.database.db.select().from(roles).where(eq(roles.code, 'trader'));
    const custom = await copyRole(t.database.db, t.clock, { id: trader!.id, name: '缓存测试角色' });
    expect((await on.call('PUT', `${ADMIN_API}/${user.id}/role`, admin, { roleId: custom.id })).statusCode).toBe(200);
    const before = (await on.info(token)).json().result;
    expect(before.role).toMatchObject({ id: String(custom.id), name: '缓存测试角色', code: 'trader' });
    await editRole(t.database.db, t.clock, { id: custom.id, name: '缓存测试角色二', description: '', grants: custom.grants.slice(0, 1) as never });
    const after = (await on.info(token)).json().result;
    expect(after.role.name).toBe('缓存测试角色二');
    expect(after.grantsVersion).not.toBe(before.grantsVersion);
    expect(after.role.permissions.length).toBeLessThan(before.role.permissions.length);
  });
});

/**
 * Two servers of one PostgreSQL database (here two apps in one test process, each with its own pool and LISTEN
 * connection, as two processes have): a change answered by A is refused by B on the very next request.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('sessions in memory across two servers', () => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: Database; dataDir: string };
  let a: ReturnType<typeof requestOn>;
  let b: ReturnType<typeof requestOn>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    const url = (t.database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
    const database = await openPostgres(url, 5);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-test-b-'));
    const app = await buildApp({ config: { ...t.config, dataDir }, database, clock: t.clock });
    await app.ready();
    second = { app, database, dataDir };
    a = requestOn(t.app);
    b = requestOn(app);
    // each has heard the other's heartbeat
    const started = Date.now();
    const selfA = peersOf(t.database.db).self;
    const selfB = peersOf(database.db).self;
    while (!(peersOf(t.database.db).livePeers().includes(selfB) && peersOf(database.db).livePeers().includes(selfA))) {
      if (Date.now() - started > 10_000) throw new Error('the two servers never heard each other');
      await new Promise((r) => setTimeout(r, 50));
    }
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    if (second) fs.rmSync(second.dataDir, { recursive: true, force: true });
    await t?.close();
  });

  it('logout on A: the very next request with the token on B is 401', async () => {
    for (let round = 0; round < 5; round++) {
      const { token } = await signedIn(t.app, t.database.db, { role: 'trader' });
      expect((await b.info(token)).statusCode).toBe(200);
      expect((await a.call('GET', '/trade-api/sys/logout', token)).statusCode).toBe(200);
      expect((await b.info(token)).statusCode).toBe(401);
    }
  });

  it('ending a session, disabling, a password change and a role change on A hold on B at once', async () => {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const other = await a.login(user.username);
    expect((await b.info(token)).statusCode).toBe(200);
    expect((await b.info(other)).statusCode).toBe(200);
    const changed = await a.call('PUT', '/trade-api/sys/user/updatePassword', token, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect((await b.info(other)).statusCode).toBe(401);
    expect((await b.info(token)).statusCode).toBe(200);

    const [operator] = await t.database.db.select().from(roles).where(eq(roles.code, 'enterprise_admin'));
    expect((await a.call('PUT', `${ADMIN_API}/${user.id}/role`, admin, { roleId: operator!.id })).statusCode).toBe(200);
    expect((await b.info(token)).json().result.role.code).toBe('enterprise_admin');

    const [session] = (await a.call('GET', `${ADMIN_API}/${user.id}/sessions`, admin)).json().result;
    expect((await a.call('DELETE', `${ADMIN_API}/${user.id}/sessions/${session.id}`, admin)).statusCode).toBe(200);
    expect((await b.info(token)).statusCode).toBe(401);

    const member = await createUser(t.database.db, { role: 'trader' });
    const memberToken = await a.login(member.username);
    expect((await b.info(memberToken)).statusCode).toBe(200);
    expect((await a.call('PUT', `${ADMIN_API}/${member.id}/disabled`, admin, { disabled: true })).statusCode).toBe(200);
    expect((await b.info(memberToken)).statusCode).toBe(401);
  });
});
