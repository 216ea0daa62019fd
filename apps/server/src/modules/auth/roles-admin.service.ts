import { randomBytes } from 'node:crypto';
import { invalidating } from './session-cache';
import {
  ACTIONS,
  IMPLIED_PERMISSIONS,
  MENU_PARENT,
  ROLES,
  ROLE_GRANTS,
  formatDateTime,
  type ActionKey,
  type RoleAddInput,
  type RoleCode,
  type RoleCopyInput,
  type RoleDetail,
  type RoleEditInput,
  type RoleGrant,
  type RoleRecord,
} from '@coalx/shared';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rolePermissions, roles, users, type Role } from '../../db/schema/index';
import { badRequest, businessRule, conflict, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { grantsOf } from './grants.service';

/**
 * 角色管理. A role's grants never exceed its base role's ROLE_GRANTS (menu items and, per item, actions): the admin
 * narrows a base role, and the policies, which compare base roles, stay the outer fence. Every change reloads the
 * grants this process enforces before answering and tells the other processes (plugins/grants.ts).
 */

/** What the admin's own role must keep, or nobody could open 角色管理 again. */
const ADMIN_KEEPS = ['system', 'system-role'];

function toRecord(role: Role, userCount: number): RoleRecord {
  const baseRole = role.baseRole as RoleCode;
  return {
    id: role.id,
    code: role.code,
    name: role.name,
    baseRole,
    baseRoleName: ROLES[baseRole] ?? baseRole,
    builtin: role.builtin,
    description: role.description,
    userCount,
    updatedAt: formatDateTime(role.updatedAt),
  };
}

export async function listRoles(db: Db): Promise<RoleRecord[]> {
  const counts = await db.select({ roleId: users.roleId, n: count() }).from(users).groupBy(users.roleId);
  const byRole = new Map(counts.map((c) => [c.roleId, Number(c.n)]));
  const rows = await db.select().from(roles).orderBy(asc(roles.id));
  // built-in roles first, in their usual order, then the admin's own by creation
  const order = Object.keys(ROLES);
  const rank = (r: Role) => (r.builtin ? order.indexOf(r.code) : order.length);
  return rows.sort((a, b) => rank(a) - rank(b) || a.id - b.id).map((r) => toRecord(r, byRole.get(r.id) ?? 0));
}

async function findRole(db: Db | Tx, id: number): Promise<Role> {
  const [role] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  if (!role) throw notFound('角色不存在或已被删除');
  return role;
}

async function userCountOf(db: Db | Tx, roleId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.roleId, roleId));
  return Number(row?.n ?? 0);
}

export async function roleDetail(db: Db, id: number): Promise<RoleDetail> {
  const role = await findRole(db, id);
  const grants = await db
    .select({ permissionId: rolePermissions.permissionId, actions: rolePermissions.actions })
    .from(rolePermissions)
    .where(eq(rolePermissions.roleId, id));
  return {
    ...toRecord(role, await userCountOf(db, id)),
    grants: grants.filter((g) => !IMPLIED_PERMISSIONS.has(g.permissionId)),
  };
}

/**
 * The grants to save for a role of `base`: the ticked items within the base's menu and actions, plus the folders
 * of every ticked page (the menu cannot show a page without its folder) and the implied public pages.
 */
export function normaliseGrants(base: RoleCode, input: RoleGrant[]): { permissionId: string; actions: ActionKey[] }[] {
  const offered = new Map(ROLE_GRANTS[base].map((g) => [g.permissionId, g.actions]));
  const chosen = new Map<string, Set<ActionKey>>();
  for (const grant of input) {
    if (IMPLIED_PERMISSIONS.has(grant.permissionId)) continue;
    const allowed = offered.get(grant.permissionId);
    if (!allowed) throw badRequest(`基础角色「${ROLES[base]}」不能授予菜单「${grant.permissionId}」`);
    const extra = grant.actions.filter((a) => !allowed.includes(a)).map((a) => ACTIONS[a]);
    if (extra.length) throw badRequest(`基础角色「${ROLES[base]}」在该菜单上没有「${extra.join('、')}」操作`);
    const set = chosen.get(grant.permissionId) ?? new Set();
    for (const a of grant.actions) set.add(a);
    chosen.set(grant.permissionId, set);
  }
  for (const id of [...chosen.keys()]) {
    // a folder added for its page holds no action of its own
    for (let parent = MENU_PARENT.get(id); parent; parent = MENU_PARENT.get(parent)) {
      if (offered.has(parent) && !chosen.has(parent)) chosen.set(parent, new Set());
    }
  }
  for (const id of IMPLIED_PERMISSIONS) {
    const actions = offered.get(id);
    if (actions) chosen.set(id, new Set(actions));
  }
  return [...chosen.entries()].map(([permissionId, actions]) => ({ permissionId, actions: [...actions] }));
}

