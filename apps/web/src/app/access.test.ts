import { describe, expect, it } from 'vitest';
import type { UserInfo } from '@coalx/shared';
import { userWith } from '@/test/fixtures';
import { assertRoles, buildAccess, hasAction, isActionAllowed, ROLES_REQUIRED_MESSAGE } from './access';

const user = userWith({ index: ['query', 'get'], companyInfo: ['query', 'get'], 'listingTrade-start': ['add', 'query'] });

describe('access', () => {
  it('turns the role permissions into booleans and action lists', () => {
    const access = buildAccess(user);
    expect(access.canIndex).toBe(true);
    expect(access.canListing).toBe(false);
    expect(access.actionList['listingTrade-start']).toEqual(['add', 'query']);
    expect(access.has('listingTrade-start.add')).toBe(true);
    expect(access.has('listingTrade-start.delete')).toBe(false);
  });

  it('hasAction checks permissionId.action', () => {
    expect(hasAction('companyInfo.get', user)).toBe(true);
    expect(hasAction('companyInfo.edit', user)).toBe(false);
    expect(hasAction('system-user.query', user)).toBe(false);
    expect(hasAction('companyInfo.get', null)).toBe(false);
  });

  it('an action-guarded element goes only when the permission exists but lacks the action (spec §6)', () => {
    const p = user.role.permissions;
    expect(isActionAllowed(p, 'listingTrade-start.add')).toBe(true);
    expect(isActionAllowed(p, 'listingTrade-start.delete')).toBe(false);
    // the permission is not in the role at all: the element stays
    expect(isActionAllowed(p, 'system-user.delete')).toBe(true);
    // bare action: the current page's permission
    expect(isActionAllowed(p, 'delete', 'listingTrade-start')).toBe(false);
    expect(isActionAllowed(p, 'add', 'listingTrade-start')).toBe(true);
    expect(isActionAllowed(p, 'delete', null)).toBe(true);
  });

  it('user info without a role holding a permission fails with the spec message', () => {
    expect(() => assertRoles(userWith({}))).toThrow(ROLES_REQUIRED_MESSAGE);
    expect(() => assertRoles({ ...user, role: undefined } as unknown as UserInfo)).toThrow('getInfo: roles must be a non-null array !');
    expect(() => assertRoles(null)).toThrow(ROLES_REQUIRED_MESSAGE);
    expect(() => assertRoles(user)).not.toThrow();
  });
});
