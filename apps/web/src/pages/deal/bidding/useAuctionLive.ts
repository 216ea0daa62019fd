import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { AuctionState, COUNTDOWN_TICK_MS, bidPriceRefusal, isSale, type AuctionClientMessage, type AuctionEvent, type BidPriceRules, type AuctionSnapshot } from '@coalx/shared';
import { session } from '@/app/session';
import { getAuctionSnapshot } from '@/services/auction';
import { backoffDelay, liveSocketUrl, type SocketLike } from '@/lib/live-socket';

// the reconnect rules are the message bell's too (lib/live-socket); named here as well for the page and its tests
export { BACKOFF_BASE_MS, BACKOFF_MAX_MS, backoffDelay, type SocketLike } from '@/lib/live-socket';

/**
 * The live state of one auction for the bidding page: a WebSocket fed by the server (my snapshot on connect, then
 * each accepted bid, state change and the end as the snapshot all watchers share, and my `me` when it changes), a catch-up by plain GET on every (re)connect, reconnection with
 * exponential backoff, and the offset between the server clock and ours so every screen counts down to the same
 * instant. The client never decides a state: it only shows what the server last said.
 */

// ---------------------------------------------------------------------------------------------------------------
// Pure arithmetic (unit-tested)

/** serverTime − local receipt time: add it to Date.now() to read the server clock. */
export function clockOffset(serverTime: number, receivedAt: number): number {
  return serverTime - receivedAt;
}

/** Milliseconds left until `deadline` (server epoch ms) on the server clock; never negative. */
export function remainingMs(deadline: number, offset: number, localNow: number): number {
  return Math.max(0, deadline - (localNow + offset));
}

/**
 * The least aggressive valid bid: the start (base) price before the first bid, else the best price one min step
 * better (up for a sale, down for a purchase). null when no price is valid any more (the cap or floor reached).
 */
export function nextValidPrice(s: BidPriceRules): number | null {
  const price = s.bestPrice === null ? s.startPrice : isSale(s.tradeType) ? s.bestPrice + s.minStep : s.bestPrice - s.minStep;
  return bidPriceRefusal(s, price) === null ? price : null;
}

/**
 * Quick bids: the reference price (best, or the start price before any bid) moved by k min steps in the auction's
 * direction, for each multiple k; `valid` says whether the server would accept it now.
 */
export function quickBids(s: BidPriceRules, multiples: readonly number[] = [1, 2, 5]): { multiple: number; price: number; valid: boolean }[] {
  const reference = s.bestPrice ?? s.startPrice;
  const sign = isSale(s.tradeType) ? 1 : -1;
  return multiples.map((multiple) => {
    const price = reference + sign * multiple * s.minStep;
    return { multiple, price, valid: bidPriceRefusal(s, price) === null };
  });
}

/** My place in the ranking (best first): rank from 1, whether I lead, and the gap to the best price; null if I have not bid. */
export function rankOf(ranking: AuctionSnapshot['ranking'], bidder: string | null | undefined): { rank: number; leading: boolean; myPrice: number; gap: number } | null {
  if (!bidder) return null;
  const index = ranking.findIndex((r) => r.bidder === bidder);
  if (index < 0) return null;
  return { rank: index + 1, leading: index === 0, myPrice: ranking[index]!.price, gap: Math.abs(ranking[0]!.price - ranking[index]!.price) };
}

/**
 * How far along an auction is: the trading centre's pause goes back and forth with bidding (same stage, the later
 * snapshot wins), a cancel is final like the end.
 */
const STAGE: Record<number, number> = { [AuctionState.enrolling]: 0, [AuctionState.waiting]: 1, [AuctionState.bidding]: 2, [AuctionState.paused]: 2, [AuctionState.ended]: 3, [AuctionState.cancelled]: 3 };
const stageOf = (hangState: number) => STAGE[hangState] ?? hangState;

/**
 * Whether `next` is at least as new as `prev`. Bids and stages only move forward, so a snapshot with fewer bids or
 * an earlier stage is stale (e.g. a GET answered before a bid that the socket has already pushed) and is dropped.
 */
export function isNewer(prev: AuctionSnapshot | null, next: AuctionSnapshot): boolean {
  if (!prev || prev.tradeId !== next.tradeId) return true;
  if (stageOf(next.hangState) !== stageOf(prev.hangState)) return stageOf(next.hangState) > stageOf(prev.hangState);
  if (next.bidCount !== prev.bidCount) return next.bidCount > prev.bidCount;
  return next.serverTime >= prev.serverTime;
}

// ---------------------------------------------------------------------------------------------------------------
// The connection (framework-free so it can be driven by fake sockets and timers in tests)

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'not_found' | 'closed';

export interface LiveState {
  snapshot: AuctionSnapshot | null;
  /** serverTime − Date.now() at the receipt of the last accepted snapshot. */
  offset: number;
  status: LiveStatus;
  /** Reconnect attempts since the last successful open. */
  attempt: number;
  /** When the next reconnect is due (local ms), while reconnecting. */
  retryAt: number | null;
  error: string | null;
}

