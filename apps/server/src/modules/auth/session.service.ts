import { createHash, randomBytes } from 'node:crypto';
import type { RoleCode } from '@coalx/shared';
import { and, eq, gt, isNull, ne, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { RECHECK_MS, authCacheOf, cacheUsable, invalidating } from './session-cache';
import { roles, sessions, users } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import type { Actor } from '../../lib/actor';

export const SESSION_IDLE_MS = 2 * 3600 * 1000;
export const SESSION_MAX_MS = 12 * 3600 * 1000;
// last_seen_at is written at most once a minute per session, not on every request
const TOUCH_EVERY_MS = 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: Db,
  clock: Clock,
  userId: number,
  meta: { ip: string; userAgent: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
    ip: meta.ip.slice(0, 64),
    userAgent: meta.userAgent.slice(0, 256),
  });
  return token;
}

/**
 * The actor of a live session, or null when the token is unknown, revoked, idle too long or past 12 h. Served from
 * memory (session-cache.ts) after the first read; the idle limit and the 12 h cap are checked there too, and an
 * entry this process thinks idle is read again (another process may have seen the session since).
 */
export async function resolveSession(db: Db, clock: Clock, token: string): Promise<Actor | null> {
  if (token.length > 128) return null;
  const hash = hashToken(token);
  const now = clock.now();
  const at = now.getTime();
  const cache = authCacheOf(db);
  const usable = cacheUsable(db);
  const entry = usable ? cache.sessions.get(hash) : undefined;
  if (entry) {
    if (at >= entry.expiresAt) {
      cache.sessions.delete(hash);
      return null;
    }
    if (at - entry.lastSeen <= SESSION_IDLE_MS && at - entry.readAt <= RECHECK_MS) {
      entry.lastSeen = at;
      if (at - entry.writtenSeen > TOUCH_EVERY_MS) {
        entry.writtenSeen = at;
        await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, entry.actor.sessionId));
      }
      return entry.actor;
    }
    cache.sessions.delete(hash);
  }
  const epoch = cache.epoch;
  const row = await liveSession(db, now, eq(sessions.tokenHash, hash));
  if (!row) return null;
  let written = row.lastSeenAt.getTime();
  if (at - written > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
    written = at;
  }
  const actor = actorOf(row);
  if (usable) cache.keepSession(hash, { actor, expiresAt: row.expiresAt.getTime(), lastSeen: at, writtenSeen: written, readAt: at }, epoch);
  return actor;
}

/** The session's row with its user and role, when the session is live (not revoked, idle or past 12 h) and the user enabled. */
async function liveSession(db: Db, now: Date, which: SQL) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      username: users.username,
      roleId: roles.id,
      baseRole: roles.baseRole,
      enterpriseId: users.enterpriseId,
      disabled: users.disabled,
      isFirstLogin: users.isFirstLogin,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(which, isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))))
    .limit(1);
  return row && !row.disabled ? row : null;
}

function actorOf(row: NonNullable<Awaited<ReturnType<typeof liveSession>>>): Actor {
  // frozen: one object answers every request of the session
  return Object.freeze({
    userId: row.userId,
    username: row.username,
    // policies compare the base role; the grants plugin reads the real role's grants by roleId
    role: row.baseRole as RoleCode,
    roleId: row.roleId,
    enterpriseId: row.enterpriseId,
    sessionId: row.sessionId,
    mustChangePassword: row.isFirstLogin,
  });
}

/**
 * The actor of a live session named by its id (a signed file link, lib/file-links.ts): read from the table each
 * time, so a link stops opening the moment its session ends (logout, disabled user, password change). Not a use of
 * the session: last_seen_at is left alone.
 */
export async function resolveSessionById(db: Db, clock: Clock, sessionId: number): Promise<Actor | null> {
  const row = await liveSession(db, clock.now(), eq(sessions.id, sessionId));
  return row ? actorOf(row) : null;
}

/** Logout: refused everywhere once this returns. */
export async function revokeSession(db: Db, clock: Clock, sessionId: number): Promise<void> {
  await invalidating(db, { sessions: [sessionId] }, (tx) =>
    tx.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.id, sessionId)),
  );
}

/** Ends every other session of a user, e.g. after a password change (inside the change's transaction). */
export async function revokeOtherSessions(tx: Tx, clock: Clock, userId: number, keepSessionId: number) {
  await tx
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keepSessionId)));
}