async function assertNameFree(tx: Tx, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(exceptId === undefined ? eq(roles.name, name) : and(eq(roles.name, name), ne(roles.id, exceptId)))
    .limit(1);
  if (taken) throw conflict(`角色名称「${name}」已存在，请换一个名称`);
}

async function saveGrants(tx: Tx, roleId: number, grants: { permissionId: string; actions: ActionKey[] }[]) {
  await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  if (grants.length) await tx.insert(rolePermissions).values(grants.map((g) => ({ roleId, ...g })));
}

/** Saves, then makes this process and (through NOTIFY) every other enforce the new grants. */
async function changeRole<T>(db: Db, work: (tx: Tx) => Promise<{ roleId: number; result: T }>): Promise<T> {
  // every actor (base role) and user info (role name, grants) may change: all are dropped, in every process
  const { result } = await invalidating(db, { all: true }, async (tx) => {
    const done = await work(tx);
    await publish(tx, 'role.grants_changed', { roleId: done.roleId });
    return done;
  });
  await grantsOf(db).reload();
  return result;
}

/** Codes of the admin's roles are made up, never typed: only the built-in codes mean anything to the code. */
function newRoleCode() {
  return `custom_${randomBytes(5).toString('hex')}`;
}

export async function addRole(db: Db, clock: Clock, input: RoleAddInput): Promise<RoleDetail> {
  const grants = normaliseGrants(input.baseRole, input.grants);
  const id = await changeRole(db, async (tx) => {
    await assertNameFree(tx, input.name);
    const now = clock.now();
    const [row] = await tx
      .insert(roles)
      .values({ code: newRoleCode(), name: input.name, baseRole: input.baseRole, builtin: false, description: input.description, createdAt: now, updatedAt: now })
      .returning({ id: roles.id });
    await saveGrants(tx, row!.id, grants);
    return { roleId: row!.id, result: row!.id };
  });
  return roleDetail(db, id);
}

export async function copyRole(db: Db, clock: Clock, input: RoleCopyInput): Promise<RoleDetail> {
  const source = await findRole(db, input.id);
  const id = await changeRole(db, async (tx) => {
    await assertNameFree(tx, input.name);
    const grants = await tx.select().from(rolePermissions).where(eq(rolePermissions.roleId, source.id));
    const now = clock.now();
    const [row] = await tx
      .insert(roles)
      .values({ code: newRoleCode(), name: input.name, baseRole: source.baseRole, builtin: false, description: source.description, createdAt: now, updatedAt: now })
      .returning({ id: roles.id });
    await saveGrants(tx, row!.id, grants.map((g) => ({ permissionId: g.permissionId, actions: g.actions as ActionKey[] })));
    return { roleId: row!.id, result: row!.id };
  });
  return roleDetail(db, id);
}

export async function editRole(db: Db, clock: Clock, input: RoleEditInput): Promise<RoleDetail> {
  const role = await findRole(db, input.id);
  const grants = normaliseGrants(role.baseRole as RoleCode, input.grants);
  if (role.builtin && role.code === 'admin') {
    const kept = new Set(grants.map((g) => g.permissionId));
    if (!ADMIN_KEEPS.every((id) => kept.has(id))) throw businessRule('系统管理员角色必须保留「角色管理」菜单，否则将无人能再修改角色');
  }
  await changeRole(db, async (tx) => {
    await assertNameFree(tx, input.name, role.id);
    await tx.update(roles).set({ name: input.name, description: input.description, updatedAt: clock.now() }).where(eq(roles.id, role.id));
    await saveGrants(tx, role.id, grants);
    return { roleId: role.id, result: null };
  });
  return roleDetail(db, role.id);
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  const role = await findRole(db, id);
  if (role.builtin) throw businessRule(`「${role.name}」是内置角色，不能删除`);
  await changeRole(db, async (tx) => {
    // counted inside the transaction: a user given the role a moment ago keeps the role alive (the FK refuses too)
    const users = await userCountOf(tx, role.id);
    if (users > 0) throw businessRule(`角色「${role.name}」下还有 ${users} 个用户，请先为他们更换角色`);
    await tx.delete(roles).where(eq(roles.id, role.id));
    return { roleId: role.id, result: null };
  });
}
