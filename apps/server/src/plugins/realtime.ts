import { AuctionState, type AuctionEvent } from '@coalx/shared';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DomainEvents, EventBus } from '../lib/events';
import { applyBid, meOf, refreshSnapshot, type AcceptedBid, type SnapshotBase } from '../modules/auction/auction.service';

/**
 * Live auction screens. They listen to the auction's domain events, which cross processes through PostgreSQL
 * NOTIFY (lib/events.ts): a rolled-back bid is never announced and every process hears a committed one. Each
 * process keeps one cached snapshot per watched auction: an accepted bid is applied to it in memory (its event
 * carries everything needed), serialised once, and the same bytes are written to every socket. The database is
 * read only for the first watcher, on state changes and the end, and when a bid's seq is not the next one (a missed
 * notification). The viewer's own `me` goes with the snapshot on connect and by itself when it changes.
 */
export type AuctionEventType = 'bid' | 'state' | 'ended';

/** The close code of a stopping process (RFC 6455 1012, service restart): the page reconnects, through the proxy, to another. */
export const SERVICE_RESTART = 1012;

/** Which push each auction event causes on the watchers' screens. */
export function pushAuctionEvents(bus: EventBus, rooms: AuctionRooms): Array<() => void> {
  return [
    bus.on('auction.bid_accepted', (bid) => rooms.onBid(bid)),
    bus.on('auction.enrolled', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.enrolment_closed', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.bidding_started', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.ended', ({ tradeNo }) => rooms.onEvent('ended', tradeNo)),
    // the trading centre's pause and resume change what the room shows (已暂停, the frozen time left, the new deadline)
    bus.on('auction.paused', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.resumed', ({ tradeNo }) => rooms.onEvent('state', tradeNo)),
    bus.on('auction.cancelled', ({ tradeNo }) => rooms.onEvent('ended', tradeNo)),
  ];
}

/**
 * The trading centre's live market board (实时监控): its sockets hear only which trade changed (a bid, an enrolment,
 * a state move, a subscription), a few times a second at most, and read the board again through its granted route.
 * Nothing private travels here: trade numbers are public.
 */
export class BoardFeed {
  private sockets = new Set<WebSocket>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly batchMs = 200) {}

  join(socket: WebSocket) {
    this.sockets.add(socket);
  }

  leave(socket: WebSocket) {
    this.sockets.delete(socket);
  }

  get size() {
    return this.sockets.size;
  }

  /** A trade changed: told to every board within `batchMs`, several changes in one message. */
  changed(tradeNo: string) {
    if (this.sockets.size === 0) return;
    this.pending.add(tradeNo);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.batchMs);
    this.timer.unref?.();
  }

  private flush() {
    this.timer = null;
    const tradeIds = [...this.pending];
    this.pending.clear();
    const payload = JSON.stringify({ type: 'changed', tradeIds });
    for (const socket of this.sockets) if (socket.readyState === socket.OPEN) socket.send(payload);
  }

  closeAll() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const socket of this.sockets) socket.close(SERVICE_RESTART, 'reconnect');
    this.sockets.clear();
  }
}

/** Which events move the market board. */
export function pushBoardEvents(bus: EventBus, feed: BoardFeed): Array<() => void> {
  const auctionEvents = ['auction.enrolled', 'auction.bid_accepted', 'auction.enrolment_closed', 'auction.bidding_started', 'auction.ended', 'auction.paused', 'auction.resumed', 'auction.cancelled'] as const;
  const listingEvents = ['listing.opened', 'listing.ended', 'listing.reopened'] as const;
  return [
    ...auctionEvents.map((name) => bus.on(name, (payload) => feed.changed((payload as { tradeNo: string }).tradeNo))),
    ...listingEvents.map((name) => bus.on(name, (payload) => feed.changed((payload as { tradeNo: string }).tradeNo))),
    bus.on('listing.quantity_changed', () => feed.changed('')),
    bus.on('auction.approved', () => feed.changed('')),
    bus.on('listing.approved', () => feed.changed('')),
  ];
}

export interface Watcher {
  socket: WebSocket;
  /** null: a visitor (every socket until its first message signs it in, see `authTokenOf`) */
  enterpriseId: number | null;
}

/**
 * The token of a socket's sign-in message, `{"type":"auth","token":"…"}`, or null for anything else. A browser's
 * WebSocket cannot send the token header and an address must not carry it (issue 27 item 9), so a signed-in viewer
 * sends it as the socket's first message; until then, and if it never does, the socket is a visitor's.
 */
