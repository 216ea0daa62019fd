import { ACTIONS, WORKSPACE_ROOT_ID, type MenuItem, type UserPermission } from '@coalx/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { permissions, rolePermissions } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';

type PermissionRow = typeof permissions.$inferSelect;

function toMenuItem(row: PermissionRow): MenuItem {
  return {
    id: row.id,
    parentId: row.parentId,
    title: row.title,
    icon: row.icon,
    path: row.path,
    url: row.path,
    component: row.component,
    redirect: row.redirect,
    key: row.id,
    name: row.id,
    meta: { title: row.title, ...(row.icon ? { icon: row.icon } : {}), show: !row.hidden },
  };
}

/** The workspace menu tree the actor's role (its real role, not the base) may open, rooted at /workspace (spec §2 Workspace). */
export async function getUserPermission(db: Db, actor: Actor): Promise<UserPermission> {
  const rows = await db
    .select({ permission: permissions, actions: rolePermissions.actions })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(eq(rolePermissions.roleId, actor.roleId ?? -1), eq(permissions.isMenu, true)))
    .orderBy(asc(permissions.sort));
  const items = new Map(rows.map((r) => [r.permission.id, { ...toMenuItem(r.permission), children: [] as MenuItem[] }]));
  for (const item of items.values()) {
    if (item.parentId && items.has(item.parentId)) items.get(item.parentId)!.children.push(item);
  }
  for (const item of items.values()) if (item.children.length === 0) delete (item as MenuItem).children;
  const root = items.get(WORKSPACE_ROOT_ID);
  const actionKeys = new Set(rows.flatMap((r) => r.actions));
  return {
    menu: root ? [root] : [],
    auth: [...actionKeys].map((action) => ({ action, describe: ACTIONS[action as keyof typeof ACTIONS] ?? action })),
  };
}

export async function permissionExists(db: Db, ids: string[]) {
  return db.select({ id: permissions.id }).from(permissions).where(inArray(permissions.id, ids));
}
