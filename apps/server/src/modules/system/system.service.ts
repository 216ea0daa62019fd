import { ACTIONS, WORKSPACE_ROOT_ID, type DictMap, type MenuItem, type SystemSwitch, type UserPermission } from '@coalx/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dictItems, permissions, rolePermissions, roles, switches } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';

// Dictionaries are read by every page load and change only when the admin edits them: kept in memory, dropped on
// edit, and re-read at least every minute so several processes converge without coordination.
const DICT_CACHE_MS = 60_000;
const dictCache = new WeakMap<Db, { map: DictMap; loadedAt: number }>();

export function invalidateDictCache(db: Db) {
  dictCache.delete(db);
}

export async function getAllDictItems(db: Db): Promise<DictMap> {
  const cached = dictCache.get(db);
  if (cached && Date.now() - cached.loadedAt < DICT_CACHE_MS) return cached.map;
  const map = await readAllDictItems(db);
  dictCache.set(db, { map, loadedAt: Date.now() });
  return map;
}

async function readAllDictItems(db: Db): Promise<DictMap> {
  const rows = await db.select().from(dictItems).orderBy(asc(dictItems.dictCode), asc(dictItems.sort));
  const map: DictMap = {};
  for (const row of rows) (map[row.dictCode] ??= []).push({ value: row.value, text: row.text });
  return map;
}

export async function listSwitches(db: Db): Promise<SystemSwitch[]> {
  const rows = await db.select().from(switches).orderBy(asc(switches.code));
  return rows.map((r) => ({ code: r.code, content: r.content === '1' ? '1' : '0', remark: r.remark }));
}

export async function updateSwitch(db: Db, code: string, content: '0' | '1') {
  await db.update(switches).set({ content, updatedAt: new Date() }).where(eq(switches.code, code));
}

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

/** The workspace menu tree the actor's role may open, rooted at /workspace (spec §2 Workspace). */
export async function getUserPermission(db: Db, actor: Actor): Promise<UserPermission> {
  const rows = await db
    .select({ permission: permissions, actions: rolePermissions.actions })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(eq(roles.code, actor.role), eq(permissions.isMenu, true)))
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
