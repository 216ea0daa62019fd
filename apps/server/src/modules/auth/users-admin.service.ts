import {
  formatDateTime,
  type InitialPasswordResult,
  type RoleOption,
  type RoleScope,
  type StaffCreateInput,
  type UserAdminQuery,
  type UserAdminRow,
  type UserSession,
  type UserState,
} from '@coalx/shared';
import { invalidating } from './session-cache';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { roles, sessions, users, type Role, type User } from '../../db/schema/index';
import { enterpriseIdsNamed, enterpriseNames } from '../enterprise/enterprise.service';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { uniqueViolation } from '../../lib/db-errors';
import { hashPassword } from '../../lib/password';
import { randomInitialPassword, usernameTaken } from './accounts.service';
import { SESSION_IDLE_MS } from './session.service';

/** What the admin's 用户管理 shows and does to accounts: list, create staff, disable, unlock, reset, roles, sessions. */

/** How the platform's own staff appear where an enterprise name would be. */
export const PLATFORM_NAME = '交易中心';

/** The built-in role a role is made from (角色管理 keeps it in `base_role`; built-in roles are their own base). */
export function roleBase(role: Pick<Role, 'baseRole'>): string {
  return role.baseRole;
}

const ENTERPRISE_BASES = ['trader', 'enterprise_admin'];
const STAFF_BASES = ['operator', 'admin'];

function scopeOf(base: string): RoleScope | null {
  if (ENTERPRISE_BASES.includes(base)) return 'enterprise';
  if (STAFF_BASES.includes(base)) return 'staff';
  return null;
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function stateOf(user: Pick<User, 'disabled' | 'lockedUntil'>, now: Date): UserState {
  if (user.disabled) return 'disabled';
  if (user.lockedUntil && user.lockedUntil > now) return 'locked';
  return 'normal';
}

/** The SQL of a presented state, so the filter and the column always agree. */
function stateCondition(state: UserState, now: Date): SQL {
  const locked = and(isNotNull(users.lockedUntil), gt(users.lockedUntil, now))!;
  if (state === 'disabled') return eq(users.disabled, true);
  if (state === 'locked') return and(eq(users.disabled, false), locked)!;
  return and(eq(users.disabled, false), or(isNull(users.lockedUntil), lte(users.lockedUntil, now)))!;
}

/** A session still usable: not ended, not past its 12 h, not idle too long (session.service's rule). */
function openSessionCondition(now: Date): SQL {
  return and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)))!;
}

export async function listUsers(db: Db, clock: Clock, query: UserAdminQuery) {
  const now = clock.now();
  const where = and(
    query.realname ? ilike(users.realname, escapeLike(query.realname)) : undefined,
    query.username ? ilike(users.username, escapeLike(query.username)) : undefined,
    query.enterprise
      ? or(inArray(users.enterpriseId, enterpriseIdsNamed(db, escapeLike(query.enterprise))), PLATFORM_NAME.includes(query.enterprise) ? isNull(users.enterpriseId) : undefined)
      : undefined,
    query.roleId ? eq(users.roleId, query.roleId) : undefined,
    query.state ? stateCondition(query.state, now) : undefined,
  );
  const [{ total }] = (await db.select({ total: count() }).from(users).where(where)) as [{ total: number }];
  const page = await db
    .select({ user: users, role: roles })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const names = await enterpriseNames(db, page.flatMap((r) => (r.user.enterpriseId === null ? [] : [r.user.enterpriseId])));
  const rows = page.map((r) => ({ ...r, enterpriseName: r.user.enterpriseId === null ? null : (names.get(r.user.enterpriseId) ?? null) }));
  const stats = await sessionStats(db, now, rows.map((r) => r.user.id));
  const records: UserAdminRow[] = rows.map(({ user, role, enterpriseName }) => {
    const state = stateOf(user, now);
    const s = stats.get(user.id);
    return {
      id: user.id,
      username: user.username,
      realname: user.realname,
      mobile: user.mobile,
      enterpriseId: user.enterpriseId,
      enterpriseName,
      roleId: role.id,
      roleName: role.name,
      roleBase: roleBase(role),
      state,
      lockedUntil: user.lockedUntil && user.lockedUntil > now ? formatDateTime(user.lockedUntil) : null,
      failedLoginCount: user.failedLoginCount,
      isFirstLogin: user.isFirstLogin,
      lastLoginAt: s?.lastLoginAt ? formatDateTime(s.lastLoginAt) : null,
      lastLoginIp: s?.lastLoginIp ?? null,
      openSessions: s?.open ?? 0,
      createdAt: formatDateTime(user.createdAt),
    };
  });
  return { records, total, current: query.pageNo, size: query.pageSize };
}

