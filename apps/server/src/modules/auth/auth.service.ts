import {
  ACTIONS,
  SYSTEM_PARAMETERS,
  formatDateTime,
  type ActionKey,
  type LoginResult,
  type UpdatePasswordInput,
  type UserInfo,
} from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { permissions, rolePermissions, roles, users, type User } from '../../db/schema/index';
import { findEnterprise } from '../enterprise/enterprise.service';
import { appError } from '../../errors';
import type { Clock } from '../../lib/clock';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/password';
import type { Actor } from '../../lib/actor';
import { getEnterpriseInfo } from '../enterprise/enterprise.service';
import { createSession, revokeOtherSessions } from './session.service';
import { authCacheOf, cacheUsable, invalidating } from './session-cache';
import { grantsOf } from './grants.service';
import { dictionaryVersion } from '../system/dict-admin.service';
import { parameterNumber } from '../system/calendar';

/** The defaults; the admin's 系统参数 login_lock_failures and login_lock_minutes apply. */
export const MAX_FAILED_LOGINS = SYSTEM_PARAMETERS.login_lock_failures.default;

async function loginLock(db: Db) {
  return { failures: await parameterNumber(db, 'login_lock_failures'), minutes: await parameterNumber(db, 'login_lock_minutes') };
}

function lockedMessage(until: Date, failures: number) {
  return `密码连续错误 ${failures} 次，账号已锁定至 ${formatDateTime(until)}，请稍后再试`;
}

/** Counts a wrong password in one statement, so concurrent attempts cannot slip past the limit. */
async function recordFailedLogin(db: Db, clock: Clock, userId: number, lock: { failures: number; minutes: number }) {
  const now = clock.now();
  const lockUntil = new Date(now.getTime() + lock.minutes * 60_000);
  const [row] = await db
    .update(users)
    .set({
      // a lock that has run out starts the count afresh
      failedLoginCount: sql`CASE WHEN ${users.lockedUntil} IS NOT NULL AND ${users.lockedUntil} <= ${now} THEN 1 ELSE ${users.failedLoginCount} + 1 END`,
      lockedUntil: sql`CASE WHEN (CASE WHEN ${users.lockedUntil} IS NOT NULL AND ${users.lockedUntil} <= ${now} THEN 1 ELSE ${users.failedLoginCount} + 1 END) >= ${lock.failures} THEN ${lockUntil}::timestamptz ELSE NULL END`,
    })
    .where(eq(users.id, userId))
    .returning({ failedLoginCount: users.failedLoginCount, lockedUntil: users.lockedUntil });
  return row!;
}

export async function login(
  db: Db,
  clock: Clock,
  input: { username: string; password: string },
  meta: { ip: string; userAgent: string },
): Promise<LoginResult> {
  const [user] = await db.select().from(users).where(eq(users.username, input.username)).limit(1);
  if (!user) {
    await verifyPassword(input.password, await decoyHash());
    throw appError('bad_credentials');
  }
  const now = clock.now();
  const lock = await loginLock(db);
  if (user.lockedUntil && user.lockedUntil > now) throw appError('account_locked', lockedMessage(user.lockedUntil, lock.failures));
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    const { lockedUntil } = await recordFailedLogin(db, clock, user.id, lock);
    if (lockedUntil) throw appError('account_locked', lockedMessage(lockedUntil, lock.failures));
    // the same answer as for an unknown username: the count of tries left would tell that the account exists
    throw appError('bad_credentials');
  }
  if (user.disabled) throw appError('account_disabled');
  await assertEnterpriseMayTrade(db, user);
  await db.update(users).set({ failedLoginCount: 0, lockedUntil: null }).where(eq(users.id, user.id));
  const token = await createSession(db, clock, user.id, meta);
  return { token, userInfo: await getUserInfo(db, user.id), enterPriseInfo: await getEnterpriseInfo(db, user.enterpriseId) };
}

