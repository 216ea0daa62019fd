import { describe, expect, it } from 'vitest';
import { flattenMenu, hasPermission, ROLE_GRANTS, WORKSPACE_MENU } from './permissions';

describe('permissions (spec §6)', () => {
  const role = [
    { permissionId: 'companyInfo', actionEntitySet: [{ action: 'query' }, { action: 'get' }] },
    { permissionId: 'index', actionEntitySet: [] },
  ];
  it('"permissionId.action" is true only when the role holds that action', () => {
    expect(hasPermission(role, 'companyInfo.query')).toBe(true);
    expect(hasPermission(role, 'companyInfo.edit')).toBe(false);
    expect(hasPermission(role, 'contract-list.query')).toBe(false);
    expect(hasPermission(role, 'index')).toBe(true);
  });
  it('grants only menu ids that exist, and every role opens the public pages', () => {
    const ids = new Set([...flattenMenu(WORKSPACE_MENU).map((m) => m.id), 'index', 'listing']);
    for (const [code, grants] of Object.entries(ROLE_GRANTS)) {
      for (const g of grants) expect(ids.has(g.permissionId), `${code}: ${g.permissionId}`).toBe(true);
      expect(grants.some((g) => g.permissionId === 'index')).toBe(true);
    }
  });
});