/** Last sign-in (the newest session) and open sessions of one page's users only, never of the whole table. */
async function sessionStats(db: Db, now: Date, userIds: number[]) {
  const out = new Map<number, { lastLoginAt: Date | null; lastLoginIp: string | null; open: number }>();
  if (userIds.length === 0) return out;
  const newest = await db
    .selectDistinctOn([sessions.userId], { userId: sessions.userId, createdAt: sessions.createdAt, ip: sessions.ip })
    .from(sessions)
    .where(inArray(sessions.userId, userIds))
    .orderBy(sessions.userId, desc(sessions.createdAt), desc(sessions.id));
  const open = await db
    .select({ userId: sessions.userId, open: count() })
    .from(sessions)
    .where(and(inArray(sessions.userId, userIds), openSessionCondition(now)))
    .groupBy(sessions.userId);
  for (const n of newest) out.set(n.userId, { lastLoginAt: n.createdAt, lastLoginIp: n.ip || null, open: 0 });
  for (const o of open) {
    const entry = out.get(o.userId) ?? { lastLoginAt: null, lastLoginIp: null, open: 0 };
    entry.open = Number(o.open);
    out.set(o.userId, entry);
  }
  return out;
}

/** Every role with the accounts it fits (a role of an unknown base fits none and is left out). */
export async function listRoleOptions(db: Db): Promise<RoleOption[]> {
  const rows = await db.select().from(roles).orderBy(asc(roles.id));
  return rows.flatMap((role) => {
    const base = roleBase(role);
    const scope = scopeOf(base);
    return scope ? [{ id: role.id, code: role.code, name: role.name, base, scope }] : [];
  });
}

async function findRole(db: Db | Tx, roleId: number): Promise<Role> {
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId)).limit(1);
  if (!role) throw notFound('角色不存在，请刷新后重新选择');
  return role;
}

/** The account with its role, locked for the rest of the transaction so two admins' changes run one after the other. */
async function lockUser(tx: Tx, id: number): Promise<{ user: User; role: Role }> {
  const [row] = await tx
    .select({ user: users, role: roles })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, id))
    .for('update', { of: users })
    .limit(1);
  if (!row) throw notFound('用户不存在');
  return row;
}

/**
 * Changes that may take away an enabled admin (disable, role change) run one at a time across processes: of two
 * admins disabling each other at once the second waits, then sees the first's change. One lock taken first, rather
 * than row locks on the target and then on every admin, so two such changes cannot deadlock.
 */
