import { PAGE_PERMISSIONS, WORKSPACE_MENU, flattenMenu } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePermissions, roles, users } from './db/schema/index';
import { grantChecks, isWriteMethod } from './plugins/grants';
import { grantsOf } from './modules/auth/grants.service';
import { createUser, loginAs } from './test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from './test/test-app';

/** Actions that read: a route asking only these is open to a read-only role. */
const READ_ACTIONS = new Set(['query', 'get']);

/** A route's checks when each names an action beyond reading: a role holding only 查询/查看 holds none of them. */
function writeChecks(permission: Parameters<typeof grantChecks>[0]): readonly string[] | null {
  const checks = grantChecks(permission);
  if (!checks) return null;
  const actions = checks.map((check) => (check.includes('.') ? check.slice(check.lastIndexOf('.') + 1) : null));
  return actions.every((action) => action !== null && !READ_ACTIONS.has(action)) ? checks : null;
}

/** A path of the route with every parameter filled: the grant is checked before the parameters are read. */
function concretePath(url: string): string {
  return url.replace(/:[A-Za-z]+/g, '1').replace('*', 'x');
}

/** The route table held to issue 27 item 1: one declaration per route, checked before anything else. */
describe.each(testDatabaseKinds())('route grants on %s', (kind) => {
  let t: TestApp;
  let readOnlyToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // a role holding 查询 and 查看 on every menu item and page, and nothing else
    const db = t.database.db;
    const [role] = await db.insert(roles).values({ code: 'read_only_everywhere', name: '全局只读', baseRole: 'operator' }).returning();
    const items = [...flattenMenu(WORKSPACE_MENU).map((item) => item.id), ...PAGE_PERMISSIONS.map((page) => page.id)];
    await db.insert(rolePermissions).values(items.map((permissionId) => ({ roleId: role!.id, permissionId, actions: ['query', 'get'] })));
    await grantsOf(db).reload();
    const user = await createUser(db, { role: 'operator' });
    await db.update(users).set({ roleId: role!.id }).where(eq(users.id, user.id));
    readOnlyToken = await loginAs(t.app, user.username);
  }, 60_000);
  afterAll(async () => t?.close());

  it('every state-changing route names a menu item and an action (or is a visitor or own-account route)', () => {
    const routes = t.app.routeGrants;
    expect(routes.length).toBeGreaterThan(200);
    const labelled = t.app.auditTrail.writeRoutes.filter((route) => route.label && route.url.startsWith('/trade-api'));
    const bare = labelled
      .map((route) => ({ ...route, permission: routes.find((r) => r.method === route.method && r.url === route.url)!.permission }))
      .filter(({ permission }) => permission !== 'public' && permission !== 'self' && !writeChecks(permission))
      .map(({ method, url, permission }) => `${method} ${url} ${JSON.stringify(permission)}`);
    expect(bare).toEqual([]);
  });

  it('the OpenAPI document carries each operation\'s declaration as x-permission', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/trade-api/docs/json' })).json() as { paths: Record<string, Record<string, { 'x-permission'?: unknown }>> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    expect(operations.length).toBeGreaterThan(200);
    expect(operations.filter(({ operation }) => operation['x-permission'] === undefined).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  });

  it('a role holding only 查询/查看 on every menu gets 403 on every write, whatever it sends, before the body is read', async () => {
    const writes = t.app.routeGrants.filter((route) => writeChecks(route.permission));
    expect(writes.filter((route) => isWriteMethod(route.method)).length).toBeGreaterThan(100);
    const answered: string[] = [];
    for (const route of writes) {
      const url = concretePath(route.url);
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      // no body, and a body that breaks every rule: the answer is the same 403
      for (const payload of [undefined, '{"not json']) {
        const response = await t.app.inject({ method, url, headers: { 'x-access-token': readOnlyToken, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
        if (response.statusCode !== 403 || response.json().code !== 403) answered.push(`${route.method} ${route.url} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        else expect(response.json().message).toMatch(/^您的角色没有「.+」的.+权限，请联系系统管理员$/);
      }
    }
    expect(answered).toEqual([]);
  }, 120_000);

  it('the same role still reads: its lists answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/api/contract/list', headers: { 'x-access-token': readOnlyToken } });
    expect(response.statusCode, response.body).toBe(200);
  });
});
