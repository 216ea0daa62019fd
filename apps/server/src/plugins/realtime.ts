import type { AuctionEvent } from '@coalx/shared';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { EventBus } from '../lib/events';

/**
 * Live auction screens. They listen to the auction's domain events, which cross processes through PostgreSQL
 * NOTIFY (lib/events.ts): a rolled-back bid is never announced and every process hears a committed one. Each
 * process then builds the snapshot once per burst of events and pushes it to its own sockets, personalised per
 * enterprise.
 */
export type AuctionEventType = 'bid' | 'state' | 'ended';

/** Which push each auction event causes on the watchers' screens. */
export function pushAuctionEvents(bus: EventBus, rooms: AuctionRooms): Array<() => void> {
  return [
    bus.on('auction.bid_accepted', ({ tradeNo }) => rooms.onEvent('bid', tradeNo)),
    bus.on('auction.enrolled', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.state_changed', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.ended', ({ tradeNo }) => rooms.onEvent('ended', tradeNo)),
  ];
}

export interface Watcher {
  socket: WebSocket;
  enterpriseId: number | null;
}

export type SnapshotBuilder = (tradeId: string) => Promise<{ forEnterprise(enterpriseId: number | null): unknown } | null>;

export class AuctionRooms {
  private rooms = new Map<string, Set<Watcher>>();
  /** Trades with a broadcast under way, and whether another event came meanwhile. */
  private inFlight = new Map<string, { dirty: boolean; type: AuctionEventType }>();

  constructor(private readonly build: SnapshotBuilder, private readonly log: FastifyInstance['log']) {}

  join(tradeId: string, watcher: Watcher) {
    let room = this.rooms.get(tradeId);
    if (!room) this.rooms.set(tradeId, (room = new Set()));
    room.add(watcher);
    this.alive.set(watcher.socket, true);
    watcher.socket.on('pong', () => this.alive.set(watcher.socket, true));
  }

  leave(tradeId: string, watcher: Watcher) {
    const room = this.rooms.get(tradeId);
    room?.delete(watcher);
    if (room && room.size === 0) this.rooms.delete(tradeId);
  }

  /** Sockets that answered the last ping. */
  private alive = new WeakMap<WebSocket, boolean>();

  /** Drops sockets that stopped answering pings (a closed laptop lid leaves no close frame). */
  heartbeat() {
    for (const room of this.rooms.values()) {
      for (const { socket } of room) {
        if (this.alive.get(socket) === false) {
          socket.terminate();
          continue;
        }
        this.alive.set(socket, false);
        socket.ping();
      }
    }
  }

  closeAll() {
    for (const room of this.rooms.values()) for (const watcher of room) watcher.socket.close(1001, 'server stopping');
    this.rooms.clear();
  }

  watcherCount(tradeId?: string) {
    if (tradeId) return this.rooms.get(tradeId)?.size ?? 0;
    let n = 0;
    for (const room of this.rooms.values()) n += room.size;
    return n;
  }

  /** Called for every notification; bursts for one trade collapse into the latest snapshot. */
  onEvent(type: AuctionEventType, tradeId: string) {
    if (!this.rooms.has(tradeId)) return;
    const running = this.inFlight.get(tradeId);
    if (running) {
      running.dirty = true;
      if (type === 'ended') running.type = 'ended';
      return;
    }
    this.inFlight.set(tradeId, { dirty: false, type });
    void this.broadcast(tradeId);
  }

  private async broadcast(tradeId: string) {
    for (;;) {
      const state = this.inFlight.get(tradeId)!;
      const type = state.type;
      state.dirty = false;
      try {
        const built = await this.build(tradeId);
        const room = this.rooms.get(tradeId);
        if (built && room) {
          const messages = new Map<number | null, string>();
          for (const watcher of room) {
            let text = messages.get(watcher.enterpriseId);
            if (text === undefined) {
              text = JSON.stringify({ type, snapshot: built.forEnterprise(watcher.enterpriseId) } as AuctionEvent);
              messages.set(watcher.enterpriseId, text);
            }
            if (watcher.socket.readyState === watcher.socket.OPEN) watcher.socket.send(text);
          }
        }
      } catch (err) {
        this.log.error({ err, tradeId }, 'auction broadcast failed');
      }
      if (!state.dirty) break;
    }
    this.inFlight.delete(tradeId);
  }
}
