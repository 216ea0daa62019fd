import { flattenMenu, WORKSPACE_MENU } from '@coalx/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

describe.each(testDatabaseKinds())('system endpoints on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { 'x-access-token': token } : {} });

  it('health answers 200 when the database answers', async () => {
    const response = await get('/trade-api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves every dictionary of the specification to visitors', async () => {
    const dicts = (await get('/trade-api/sys/dict/getAllDictItems')).json().result;
    for (const code of ['trade_type', 'bid_hang_state_hp', 'hang_state_total_trans', 'hang_state_total_select']) {
      expect(dicts[code].length).toBeGreaterThan(0);
    }
    expect(dicts.trade_type).toEqual([
      { value: '0', text: '挂牌销售' },
      { value: '1', text: '挂牌采购' },
      { value: '2', text: '竞价销售' },
      { value: '3', text: '竞价采购' },
    ]);
  });

  it('lists the PayPassword and UkeySwitch switches', async () => {
    const list = (await get('/trade-api/sys/switch/list')).json().result;
    expect(list.map((s: { code: string }) => s.code).sort()).toEqual(['PayPassword', 'UkeySwitch']);
    expect(list.every((s: { content: string }) => s.content === '0' || s.content === '1')).toBe(true);
  });

  it('builds the workspace menu per role, rooted at /workspace', async () => {
    const menuOf = async (role: 'trader' | 'operator' | 'admin') => {
      const { token } = await signedIn(t.app, t.database.db, { role });
      return (await get('/trade-api/sys/permission/getUserPermissionByToken', token)).json().result;
    };
    const trader = await menuOf('trader');
    expect(trader.menu).toHaveLength(1);
    const root = trader.menu[0];
    // the workspace opens on the 工作台首页 (待办), the first entry of every role's menu
    expect(root).toMatchObject({ path: '/workspace', redirect: '/workbench', meta: { title: '工作台', show: true } });
    expect(root.children[0]).toMatchObject({ id: 'workbench', path: '/workbench', component: 'Workbench', meta: { title: '工作台首页' } });
    const ids = flattenMenu(root).map((m: { id: string }) => m.id);
    expect(ids).toContain('listingTrade-query');
    expect(ids).not.toContain('operation-enterpriseAudit');
    const listing = root.children.find((c: { id: string }) => c.id === 'listingTrade');
    expect(listing.children[0]).toMatchObject({ parentId: 'listingTrade', component: 'ListingStart', key: 'listingTrade-start' });

    const operatorIds = flattenMenu((await menuOf('operator')).menu[0]).map((m: { id: string }) => m.id);
    expect(operatorIds).toContain('operation-enterpriseAudit');
    expect(operatorIds).not.toContain('listingTrade-start');
    const adminIds = flattenMenu((await menuOf('admin')).menu[0]).map((m: { id: string }) => m.id);
    expect(adminIds).toContain('system-switch');
    expect(operatorIds[1]).toBe('workbench');
    expect(adminIds[1]).toBe('workbench');
    // every menu id the roles see exists in the shared definition
    const known = new Set(flattenMenu(WORKSPACE_MENU).map((m) => m.id));
    expect([...ids, ...operatorIds, ...adminIds].every((id) => known.has(id))).toBe(true);
  });

  it('documents every API route in the OpenAPI document', async () => {
    const doc = (await get('/trade-api/docs/json')).json();
    const documented = new Set(Object.keys(doc.paths));
    for (const path of [
      '/trade-api/health',
      '/trade-api/sys/login',
      '/trade-api/sys/logout',
      '/trade-api/sys/user/info',
      '/trade-api/sys/user/updatePassword',
      '/trade-api/sys/permission/getUserPermissionByToken',
      '/trade-api/sys/dict/getAllDictItems',
      '/trade-api/sys/switch/list',
      '/trade-api/sys/enterprise/info',
      '/trade-api/api/common/upload',
      '/trade-api/api/common/static/{*}',
    ]) {
      expect(documented, path).toContain(path);
    }
    expect((await get('/trade-api/docs')).statusCode).toBeLessThan(400);
  });
});