export function authTokenOf(data: unknown, isBinary: boolean): string | null {
  if (isBinary) return null;
  let message: unknown;
  try {
    message = JSON.parse(String(data));
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object') return null;
  const { type, token } = message as { type?: unknown; token?: unknown };
  return type === 'auth' && typeof token === 'string' && token.length > 0 && token.length <= 128 ? token : null;
}

/** Where rooms read an auction's state from (the database) and the time its clock-derived fields are taken at. */
export interface SnapshotSource {
  build(tradeId: string): Promise<SnapshotBase>;
  now(): Date;
}

type RoomEvent = { type: 'bid'; bid: AcceptedBid } | { type: 'state' } | { type: 'ended' };

interface Joining {
  watcher: Watcher;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Room {
  /** Watchers that have had their snapshot on connect and get every broadcast. */
  watchers: Set<Watcher>;
  /** Watchers signed in while the snapshot was being read again: their `me` goes once it is there. */
  unannounced: Set<Watcher>;
  /** Watchers waiting for their snapshot on connect (sent once the cache is current). */
  joining: Joining[];
  base: SnapshotBase | null;
  /** Events heard while the snapshot is being read from the database, applied in order after it. */
  queue: RoomEvent[];
  building: boolean;
}

export class AuctionRooms {
  private rooms = new Map<string, Room>();
  /** Sockets that answered the last ping. */
  private alive = new WeakMap<WebSocket, boolean>();
  /** How many times a snapshot was read from the database (tests: bids alone must not read it). */
  builds = 0;

  constructor(private readonly source: SnapshotSource, private readonly log: FastifyInstance['log']) {}

  /** Adds a watcher; resolves once its snapshot is sent, rejects when the auction cannot be shown. */
  join(tradeId: string, watcher: Watcher): Promise<void> {
    let room = this.rooms.get(tradeId);
    if (!room) this.rooms.set(tradeId, (room = { watchers: new Set(), unannounced: new Set(), joining: [], base: null, queue: [], building: false }));
    const joined = new Promise<void>((resolve, reject) => room.joining.push({ watcher, resolve, reject }));
    this.alive.set(watcher.socket, true);
    watcher.socket.on('pong', () => this.alive.set(watcher.socket, true));
    this.drain(tradeId, room);
    return joined;
  }

  /**
   * A watcher signed in (its first message): from now on it is that enterprise's viewer. One still waiting for its
   * snapshot gets `me` in it; one already watching gets `{ type: 'me' }` now (or when the snapshot being read again is there).
   */
  identify(tradeId: string, watcher: Watcher, enterpriseId: number | null) {
    watcher.enterpriseId = enterpriseId;
    const room = this.rooms.get(tradeId);
    if (!room || !room.watchers.has(watcher)) return;
    if (room.base && !room.building) this.sendTo(watcher, JSON.stringify({ type: 'me', me: meOf(room.base, enterpriseId) } satisfies AuctionEvent));
    else room.unannounced.add(watcher);
  }

  leave(tradeId: string, watcher: Watcher) {
    const room = this.rooms.get(tradeId);
    if (!room) return;
    room.watchers.delete(watcher);
    room.unannounced.delete(watcher);
    const index = room.joining.findIndex((j) => j.watcher === watcher);
    if (index >= 0) room.joining.splice(index, 1)[0]!.resolve(); // gone before its snapshot: nothing to send
    this.dropIfEmpty(tradeId, room);
  }

  /** Drops sockets that stopped answering pings (a closed laptop lid leaves no close frame). */
  heartbeat() {
    for (const room of this.rooms.values()) {
      for (const { socket } of room.watchers) {
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
    for (const room of this.rooms.values()) {
      for (const watcher of room.watchers) watcher.socket.close(SERVICE_RESTART, 'reconnect');
      for (const { watcher } of room.joining) watcher.socket.close(SERVICE_RESTART, 'reconnect');
    }
    this.rooms.clear();
  }

  watcherCount(tradeId?: string) {
    const size = (room: Room) => room.watchers.size + room.joining.length;
    if (tradeId) {
      const room = this.rooms.get(tradeId);
      return room ? size(room) : 0;
    }
    let n = 0;
    for (const room of this.rooms.values()) n += size(room);
    return n;
  }

  /**
   * After a gap in the notifications (the database restarted or failed over): every room reads its auction again
   * and every watcher gets the fresh snapshot, an auction that ended meanwhile as its end.
   */
  resyncAll() {
    for (const [tradeId, room] of this.rooms) {
      room.queue.push({ type: 'state' });
      this.drain(tradeId, room);
    }
  }

  /** An accepted bid: applied to the cached snapshot and pushed at once when it is the next one. */
  onBid(bid: DomainEvents['auction.bid_accepted']) {
    const room = this.rooms.get(bid.tradeNo);
    if (!room) return;
    room.queue.push({ type: 'bid', bid });
    this.drain(bid.tradeNo, room);
  }

  /** A state change or the end: the snapshot is read again from the database. */
  onEvent(type: Exclude<AuctionEventType, 'bid'>, tradeId: string) {
    const room = this.rooms.get(tradeId);
    if (!room) return;
    room.queue.push({ type });
    this.drain(tradeId, room);
  }

  /** Applies what can be applied in memory now; starts a read from the database when it cannot. */
  private drain(tradeId: string, room: Room) {
    if (room.building) return;
    while (room.queue.length > 0) {
      const base = room.base;
      const head = room.queue[0]!;
      if (!base || head.type !== 'bid') return void this.rebuild(tradeId, room);
      const { seq } = head.bid;
      if (seq > base.snapshot.bidCount + 1) return void this.rebuild(tradeId, room); // a bid we did not hear
      room.queue.shift();
      if (seq <= base.snapshot.bidCount) continue; // already in the snapshot (read after it committed)
      applyBid(base, head.bid);
      this.broadcast(room, 'bid');
    }
    if (room.joining.length === 0) return;
    if (!room.base) return void this.rebuild(tradeId, room);
    const base = room.base;
    const snapshot = refreshSnapshot(base, this.source.now());
    for (const { watcher, resolve } of room.joining.splice(0)) {
      this.sendTo(watcher, JSON.stringify({ type: 'snapshot', snapshot: { ...snapshot, me: meOf(base, watcher.enterpriseId) } } satisfies AuctionEvent));
      room.watchers.add(watcher);
      resolve();
    }
  }

  /** Reads the snapshot from the database; the events queued so far are all in it (each was heard after its commit). */
  private async rebuild(tradeId: string, room: Room) {
    room.building = true;
    const consumed = room.queue.splice(0);
    const previous = room.base;
    let base: SnapshotBase;
    try {
      this.builds++;
      base = await this.source.build(tradeId);
    } catch (err) {
      room.building = false;
      room.base = null; // the next event or watcher reads again
      if (room.watchers.size > 0) this.log.error({ err, tradeId }, 'auction snapshot failed');
      for (const { reject } of room.joining.splice(0)) reject(err);
      this.dropIfEmpty(tradeId, room);
      return;
    }
    room.building = false;
    this.dropIfEmpty(tradeId, room);
    if (this.rooms.get(tradeId) !== room) return; // every watcher left meanwhile
    room.base = base;
    // a viewer whose enterprise enrolled (or whose enrolment went away) meanwhile gets its new `me`, and so does one
    // that signed in while the snapshot was being read
    for (const watcher of room.watchers) {
      const signedInMeanwhile = room.unannounced.has(watcher);
      const changed = previous !== null && watcher.enterpriseId !== null && previous.bidders.get(watcher.enterpriseId) !== base.bidders.get(watcher.enterpriseId);
      if (!signedInMeanwhile && !changed) continue;
      this.sendTo(watcher, JSON.stringify({ type: 'me', me: meOf(base, watcher.enterpriseId) } satisfies AuctionEvent));
    }
    room.unannounced.clear();
    if (consumed.length > 0) {
      const over = (b: SnapshotBase | null) => b !== null && (b.timing.hangState === AuctionState.ended || b.timing.hangState === AuctionState.cancelled);
      // an end nobody announced here (a notification lost in a database outage) is still pushed as the end
      const endedUnheard = over(base) && previous !== null && !over(previous);
      const type = endedUnheard || consumed.some((e) => e.type === 'ended') ? 'ended' : consumed.some((e) => e.type === 'state') ? 'state' : 'bid';
      this.broadcast(room, type);
    }
    this.drain(tradeId, room);
  }

  /** One serialisation for every socket of the room: the same bytes are written to each. */
  private broadcast(room: Room, type: AuctionEventType) {
    if (!room.base || room.watchers.size === 0) return;
    const payload = Buffer.from(JSON.stringify({ type, snapshot: refreshSnapshot(room.base, this.source.now()) } satisfies AuctionEvent));
    for (const watcher of room.watchers) {
      const socket = watcher.socket;
      if (socket.readyState === socket.OPEN) socket.send(payload, { binary: false });
    }
  }

  private sendTo(watcher: Watcher, data: string) {
    const socket = watcher.socket;
    if (socket.readyState === socket.OPEN) socket.send(data);
  }

  private dropIfEmpty(tradeId: string, room: Room) {
    if (room.watchers.size === 0 && room.joining.length === 0 && !room.building && this.rooms.get(tradeId) === room) this.rooms.delete(tradeId);
  }
}
