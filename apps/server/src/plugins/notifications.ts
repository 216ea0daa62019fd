import type { MessageSocketEvent } from '@coalx/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { Db } from '../db/client';
import { dispatchNotices, type DispatchResult } from '../flows/deliver-notices';
import type { Clock } from '../lib/clock';
import { eventBusOf, type EventName } from '../lib/events';
import { startSweep } from '../lib/sweep';
import { messagesByIds, recordEvent, recordOf, unreadCountsOf } from '../modules/message/message.service';
import { NOTICE_RULES } from '../queries/notices/index';
import { SERVICE_RESTART } from './realtime';

/**
 * 消息中心's machinery (issue 28): notifying events are written to the outbox in their own transaction (the bus's
 * recorder), the dispatcher turns them into messages right after the commit (a kick per event, and a sweep that
 * catches up after a crash or a failed try), and every process pushes new unread counts to its users' sockets.
 */
export interface Notifications {
  /** Runs the dispatcher soon (coalesced: a kick while it runs makes one more round). */
  kick(): void;
  /** Resolves once every event committed before the call is dispatched (tests wait on it). */
  settled(): Promise<void>;
  /** Runs one round now and says what it did. */
  dispatch(): Promise<DispatchResult>;
  /** Called after a round that queued SMS, e-mail or webhooks (their workers send at once). */
  afterDispatch: Set<(result: DispatchResult) => void>;
  channels: UserChannels;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

/** The open message sockets of this process, by user. */
export class UserChannels {
  private sockets = new Map<number, Set<WebSocket>>();

  add(userId: number, socket: WebSocket) {
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    set.add(socket);
  }

  remove(userId: number, socket: WebSocket) {
    const set = this.sockets.get(userId);
    set?.delete(socket);
    if (set?.size === 0) this.sockets.delete(userId);
  }

  /** Of these users, those with a socket open here. */
  here(userIds: number[]): number[] {
    return userIds.filter((id) => this.sockets.has(id));
  }

  send(userId: number, event: MessageSocketEvent) {
    const text = JSON.stringify(event);
    for (const socket of this.sockets.get(userId) ?? []) if (socket.readyState === socket.OPEN) socket.send(text);
  }

  count() {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  closeAll() {
    for (const set of this.sockets.values()) for (const socket of set) socket.close(SERVICE_RESTART, 'reconnect');
    this.sockets.clear();
  }
}

/**
 * From now on, every notifying event of this database is written to the outbox in its own transaction. The app does
 * it when built; main.ts does it before loading the demo market, whose deals and contracts are told like any other.
 */
export function recordNotifyingEvents(db: Db, clock: Clock) {
  eventBusOf(db).recorder = {
    records: (name) => Object.hasOwn(NOTICE_RULES, name),
    record: (tx, name, payload) => recordEvent(tx, name, payload, clock.now()),
  };
}

export default fp(async function notifications(app: FastifyInstance) {
  const bus = eventBusOf(app.db);
  recordNotifyingEvents(app.db, app.clock);
  const channels = new UserChannels();
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const afterDispatch = new Set<(result: DispatchResult) => void>();

  const round = async () => {
    const result = await dispatchNotices(app.db, app.clock, { publicUrl: app.config.publicUrl });
    if (result.deliveries > 0 || result.webhooks > 0 || result.messages > 0) for (const listener of afterDispatch) listener(result);
    if (result.failed > 0) app.log.warn({ failed: result.failed }, 'notifying events failed; they are tried again on the next round');
    return result;
  };
  const kick = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await round();
        } catch (err) {
          app.log.error({ err }, 'notification dispatch failed');
        }
      } while (again && !closed);
    })().finally(() => (running = null));
  };
  app.decorate('notifications', {
    kick,
    async settled() {
      while (running) await running;
      // an event that crossed processes by NOTIFY may not have asked for its round yet: one more round takes it
      await round();
      while (running) await running;
    },
    dispatch: round,
    afterDispatch,
    channels,
  } satisfies Notifications);

  // every notifying event, once committed (in whichever process heard it), asks for a round
  const stops = Object.keys(NOTICE_RULES).map((name) => bus.on(name as EventName, () => kick()));
  stops.push(
    bus.on('message.created', ({ userIds, messageIds }) => pushNew(app, channels, userIds, messageIds)),
    bus.on('message.read', ({ userId }) => pushCounts(app, channels, [userId])),
  );
  // what a crash between commit and dispatch left, and events whose try failed: the sweep finds them
  const stopSweep = app.config.deliveryIntervalMs > 0 ? startSweep(kick, Math.max(app.config.deliveryIntervalMs, 5000)) : () => {};
  app.addHook('onClose', async () => {
    closed = true;
    stopSweep();
    for (const stop of stops) stop();
    channels.closeAll();
    while (running) await running;
  });
});

async function pushNew(app: FastifyInstance, channels: UserChannels, userIds: number[], messageIds: number[]) {
  const here = channels.here(userIds);
  if (here.length === 0) return;
  const [counts, rows] = await Promise.all([unreadCountsOf(app.db, here), messagesByIds(app.db, messageIds)]);
  for (const userId of here) {
    const newest = rows.find((r) => r.userId === userId);
    channels.send(userId, { type: 'unread', unread: counts.get(userId)!, ...(newest ? { message: recordOf(newest) } : {}) });
  }
}

async function pushCounts(app: FastifyInstance, channels: UserChannels, userIds: number[]) {
  const here = channels.here(userIds);
  if (here.length === 0) return;
  const counts = await unreadCountsOf(app.db, here);
  for (const userId of here) channels.send(userId, { type: 'unread', unread: counts.get(userId)! });
}