/** Nobody signs in for an enterprise the trading centre has not approved. */
async function assertEnterpriseMayTrade(db: Db, user: User) {
  if (user.enterpriseId === null) return;
  const enterprise = await findEnterprise(db, user.enterpriseId);
  if (!enterprise || enterprise.auditStatus === 'approved') return;
  if (enterprise.auditStatus === 'rejected') {
    throw appError('enterprise_not_audited', `企业审核未通过${enterprise.auditReason ? `：${enterprise.auditReason}` : ''}，请修改资料后重新提交`);
  }
  throw appError('enterprise_not_audited');
}

export async function getUserInfo(db: Db, userId: number): Promise<UserInfo> {
  const [row] = await db
    .select({ user: users, role: roles })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw appError('token_invalid');
  const grants = await db
    .select({ permissionId: rolePermissions.permissionId, title: permissions.title, actions: rolePermissions.actions })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, row.role.id))
    .orderBy(permissions.sort);
  const { user, role } = row;
  return {
    id: String(user.id),
    username: user.username,
    realname: user.realname,
    name: user.realname,
    avatar: user.avatar,
    mobile: maskMobile(user.mobile),
    isFirstLogin: user.isFirstLogin ? '1' : '0',
    grantsVersion: await grantsOf(db).version(role.id),
    dictVersion: await dictionaryVersion(db),
    role: {
      id: String(role.id),
      // the base role, as the actor's: the web compares it like the server's policies do; name is the real role's
      code: role.baseRole,
      name: role.name,
      permissions: grants.map((g) => ({
        permissionId: g.permissionId,
        permissionName: g.title,
        actionEntitySet: g.actions.map((action) => ({
          action,
          describe: ACTIONS[action as ActionKey] ?? action,
          defaultCheck: false,
        })),
      })),
    },
  };
}

/**
 * The `sys/user/info` answer as JSON bytes, from memory after the first read (session-cache.ts drops it on every
 * change of the user, its role or grants). grantsVersion and dictVersion are put in per answer, both from memory.
 */
export async function userInfoJson(db: Db, userId: number): Promise<string> {
  const cache = authCacheOf(db);
  const usable = cacheUsable(db);
  let entry = usable ? cache.userInfo.get(userId) : undefined;
  if (entry === undefined) {
    const epoch = cache.epoch;
    const { grantsVersion: _grants, dictVersion: _dict, ...rest } = await getUserInfo(db, userId);
    entry = { roleId: Number(rest.role.id), body: JSON.stringify(rest) };
    if (usable && epoch === cache.epoch) cache.userInfo.set(userId, entry);
  }
  let dictVersion = usable ? cache.dictVersion : null;
  if (dictVersion === null) {
    const epoch = cache.epoch;
    dictVersion = await dictionaryVersion(db);
    if (usable && epoch === cache.epoch) cache.dictVersion = dictVersion;
  }
  const grantsVersion = await grantsOf(db).version(entry.roleId);
  return `{"grantsVersion":${JSON.stringify(grantsVersion)},"dictVersion":${dictVersion},${entry.body.slice(1)}`;
}

function maskMobile(mobile: string) {
  return /^\d{11}$/.test(mobile) ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;
}

export async function updatePassword(db: Db, clock: Clock, actor: Actor, input: UpdatePasswordInput) {
  const [user] = await db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!user) throw appError('token_invalid');
  if (!(await verifyPassword(input.oldPassword, user.passwordHash))) throw appError('wrong_old_password');
  if (input.oldPassword === input.password) throw appError('password_same_as_old');
  const passwordHash = await hashPassword(input.password);
  // the user's sessions and user info change: every process drops them before this answers
  await invalidating(db, { users: [user.id] }, async (tx) => {
    // compare-and-set on the old hash: of two simultaneous changes only the first wins
    const changed = await tx
      .update(users)
      .set({ passwordHash, isFirstLogin: false, passwordChangedAt: clock.now(), updatedAt: clock.now() })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    if (changed.length === 0) throw appError('conflict', '密码已被修改，请刷新后重试');
    await revokeOtherSessions(tx, clock, user.id, actor.sessionId);
  });
}
