import pg from 'pg';

/**
 * The one LISTEN connection of a process on a PostgreSQL server. The server forgets a LISTEN with its connection,
 * so after a restart, a `kill -9` of the postmaster or a failover nothing would be heard again: this connection is
 * retaken for ever, with a growing pause (250 ms … 5 s), every channel listened to again, and whoever cares is told
 * how long it was deaf (`onRestored`) to read again what it may have missed. A connection the network silently lost
 * (a host that died without a reset) answers no probe: a probe that gets no answer within PROBE_TIMEOUT_MS counts as
 * a lost connection too.
 */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
const PROBE_EVERY_MS = 3_000;
const PROBE_TIMEOUT_MS = 4_000;

/**
 * Every connection to a server that may restart or fail over: an attempt gives up after 5 s (a request then fails
 * fast, 503, instead of hanging), and TCP keepalive notices a peer that vanished.
 */
export const SERVER_CONNECTION = { keepAlive: true, keepAliveInitialDelayMillis: 10_000, connectionTimeoutMillis: 5_000 } as const;

export type Notify = (payload: string) => void;
export type Restored = (gapMs: number) => void;

export class NotificationConnection {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Notify>>();
  private readonly restoredListeners = new Set<Restored>();
  /** When this process stopped hearing notifications (null while it hears them). */
  private downSince: number | null = Date.now();
  private everConnected = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private probe: NodeJS.Timeout | null = null;
  private opening: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** Listens on `channel` from now on, across reconnections. The first call opens the connection (and fails with it). */
  async listen(channel: string, handler: Notify): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`channel name not allowed: ${channel}`);
    let set = this.handlers.get(channel);
    const fresh = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    if (!this.everConnected) await (this.opening ??= this.open());
    else if (fresh && this.client) await this.client.query(`LISTEN ${channel}`).catch(() => undefined);
    return async () => {
      set!.delete(handler);
      if (set!.size > 0) return;
      this.handlers.delete(channel);
      await this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      if (this.handlers.size === 0) await this.stop();
    };
  }

  /** Called every time notifications are heard again after a gap, with the gap's length. */
  onRestored(listener: Restored): () => void {
    this.restoredListeners.add(listener);
    return () => this.restoredListeners.delete(listener);
  }

  /** Whether notifications are heard now, and since when they are not. */
  health(): { listening: boolean; downSince: number | null } {
    return { listening: this.client !== null, downSince: this.downSince };
  }

  async stop() {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.probe) clearInterval(this.probe);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ ...this.connection, ...SERVER_CONNECTION });
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('连接已关闭')));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) return void (await client.end().catch(() => undefined));
    this.client = client;
    const gap = this.downSince === null ? 0 : Date.now() - this.downSince;
    this.downSince = null;
    this.failures = 0;
    this.startProbing(client);
    if (this.everConnected) {
      this.warn(`数据库通知连接已恢复 (中断 ${gap} ms)，正在重新同步`);
      for (const listener of this.restoredListeners) listener(gap);
    }
    this.everConnected = true;
  }

  private lost(client: pg.Client, err: Error) {
    if (this.client !== client) return; // a connection being opened or already replaced: its opener handles it
    this.client = null;
    this.downSince ??= Date.now();
    if (this.probe) clearInterval(this.probe);
    this.warn(`数据库通知连接断开: ${err.message}；正在重连`);
    dropConnection(client);
    this.scheduleRetry();
  }

  private scheduleRetry() {
    if (this.stopped || this.retry) return;
    const pause = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.failures) * (0.75 + Math.random() * 0.5);
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open().catch((err: Error) => {
        // logged on the first failures and then every so often, not at every try of a long outage
        if (this.failures <= 2 || this.failures % 12 === 0) this.warn(`数据库通知连接重连失败 (第 ${this.failures} 次): ${err.message}`);
        this.scheduleRetry();
      });
    }, pause);
    this.retry.unref();
  }

  private startProbing(client: pg.Client) {
    if (this.probe) clearInterval(this.probe);
    this.probe = probeEvery(client, (err) => this.lost(client, err));
  }
}

/** Asks `client` a trivial question every few seconds; one left unanswered too long means the connection is dead. */
export function probeEvery(client: pg.Client, onDead: (err: Error) => void): NodeJS.Timeout {
  let probing = false;
  const timer = setInterval(() => {
    if (probing) return;
    probing = true;
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => (timeout = setTimeout(() => reject(new Error(`${PROBE_TIMEOUT_MS} ms 无应答`)), PROBE_TIMEOUT_MS)));
    Promise.race([client.query('SELECT 1'), timedOut])
      .catch((err: Error) => onDead(err))
      .finally(() => {
        clearTimeout(timeout);
        probing = false;
      });
  }, PROBE_EVERY_MS);
  timer.unref();
  return timer;
}

/** Destroys a connection's socket whatever state it is in (a silently dead one would otherwise linger). */
export function dropConnection(client: pg.Client) {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void client.end().catch(() => undefined);
}

/**
 * An advisory lock one process holds while its connection lives (the demo bidders' driver). The server releases it
 * with the connection, so after an outage another process may take it: a process that lost it tries to take it again
 * every few seconds, and whoever holds it at a moment does the work.
 */
export class AdvisoryLease {
  private client: pg.Client | null = null;
  private probe: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private taking = false;
  private stopped = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly lockId: number,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  held(): boolean {
    return this.client !== null;
  }

  /** Tries at once, then keeps trying while the lock is not held; true when held now. */
  async start(retryMs = 2_000): Promise<boolean> {
    await this.take();
    this.timer = setInterval(() => void (this.client ? undefined : this.take()), retryMs);
    this.timer.unref();
    return this.held();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.probe) clearInterval(this.probe);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async take() {
    if (this.taking || this.stopped) return;
    this.taking = true;
    const client = new pg.Client({ ...this.connection, ...SERVER_CONNECTION });
    const lose = (err: Error) => {
      if (this.client !== client) return;
      this.client = null;
      if (this.probe) clearInterval(this.probe);
      this.warn(`数据库锁连接断开，锁 ${this.lockId} 已释放: ${err.message}`);
      dropConnection(client);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('连接已关闭')));
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [this.lockId]);
      if (rows[0]?.locked && !this.stopped) {
        this.client = client;
        this.probe = probeEvery(client, lose);
      } else {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
      }
    } catch {
      client.removeAllListeners('end');
      dropConnection(client);
    } finally {
      this.taking = false;
    }
  }
}
