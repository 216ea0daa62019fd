import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../db/client';

/**
 * Invalidations every server process of one database must apply before a change is answered (README "Sessions in
 * memory"). NOTIFY alone is not enough: PostgreSQL delivers it on commit, but another process may still be serving
 * a request from its memory when the changing request answers. So:
 *  - the invalidation is sent with pg_notify inside the transaction that makes the change (sent iff it commits);
 *  - every process applies it, then answers with an acknowledgement (NOTIFY too);
 *  - the changing process applies it locally after the commit and waits, bounded, until every live peer has
 *    acknowledged, and only then answers. A peer that does not acknowledge in time is dropped from the live set.
 * Peers know each other by heartbeats (every 2 s; live = heard within 7 s). A process that stops hearing its own
 * heartbeat has lost its LISTEN connection and may have missed invalidations: it reports itself deaf, and the
 * caches built on this bypass and clear themselves until it hears itself again.
 * PGlite has one process per data folder (the DATA_DIR lock): no peers, nothing to wait for.
 */

export const PEERS_CHANNEL = 'coalx_peers';
const HEARTBEAT_MS = 2000;
const PEER_LIVE_MS = 7000;
const DEAF_AFTER_MS = 5000;
const ACK_TIMEOUT_MS = 1500;

type Message =
  | { k: 'inv'; from: string; id: string; body: unknown }
  | { k: 'ack'; from: string; to: string; id: string }
  | { k: 'hb' | 'hello' | 'bye'; from: string };

type Waiter = { pending: Set<string>; done: () => void; finished: Promise<void> };

export class Peers {
  readonly self = randomUUID();
  private live = new Map<string, number>();
  private waiters = new Map<string, Waiter>();
  private handlers: ((body: unknown) => void)[] = [];
  private deafListeners: (() => void)[] = [];
  private sequence = 0;
  private started = false;
  /** When the oldest heartbeat not yet heard back was sent (null: all heard). */
  private unheardSince: number | null = null;
  private deaf = false;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** Warnings (a peer that did not acknowledge in time). */
  onWarn: (message: string) => void = (message) => console.warn(message);

  constructor(private readonly db: Db) {}

  /** Applies the invalidations of every process (this one's included, which is harmless). */
  onInvalidate(handler: (body: unknown) => void) {
    this.handlers.push(handler);
  }

  /** Called when this process may have missed invalidations: the caller drops what it holds. */
  onDeaf(listener: () => void) {
    this.deafListeners.push(listener);
  }

  /** True while this process cannot be sure it hears every invalidation: caches must not serve. */
  isDeaf() {
    return this.started && (this.deaf || (this.unheardSince !== null && Date.now() - this.unheardSince > DEAF_AFTER_MS));
  }

