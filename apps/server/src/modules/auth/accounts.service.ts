import { randomInt } from 'node:crypto';
import { invalidateWithin, invalidating } from './session-cache';
import { ROLES, formatDateTime, type Member, type RoleCode } from '@coalx/shared';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { roles, sessions, users, type User } from '../../db/schema/index';
import { appError } from '../../errors';
import type { Clock } from '../../lib/clock';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/password';
import { uniqueViolation } from '../../lib/db-errors';

/** User accounts of enterprises: the registrant (enterprise admin) and the traders the admin adds. */

export async function usernameTaken(db: Db | Tx, username: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return Boolean(row);
}

export async function createAccount(
  tx: Tx,
  input: { username: string; realname: string; mobile: string; passwordHash: string; role: RoleCode; enterpriseId: number; isFirstLogin: boolean },
): Promise<User> {
  const [role] = await tx.select().from(roles).where(eq(roles.code, input.role)).limit(1);
  const { role: _role, ...values } = input;
  try {
    const [row] = await tx.insert(users).values({ ...values, roleId: role!.id }).returning();
    return row!;
  } catch (err) {
    if (uniqueViolation(err)?.includes('username')) throw appError('username_exists', `用户名 ${input.username} 已被使用，请换一个`);
    throw err;
  }
}

/** The registrant proves who they are with the account they chose; same timing whether the account exists or not. */
export async function verifyCredentials(db: Db, clock: Clock, username: string, password: string): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  if (!user) {
    await verifyPassword(password, await decoyHash());
    throw appError('bad_credentials');
  }
  if (user.lockedUntil && user.lockedUntil > clock.now()) throw appError('account_locked', '密码连续错误次数过多，账号已锁定，请稍后再试');
  if (!(await verifyPassword(password, user.passwordHash))) throw appError('bad_credentials');
  if (user.disabled) throw appError('account_disabled');
  return user;
}

/** The enterprise admin who registered the enterprise (its first admin account). */
export async function registrantOf(db: Db | Tx, enterpriseId: number): Promise<User | null> {
  const [row] = await db
    .select({ user: users })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.enterpriseId, enterpriseId), eq(roles.code, 'enterprise_admin')))
    .orderBy(asc(users.id))
    .limit(1);
  return row?.user ?? null;
}

/** An account's display names (real name, login), for records that say who applied; null when unknown. */
export async function accountNames(db: Db | Tx, userId: number): Promise<{ realname: string; username: string } | null> {
  const [row] = await db.select({ realname: users.realname, username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** The real names of accounts by id, for records that show who entered them (a weigh ticket). */
export async function realnamesOf(db: Db | Tx, userIds: readonly (number | null)[]): Promise<Map<number, string>> {
  const ids = [...new Set(userIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, realname: users.realname }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.realname]));
}

/** Approval: the registrant's first sign-in must change the password. */
export async function requireFirstLoginPasswordChange(tx: Tx, userId: number) {
  await tx.update(users).set({ isFirstLogin: true }).where(eq(users.id, userId));
  // the caller's transaction: announced with it, no database object to wait on peers with
  await invalidateWithin(tx, { users: [userId] });
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random first-login password: 12 characters with letters and digits (the password rule). */
export function randomInitialPassword(): string {
  for (;;) {
    const value = Array.from({ length: 12 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');
    if (/[A-Za-z]/.test(value) && /\d/.test(value)) return value;
  }
}

function presentMember(user: User, roleCode: string): Member {
  return {
    id: user.id,
    username: user.username,
    realname: user.realname,
    mobile: user.mobile,
    role: roleCode,
    roleName: ROLES[roleCode as RoleCode] ?? roleCode,
    disabled: user.disabled,
    isFirstLogin: user.isFirstLogin ? '1' : '0',
    createdAt: formatDateTime(user.createdAt),
  };
}

export async function listMembers(db: Db, enterpriseId: number): Promise<Member[]> {
  const rows = await db
    .select({ user: users, role: roles.code })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.enterpriseId, enterpriseId))
    .orderBy(asc(users.id));
  return rows.map((r) => presentMember(r.user, r.role));
}

export async function addMember(db: Db, enterpriseId: number, input: { username: string; realname: string; mobile: string }) {
  if (await usernameTaken(db, input.username)) throw appError('username_exists', `用户名 ${input.username} 已被使用，请换一个`);
  const initialPassword = randomInitialPassword();
  const passwordHash = await hashPassword(initialPassword);
  const user = await db.transaction((tx) =>
    createAccount(tx, { ...input, passwordHash, role: 'trader', enterpriseId, isFirstLogin: true }),
  );
  return { id: user.id, username: user.username, initialPassword };
}

/** Stops or restarts a trader of the enterprise; stopping ends the member's sessions at once. */
export async function setMemberDisabled(db: Db, clock: Clock, enterpriseId: number, actorUserId: number, id: number, disabled: boolean) {
  const [row] = await db
    .select({ user: users, role: roles.code })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, id), eq(users.enterpriseId, enterpriseId)))
    .limit(1);
  // another enterprise's user looks the same as none: nothing to learn by guessing ids
  if (!row) throw appError('not_found', '成员不存在');
  if (row.user.id === actorUserId) throw appError('business_rule', '不能停用自己的账号');
  if (row.role !== 'trader') throw appError('business_rule', '只能停用或启用交易员账号');
  await invalidating(db, { users: [id] }, async (tx) => {
    await tx.update(users).set({ disabled, updatedAt: clock.now() }).where(eq(users.id, id));
    if (disabled) await tx.update(sessions).set({ revokedAt: clock.now() }).where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
  });
  return presentMember({ ...row.user, disabled }, row.role);
}