export interface LiveDeps {
  openSocket: (url: string) => SocketLike;
  fetchSnapshot: (tradeId: string) => Promise<AuctionSnapshot>;
  url: (tradeId: string) => string;
  /** The session token, sent as the socket's first message (never in the address); null: watch as a visitor. */
  token?: () => string | null;
  now?: () => number;
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const NOT_FOUND_CLOSE_CODE = 4404;

export class AuctionLiveClient {
  private state: LiveState = { snapshot: null, offset: 0, status: 'connecting', attempt: 0, retryAt: null, error: null };
  private socket: SocketLike | null = null;
  private retryTimer: unknown = null;
  private stopped = false;
  private listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(
    private readonly tradeId: string,
    private readonly deps: LiveDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  getState = (): LiveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'leave');
    }
    this.set({ status: 'closed', retryAt: null });
  }

  /** Applies a snapshot if it is not older than what is shown; the clock offset is taken at receipt. */
  apply(snapshot: AuctionSnapshot, receivedAt: number = this.now()): boolean {
    if (!isNewer(this.state.snapshot, snapshot)) return false;
    this.set({ snapshot, offset: clockOffset(snapshot.serverTime, receivedAt) });
    return true;
  }

  /** Catch-up by plain GET (after a (re)connect, after my own bid, while waiting for the result). */
  async refresh(): Promise<void> {
    try {
      const snapshot = await this.deps.fetchSnapshot(this.tradeId);
      if (!this.stopped) this.apply(snapshot);
    } catch (error) {
      const message = error && typeof error === 'object' && 'message' in error ? String((error as { message: unknown }).message) : null;
      const status = error && typeof error === 'object' && 'status' in error ? (error as { status: unknown }).status : null;
      if (status === 404 && !this.stopped) this.set({ status: 'not_found', error: message || '竞价不存在' });
    }
  }

  private connect(): void {
    if (this.stopped) return;
    this.retryTimer = null;
    this.set({ status: this.state.attempt === 0 ? 'connecting' : 'reconnecting', retryAt: null });
    let socket: SocketLike;
    try {
      socket = this.deps.openSocket(this.deps.url(this.tradeId));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      // signs the socket in: until the server has it, the socket is a visitor's (its `me` follows as a message)
      const token = this.deps.token?.();
      if (token) socket.send(JSON.stringify({ type: 'auth', token } satisfies AuctionClientMessage));
      this.set({ status: 'open', attempt: 0, error: null });
      void this.refresh();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.onMessage(event.data);
    };
    socket.onerror = () => undefined; // onclose follows and decides
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === NOT_FOUND_CLOSE_CODE) {
        this.set({ status: 'not_found', error: this.state.error ?? '竞价不存在' });
        return;
      }
      this.scheduleReconnect();
    };
  }

  private onMessage(data: unknown): void {
    let event: AuctionEvent;
    try {
      event = JSON.parse(String(data)) as AuctionEvent;
    } catch {
      return;
    }
    if (event.type === 'error') {
      this.set({ error: event.message });
      return;
    }
    if (event.type === 'auth') return; // `me` comes with the snapshot or by itself
    if (event.type === 'me') {
      const shown = this.state.snapshot;
      if (shown) this.set({ snapshot: { ...shown, me: event.me } });
      return;
    }
    if (event.type === 'snapshot') {
      this.apply(event.snapshot);
      return;
    }
    // events carry the snapshot every watcher shares: my own `me` stays what the server last told me
    if (event.snapshot) this.apply({ ...event.snapshot, me: this.state.snapshot?.me ?? null });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const attempt = this.state.attempt;
    const delay = backoffDelay(attempt, this.random);
    this.set({ status: 'reconnecting', attempt: attempt + 1, retryAt: this.now() + delay });
    this.retryTimer = this.setTimer(() => this.connect(), delay);
  }

  private set(patch: Partial<LiveState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

/** The socket's address: the auction only; the token goes in the first message (LiveDeps.token). */
export function auctionSocketUrl(tradeId: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return liveSocketUrl('auction', { tradeId }, location);
}

// ---------------------------------------------------------------------------------------------------------------
// React

/** While the countdown shows 0 but the server has not said 'ended', ask by GET this often (a lost push must not hang the page). */
export const AWAIT_RESULT_POLL_MS = 3000;

export function useAuctionLive(tradeId: string) {
  const client = useMemo(
    () =>
      new AuctionLiveClient(tradeId, {
        openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
        fetchSnapshot: (id) => getAuctionSnapshot(id),
        url: (id) => auctionSocketUrl(id),
        token: () => session.token(),
      }),
    [tradeId],
  );
  useEffect(() => {
    if (!tradeId) return;
    client.start();
    return () => client.stop();
  }, [client, tradeId]);
  const state = useSyncExternalStore(client.subscribe, client.getState, client.getState);
  const refresh = useCallback(() => client.refresh(), [client]);
  return { ...state, refresh };
}

/** Re-renders every COUNTDOWN_TICK_MS and returns the time left to `deadline` on the server clock. */
export function useCountdown(deadline: number | null, offset: number): number | null {
  const [now, setNow] = useState(() => Date.now());
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (deadline === null) return;
    // align the ticks to whole seconds before the deadline, so every screen flips the same second together
    const phase = remainingMs(deadline, offset, Date.now()) % COUNTDOWN_TICK_MS;
    const first = setTimeout(() => {
      setNow(Date.now());
      timer.current = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    }, phase + 5);
    return () => {
      clearTimeout(first);
      if (timer.current) clearInterval(timer.current);
      timer.current = null;
    };
  }, [deadline, offset]);
  return deadline === null ? null : remainingMs(deadline, offset, now);
}