  async start(database: Pick<Database, 'kind' | 'listen'>) {
    if (database.kind !== 'postgres' || this.started) return;
    this.unlisten = await database.listen(PEERS_CHANNEL, (text) => this.receive(text));
    this.started = true;
    this.unheardSince = Date.now();
    await this.send({ k: 'hello', from: this.self });
    this.timer = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop() {
    if (!this.started) return;
    if (this.timer) clearInterval(this.timer);
    await this.send({ k: 'bye', from: this.self }).catch(() => undefined);
    await this.unlisten?.();
    this.started = false;
    for (const waiter of this.waiters.values()) waiter.done();
  }

  /**
   * Sends an invalidation inside `tx` (delivered by PostgreSQL only if it commits). Call `awaitAcks` with the
   * returned id after the commit.
   */
  async sendInvalidation(tx: Tx | Db, body: unknown): Promise<string | null> {
    if (!this.started) return null;
    const id = `${this.self}:${++this.sequence}`;
    // waiting starts now, so an acknowledgement arriving before the commit returns is not lost
    const pending = new Set(this.livePeers());
    let done = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    this.waiters.set(id, { pending, done, finished });
    if (pending.size === 0) done();
    await tx.execute(sql`SELECT pg_notify(${PEERS_CHANNEL}, ${JSON.stringify({ k: 'inv', from: this.self, id, body } satisfies Message)})`);
    return id;
  }

  /** Waits, at most ACK_TIMEOUT_MS, until every peer live when the invalidation was sent has applied it. */
  async awaitAcks(id: string | null): Promise<void> {
    if (id === null) return;
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([waiter.finished, new Promise<void>((resolve) => (timeout = setTimeout(resolve, ACK_TIMEOUT_MS)))]);
    clearTimeout(timeout);
    this.waiters.delete(id);
    for (const peer of waiter.pending) {
      // a peer that cannot acknowledge in time is treated as gone until its next heartbeat
      this.live.delete(peer);
      this.onWarn(`进程 ${peer} 未在 ${ACK_TIMEOUT_MS} ms 内确认会话失效通知`);
    }
  }

  /** Forgets a sent invalidation whose transaction rolled back. */
  forget(id: string | null) {
    if (id !== null) this.waiters.delete(id);
  }

  private async beat() {
    if (this.isDeaf() && !this.deaf) {
      this.deaf = true;
      for (const listener of this.deafListeners) listener();
    }
    // a late timer (busy process) is not deafness: the clock runs from the heartbeat actually sent
    this.unheardSince ??= Date.now();
    await this.send({ k: 'hb', from: this.self }).catch(() => undefined);
  }

  private send(message: Message) {
    return this.db.execute(sql`SELECT pg_notify(${PEERS_CHANNEL}, ${JSON.stringify(message)})`);
  }

  private receive(text: string) {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    const now = Date.now();
    if (message.from === this.self) {
      if (message.k === 'hb' || message.k === 'hello') {
        const wasDeaf = this.isDeaf();
        this.unheardSince = null;
        if (wasDeaf) {
          // back after a gap: whatever was missed meanwhile is dropped before serving from memory again
          for (const listener of this.deafListeners) listener();
          this.deaf = false;
        }
      }
      if (message.k === 'inv') for (const handler of this.handlers) handler(message.body);
      return;
    }
    switch (message.k) {
      case 'hello':
        this.live.set(message.from, now);
        void this.send({ k: 'hb', from: this.self }).catch(() => undefined);
        break;
      case 'hb':
        this.live.set(message.from, now);
        break;
      case 'bye':
        this.live.delete(message.from);
        this.acknowledged(message.from, null);
        break;
      case 'inv':
        this.live.set(message.from, now);
        for (const handler of this.handlers) handler(message.body);
        void this.send({ k: 'ack', from: this.self, to: message.from, id: message.id }).catch(() => undefined);
        break;
      case 'ack':
        if (message.to === this.self) this.acknowledged(message.from, message.id);
        break;
    }
    for (const [peer, heard] of this.live) if (now - heard > PEER_LIVE_MS) this.live.delete(peer);
  }

  private acknowledged(peer: string, id: string | null) {
    const entries = id === null ? [...this.waiters.values()] : [this.waiters.get(id)].filter((w): w is Waiter => Boolean(w));
    for (const waiter of entries) {
      waiter.pending.delete(peer);
      if (waiter.pending.size === 0) waiter.done();
    }
  }

  /** Peers heard recently (tests). */
  livePeers() {
    const now = Date.now();
    return [...this.live.entries()].filter(([, heard]) => now - heard <= PEER_LIVE_MS).map(([peer]) => peer);
  }
}

/**
 * An invalidation sent inside a transaction whose database object is not at hand: every process applies it (this
 * one too, when it hears it); nobody waits for acknowledgements.
 */
export async function notifyWithin(tx: Tx, body: unknown) {
  const message: Message = { k: 'inv', from: 'anonymous', id: randomUUID(), body };
  await tx.execute(sql`SELECT pg_notify(${PEERS_CHANNEL}, ${JSON.stringify(message)})`);
}

const peersOfDb = new WeakMap<Db, Peers>();

/** The peer messaging of one database (one per app; tests run several apps, each on its own database). */
export function peersOf(db: Db): Peers {
  let peers = peersOfDb.get(db);
  if (!peers) peersOfDb.set(db, (peers = new Peers(db)));
  return peers;
}
