import { ROLE_GRANTS, type RoleCode, type RoleGrant } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users } from '../../db/schema/index';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { fundedEnterprise } from '../funds/funds.test-helpers';

/** A base role's grants as the role editor sends them, optionally without some items or actions. */
function baseGrants(base: RoleCode, options: { without?: string[]; dropAction?: { permissionId: string; action: string } } = {}): RoleGrant[] {
  return ROLE_GRANTS[base]
    .filter((g) => !options.without?.some((id) => g.permissionId === id || g.permissionId.startsWith(`${id}-`)))
    .map((g) => ({
      permissionId: g.permissionId,
      actions: g.actions.filter((a) => !(options.dropAction?.permissionId === g.permissionId && options.dropAction.action === a)),
    }));
}
const traderGrants = (options: Parameters<typeof baseGrants>[1] = {}) => baseGrants('trader', options);

describe.each(testDatabaseKinds())('角色管理 and the grants the server enforces, on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: { 'x-access-token': token }, ...(payload ? { payload } : {}) });

  async function giveRole(userId: number, roleId: number) {
    await t.database.db.update(users).set({ roleId }).where(eq(users.id, userId));
  }

  async function addRole(name: string, grants: RoleGrant[], baseRole = 'trader') {
    const res = await call('POST', '/sys/role/add', admin, { name, baseRole, description: '测试角色', grants });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { id: number; code: string; builtin: boolean; baseRole: string };
  }

  it('lists the four built-in roles with their base role and user counts; only the admin may', async () => {
    const trader = await signedIn(t.app, t.database.db, { role: 'trader' });
    const res = await call('GET', '/sys/role/list', admin);
    expect(res.statusCode).toBe(200);
    const list = res.json().result as { code: string; name: string; baseRole: string; builtin: boolean; userCount: number }[];
    expect(list.slice(0, 4).map((r) => [r.code, r.baseRole, r.builtin])).toEqual([
      ['trader', 'trader', true],
      ['enterprise_admin', 'enterprise_admin', true],
      ['operator', 'operator', true],
      ['admin', 'admin', true],
    ]);
    expect(list.find((r) => r.code === 'admin')!.userCount).toBeGreaterThanOrEqual(1);
    const refused = await call('GET', '/sys/role/list', trader.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('角色管理');
  });

  it('a role without 竞价交易 gets 403 on enrol and bid, and its menu has no 竞价交易; it is still a trader to the policies', async () => {
    const role = await addRole('无竞价交易员', traderGrants({ without: ['auctionTrade'] }));
    expect(role).toMatchObject({ builtin: false, baseRole: 'trader' });
    const member = await signedIn(t.app, t.database.db, { role: 'trader' });
    await giveRole(member.user.id, role.id);

    const enrol = await call('POST', '/api/bidEnroll/add', member.token, { tradeId: 'JJ20260101001', acceptRules: true, requestId: 'enrol-test-0001' });
    expect(enrol.statusCode).toBe(403);
    expect(enrol.json().message).toBe('您的角色没有「竞价报名」的新增权限，请联系系统管理员');
    const bid = await call('POST', '/api/bidRecord/bidAnswerApply', member.token, { tradeId: 'JJ20260101001', price: 60000 });
    expect(bid.statusCode).toBe(403);
    expect((await call('POST', '/api/myBidTradeList', member.token, { pageNo: 1, pageSize: 10 })).statusCode).toBe(403);
    // listing is still open to it, as to any trader
    expect((await call('POST', '/api/myListedTradeList', member.token, { pageNo: 1, pageSize: 10 })).statusCode).toBe(200);

    const menu = (await call('GET', '/sys/permission/getUserPermissionByToken', member.token)).json().result.menu[0];
    const ids = (menu.children as { id: string }[]).map((c) => c.id);
    expect(ids).toContain('listingTrade');
    expect(ids).not.toContain('auctionTrade');
    const info = (await call('GET', '/sys/user/info', member.token)).json().result;
    expect(info.role).toMatchObject({ id: String(role.id), code: 'trader', name: '无竞价交易员' });

    // the same enrol by a built-in trader passes the grant and reaches the service (unknown auction: 404)
    const trader = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await call('POST', '/api/bidEnroll/add', trader.token, { tradeId: 'JJ20260101001', acceptRules: true, requestId: 'enrol-test-0001' })).statusCode).not.toBe(403);
  });

  it('removing `export` from a role makes its funds journal export answer 403; restoring it answers 200; the grants version moves', async () => {
    const role = await addRole('导出测试角色', baseGrants('enterprise_admin'), 'enterprise_admin');
    const e = await fundedEnterprise(t.app, t.database.db);
    await giveRole(e.user.id, role.id);
    const exportJournal = () => call('GET', '/api/funds/journal/export', e.token);
    const before = await exportJournal();
    expect(before.statusCode).toBe(200);
    const versionBefore = before.headers['x-grants-version'];
    expect(versionBefore).toBeTruthy();

    const edit = (grants: RoleGrant[]) => call('PUT', '/sys/role/edit', admin, { id: role.id, name: '导出测试角色', description: '', grants });
    const removed = await edit(baseGrants('enterprise_admin', { dropAction: { permissionId: 'financial-payRecord', action: 'export' } }));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().message).toBe('角色「导出测试角色」已保存，用户下次加载菜单时生效');
    const refused = await exportJournal();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('您的角色没有「支付记录查询」的导出权限，请联系系统管理员');
    expect(refused.headers['x-grants-version']).not.toBe(versionBefore);
    // the list itself (no action named) still answers
    expect((await call('GET', '/api/funds/journal/list', e.token)).statusCode).toBe(200);
    const info = (await call('GET', '/sys/user/info', e.token)).json().result;
    expect(info.grantsVersion).toBe(refused.headers['x-grants-version']);

    expect((await edit(baseGrants('enterprise_admin'))).statusCode).toBe(200);
    const restored = await exportJournal();
    expect(restored.statusCode).toBe(200);
    expect(restored.headers['x-grants-version']).toBe(versionBefore);
  });

  it('grants beyond the base role are refused; the admin role keeps 角色管理', async () => {
    const beyond = await call('POST', '/sys/role/add', admin, {
      name: '越权角色',
      baseRole: 'trader',
      description: '',
      grants: [{ permissionId: 'system-role', actions: ['query'] }],
    });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toContain('基础角色「交易员」不能授予菜单');
    const moreActions = await call('POST', '/sys/role/add', admin, {
      name: '越权角色',
      baseRole: 'trader',
      description: '',
      grants: [{ permissionId: 'financial-payRecord', actions: ['delete'] }],
    });
    expect(moreActions.statusCode).toBe(400);
    expect(moreActions.json().message).toContain('删除');

    const [adminRole] = await t.database.db.select().from(roles).where(eq(roles.code, 'admin'));
    const lockOut = await call('PUT', '/sys/role/edit', admin, {
      id: adminRole!.id,
      name: adminRole!.name,
      description: '',
      grants: [{ permissionId: 'system-user', actions: ['query'] }],
    });
    expect(lockOut.statusCode).toBe(422);
    expect(lockOut.json().message).toContain('必须保留「角色管理」');
  });

  it('a page granted alone brings its folder; the tree offered follows the base role', async () => {
    const role = await addRole('只看支付记录', [{ permissionId: 'financial-payRecord', actions: ['query', 'get'] }]);
    const detail = (await call('GET', `/sys/role/detail?id=${role.id}`, admin)).json().result;
    expect(detail.grants.map((g: { permissionId: string }) => g.permissionId).sort()).toEqual(['financial', 'financial-payRecord']);
    const tree = (await call('GET', '/sys/role/menuTree?baseRole=trader', admin)).json().result as { id: string; actions: string[] }[];
    expect(tree.map((n) => n.id)).toContain('auctionTrade');
    expect(tree.map((n) => n.id)).not.toContain('system');
    const adminTree = (await call('GET', '/sys/role/menuTree?baseRole=admin', admin)).json().result as { id: string }[];
    expect(adminTree.map((n) => n.id)).toContain('system');
  });

  it('copy makes a new role with the same grants; names are unique', async () => {
    const source = await addRole('复制源角色', traderGrants({ without: ['listingTrade'] }));
    const copy = await call('POST', '/sys/role/copy', admin, { id: source.id, name: '复制后角色' });
    expect(copy.statusCode).toBe(200);
    const copied = copy.json().result;
    expect(copied).toMatchObject({ name: '复制后角色', baseRole: 'trader', builtin: false });
    expect(copied.id).not.toBe(source.id);
    const sourceGrants = (await call('GET', `/sys/role/detail?id=${source.id}`, admin)).json().result.grants;
    expect(copied.grants).toEqual(expect.arrayContaining(sourceGrants));
    expect(copied.grants).toHaveLength(sourceGrants.length);
    const again = await call('POST', '/sys/role/copy', admin, { id: source.id, name: '复制后角色' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('角色名称「复制后角色」已存在，请换一个名称');
  });

  it('built-in roles and roles with users cannot be deleted; an unused role can', async () => {
    const [trader] = await t.database.db.select().from(roles).where(eq(roles.code, 'trader'));
    const builtin = await call('POST', '/sys/role/delete', admin, { id: trader!.id });
    expect(builtin.statusCode).toBe(422);
    expect(builtin.json().message).toBe('「交易员」是内置角色，不能删除');

    const used = await addRole('有用户的角色', traderGrants());
    const member = await signedIn(t.app, t.database.db, { role: 'trader' });
    await giveRole(member.user.id, used.id);
    const withUsers = await call('POST', '/sys/role/delete', admin, { id: used.id });
    expect(withUsers.statusCode).toBe(422);
    expect(withUsers.json().message).toBe('角色「有用户的角色」下还有 1 个用户，请先为他们更换角色');

    const unused = await addRole('无用户的角色', traderGrants());
    const deleted = await call('POST', '/sys/role/delete', admin, { id: unused.id });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('角色已删除');
    expect((await call('GET', `/sys/role/detail?id=${unused.id}`, admin)).statusCode).toBe(404);
  });

  it('a role change reaches the grants through its event too (what other processes hear over NOTIFY)', async () => {
    const role = await addRole('事件测试角色', traderGrants());
    const member = await signedIn(t.app, t.database.db, { role: 'trader' });
    await giveRole(member.user.id, role.id);
    expect((await call('POST', '/api/myBidTradeList', member.token, { pageNo: 1, pageSize: 10 })).statusCode).toBe(200);
    // change the grants behind this process's back, then announce it as another server would
    const { rolePermissions } = await import('../../db/schema/index');
    const { and } = await import('drizzle-orm');
    await t.database.db.delete(rolePermissions).where(and(eq(rolePermissions.roleId, role.id), eq(rolePermissions.permissionId, 'auctionTrade')));
    const { publish } = await import('../../lib/events');
    await t.database.db.transaction((tx) => publish(tx, 'role.grants_changed', { roleId: role.id }));
    await expect.poll(async () => (await call('POST', '/api/myBidTradeList', member.token, { pageNo: 1, pageSize: 10 })).statusCode).toBe(403);
  });
});
