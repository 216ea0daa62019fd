import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Grant } from '../../lib/policy';
import { rolePermissions, roles, users } from '../../db/schema/index';
import type { Audience } from './types';

export interface Recipient {
  userId: number;
  mobile: string;
  enterpriseId: number | null;
}

/** The grant's menu item and, when named, its action (`contract-sign.edit`). */
function grantParts(grant: string): { item: string; action: string | null } {
  const dot = grant.lastIndexOf('.');
  return dot < 0 ? { item: grant, action: null } : { item: grant.slice(0, dot), action: grant.slice(dot + 1) };
}

/** The role-permission rows that hold one of the grants. */
function anyOf(grant: Grant) {
  const grants: readonly string[] = typeof grant === 'string' ? [grant] : grant;
  return or(
    ...grants.map((g) => {
      const { item, action } = grantParts(g);
      return and(eq(rolePermissions.permissionId, item), action === null ? undefined : sql`${rolePermissions.actions} @> ${JSON.stringify([action])}::jsonb`);
    }),
  );
}

const STAFF_BASE_ROLES = ['operator', 'admin'];

/** The enabled users an audience names, each once. */
export async function recipientsOf(tx: Tx, audience: Audience): Promise<Recipient[]> {
  const columns = { userId: users.id, mobile: users.mobile, enterpriseId: users.enterpriseId };
  if ('userIds' in audience) {
    if (audience.userIds.length === 0) return [];
    return tx.select(columns).from(users).where(and(inArray(users.id, audience.userIds), eq(users.disabled, false)));
  }
  const holds = and(eq(rolePermissions.roleId, users.roleId), anyOf('grant' in audience ? audience.grant : audience.staffGrant));
  if ('grant' in audience) {
    const enterpriseIds = [...new Set(audience.enterpriseIds)];
    if (enterpriseIds.length === 0) return [];
    return tx
      .selectDistinct(columns)
      .from(users)
      .innerJoin(rolePermissions, holds)
      .where(and(inArray(users.enterpriseId, enterpriseIds), eq(users.disabled, false)));
  }
  return tx
    .selectDistinct(columns)
    .from(users)
    .innerJoin(rolePermissions, holds)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(inArray(roles.baseRole, STAFF_BASE_ROLES), eq(users.disabled, false)));
}