async function serialiseAdminChanges(tx: Tx) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('users-admin:enabled-admins'))`);
}

/** Refuses to leave the platform without an enabled admin (call after serialiseAdminChanges). */
async function assertAnotherEnabledAdmin(tx: Tx, targetId: number, message: string) {
  const adminRoleIds = (await tx.select().from(roles)).filter((r) => roleBase(r) === 'admin').map((r) => r.id);
  const admins = adminRoleIds.length
    ? await tx
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.roleId, adminRoleIds), eq(users.disabled, false)))
    : [];
  if (!admins.some((a) => a.id !== targetId)) throw businessRule(message);
}

function assertRoleFits(user: Pick<User, 'enterpriseId'>, role: Role) {
  const scope = scopeOf(roleBase(role));
  if (user.enterpriseId !== null && scope !== 'enterprise') throw businessRule('企业用户只能分配交易员或企业管理员类的角色');
  if (user.enterpriseId === null && scope !== 'staff') throw businessRule('交易中心人员只能分配运营或系统管理员类的角色');
}

async function endSessions(tx: Tx, clock: Clock, userId: number): Promise<number> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}

/** A trading-centre account with a first-login password shown once. */
export async function createStaff(db: Db, clock: Clock, input: StaffCreateInput): Promise<InitialPasswordResult> {
  const role = await findRole(db, input.roleId);
  assertRoleFits({ enterpriseId: null }, role);
  if (await usernameTaken(db, input.username)) throw appError('username_exists', `用户名 ${input.username} 已被使用，请换一个`);
  const initialPassword = randomInitialPassword();
  const passwordHash = await hashPassword(initialPassword);
  try {
    const [row] = await db
      .insert(users)
      .values({ ...input, passwordHash, enterpriseId: null, isFirstLogin: true, createdAt: clock.now(), updatedAt: clock.now() })
      .returning({ id: users.id, username: users.username });
    return { ...row!, initialPassword };
  } catch (err) {
    // two admins taking the same name at once: the unique index decides
    if (uniqueViolation(err)?.includes('username')) throw appError('username_exists', `用户名 ${input.username} 已被使用，请换一个`);
    throw err;
  }
}

/** Disabling ends every session of the account in the same transaction: its next request answers 401. */
export async function setUserDisabled(db: Db, clock: Clock, actor: Actor, id: number, disabled: boolean) {
  return invalidating(db, { users: [id] }, async (tx) => {
    await serialiseAdminChanges(tx);
    const { user, role } = await lockUser(tx, id);
    if (disabled && user.id === actor.userId) throw businessRule('不能停用自己的账号');
    if (disabled && !user.disabled && roleBase(role) === 'admin') {
      await assertAnotherEnabledAdmin(tx, user.id, '这是最后一个启用的系统管理员账号，不能停用');
    }
    await tx.update(users).set({ disabled, updatedAt: clock.now() }).where(eq(users.id, id));
    const ended = disabled ? await endSessions(tx, clock, id) : 0;
    return { username: user.username, ended };
  });
}

/** Clears a lock from wrong passwords and its count, so the account may sign in again at once. */
export async function unlockUser(db: Db, clock: Clock, id: number) {
  return db.transaction(async (tx) => {
    const { user } = await lockUser(tx, id);
    if (!user.lockedUntil || user.lockedUntil <= clock.now()) throw businessRule(`账号 ${user.username} 当前未被锁定，无需解锁`);
    await tx.update(users).set({ lockedUntil: null, failedLoginCount: 0, updatedAt: clock.now() }).where(eq(users.id, id));
    return { username: user.username };
  });
}

/**
 * A new first-login password (shown once): the old one stops working, every session ends and the next sign-in
 * must change it. Also clears a lock, as the holder is about to get a password that works.
 */
export async function resetPassword(db: Db, clock: Clock, actor: Actor, id: number): Promise<InitialPasswordResult> {
  if (id === actor.userId) throw businessRule('不能在这里重置自己的密码，请在右上角个人菜单中修改密码');
  const initialPassword = randomInitialPassword();
  const passwordHash = await hashPassword(initialPassword);
  return invalidating(db, { users: [id] }, async (tx) => {
    const { user } = await lockUser(tx, id);
    await tx
      .update(users)
      .set({ passwordHash, isFirstLogin: true, failedLoginCount: 0, lockedUntil: null, passwordChangedAt: clock.now(), updatedAt: clock.now() })
      .where(eq(users.id, id));
    await endSessions(tx, clock, id);
    return { id: user.id, username: user.username, initialPassword };
  });
}

/** Gives an account another existing role that fits it; it applies from the account's next request. */
export async function changeRole(db: Db, clock: Clock, actor: Actor, id: number, roleId: number) {
  return invalidating(db, { users: [id] }, async (tx) => {
    await serialiseAdminChanges(tx);
    const { user, role: current } = await lockUser(tx, id);
    const role = await findRole(tx, roleId);
    if (user.id === actor.userId && role.id !== current.id) throw businessRule('不能修改自己的角色');
    assertRoleFits(user, role);
    if (roleBase(current) === 'admin' && roleBase(role) !== 'admin' && !user.disabled) {
      await assertAnotherEnabledAdmin(tx, user.id, '这是最后一个启用的系统管理员账号，不能改为其他角色');
    }
    await tx.update(users).set({ roleId: role.id, updatedAt: clock.now() }).where(eq(users.id, id));
    return { username: user.username, roleName: role.name };
  });
}

async function assertUserExists(db: Db, id: number) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound('用户不存在');
}

export async function listSessions(db: Db, clock: Clock, actor: Actor, id: number): Promise<UserSession[]> {
  await assertUserExists(db, id);
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, id), openSessionCondition(clock.now())))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
  return rows.map((s) => ({
    id: s.id,
    createdAt: formatDateTime(s.createdAt),
    lastSeenAt: formatDateTime(s.lastSeenAt),
    expiresAt: formatDateTime(s.expiresAt),
    ip: s.ip,
    userAgent: s.userAgent,
    current: s.id === actor.sessionId,
  }));
}

export async function endSession(db: Db, clock: Clock, id: number, sessionId: number) {
  const ended = await invalidating(db, { sessions: [sessionId] }, (tx) =>
    tx
      .update(sessions)
      .set({ revokedAt: clock.now() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id }),
  );
  if (ended.length === 0) throw notFound('会话不存在或已结束');
}

export async function endAllSessions(db: Db, clock: Clock, id: number) {
  await assertUserExists(db, id);
  return invalidating(db, { users: [id] }, (tx) => endSessions(tx, clock, id));
}
