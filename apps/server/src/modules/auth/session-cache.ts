import type { Db, Tx } from '../../db/client';
import type { Actor } from '../../lib/actor';
import { notifyWithin, peersOf } from '../../lib/peers';

/**
 * Sessions and the answer of `sys/user/info`, held in memory per process (README "Sessions in memory"), so a
 * signed-in request reads no table. Every change that could alter them goes through `invalidating()`: the
 * invalidation is sent inside the change's transaction to every process (lib/peers.ts) and applied here after the
 * commit; the change answers once every live process has acknowledged it.
 */

export interface Invalidation {
  sessions?: number[];
  users?: number[];
  /** Roles or grants changed: every actor and every user info may differ. */
  all?: boolean;
  /** The dictionary version changed (user info carries it). */
  dict?: boolean;
}

export interface CachedSession {
  actor: Actor;
  expiresAt: number;
  /** Last request seen by this process, and the last_seen_at value written to the table. */
  lastSeen: number;
  writtenSeen: number;
  /** When the row was last read: entries are read again after RECHECK_MS, a net under the invalidations. */
  readAt: number;
}

// sessions are read from the table again after this long, whatever was heard (bounds any missed invalidation)
export const RECHECK_MS = 60 * 1000;
// a process holds at most this many sessions; past it, it starts over (only valid tokens get here)
const MAX_SESSIONS = 100_000;

export class AuthCache {
  readonly sessions = new Map<string, CachedSession>();
  /** user id → its role and the user info JSON without grantsVersion and dictVersion (added per answer). */
  readonly userInfo = new Map<number, { roleId: number; body: string }>();
  dictVersion: number | null = null;
  /** Bumped by every invalidation: a read that started before one is not kept. */
  epoch = 0;

  apply(invalidation: Invalidation) {
    this.epoch++;
    if (invalidation.all) {
      this.sessions.clear();
      this.userInfo.clear();
    }
    // the cached JSON leaves the version out: it is added per answer
    if (invalidation.dict) this.dictVersion = null;
    const sessionIds = new Set(invalidation.sessions ?? []);
    const userIds = new Set(invalidation.users ?? []);
    if (sessionIds.size || userIds.size) {
      for (const [hash, entry] of this.sessions) {
        if (sessionIds.has(entry.actor.sessionId) || userIds.has(entry.actor.userId)) this.sessions.delete(hash);
      }
      for (const id of userIds) this.userInfo.delete(id);
    }
  }

  clear() {
    this.apply({ all: true, dict: true });
  }

  keepSession(hash: string, entry: CachedSession, epoch: number) {
    if (epoch !== this.epoch) return;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.clear();
    this.sessions.set(hash, entry);
  }
}

const cacheOfDb = new WeakMap<Db, AuthCache>();
// every cache of this process (tests run several apps), for changes made in a transaction without its database
const allCaches = new Set<WeakRef<AuthCache>>();

export function authCacheOf(db: Db): AuthCache {
  let cache = cacheOfDb.get(db);
  if (!cache) {
    cacheOfDb.set(db, (cache = new AuthCache()));
    allCaches.add(new WeakRef(cache));
    const peers = peersOf(db);
    const own = cache;
    peers.onInvalidate((body) => own.apply(body as Invalidation));
    // a process that may have missed invalidations forgets everything it holds
    peers.onDeaf(() => own.clear());
  }
  return cache;
}

/** Whether this process may answer from memory now (it hears every invalidation). */
export function cacheUsable(db: Db): boolean {
  return !peersOf(db).isDeaf();
}

/**
 * Runs `work` in a transaction that also announces `invalidation` to every process, applies it here after the
 * commit, and returns only when every live process has applied it (bounded wait): the next request with a revoked
 * token is refused whichever process it reaches.
 */
export async function invalidating<T>(db: Db, invalidation: Invalidation, work: (tx: Tx) => Promise<T>): Promise<T> {
  const peers = peersOf(db);
  const cache = authCacheOf(db);
  let sent: string | null = null;
  try {
    const result = await db.transaction(async (tx) => {
      const value = await work(tx);
      sent = await peers.sendInvalidation(tx, invalidation);
      return value;
    });
    cache.apply(invalidation);
    await peers.awaitAcks(sent);
    return result;
  } catch (err) {
    peers.forget(sent);
    throw err;
  }
}

/**
 * For a change made inside another module's transaction (no database object at hand): every cache of this process
 * drops it now, and every process again when the notification arrives after the commit. Nothing waits for peers.
 */
export async function invalidateWithin(tx: Tx, invalidation: Invalidation) {
  for (const ref of allCaches) {
    const cache = ref.deref();
    if (cache) cache.apply(invalidation);
    else allCaches.delete(ref);
  }
  await notifyWithin(tx, invalidation);
}
