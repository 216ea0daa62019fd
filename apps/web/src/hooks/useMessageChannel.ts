import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { MarkReadInput, MessageRecord, MessageSocketEvent, UnreadCount } from '@coalx/shared';
import { session } from '@/app/session';
import { backoffDelay, liveSocketUrl, type SocketLike } from '@/lib/live-socket';
import { messageTarget } from '@/lib/message';
import { getUnreadCount, markRead, type MarkReadResult } from '@/services/message';

/**
 * The signed-in user's message channel (消息中心, issue 28): one WebSocket per tab, shared by the bell of whichever
 * layout shows and by the 我的消息 page. The count is fetched by GET when the channel starts and after every
 * (re)connect, then pushed by the server whenever it changes; a pushed new message is handed to the listeners (the
 * bell shows the urgent ones as a browser notice). The socket signs in as the auction room's does: the token is
 * its first message, never in the address.
 */

export type ChannelStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused';

export interface ChannelState {
  /** null until the first answer */
  unread: UnreadCount | null;
  status: ChannelStatus;
  /** Goes up on every change of the messages (a push, a read here): lists showing them load again. */
  version: number;
}

export interface ChannelDeps {
  openSocket: (url: string) => SocketLike;
  fetchUnread: () => Promise<UnreadCount>;
  url: () => string;
  /** The session token now (another tab may have signed out). */
  token: () => string | null;
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** The server closes a socket whose token it does not accept with this code: retrying would not help. */
export const NOT_SIGNED_IN_CLOSE_CODE = 4401;

/** How long the channel stays open with nobody watching: a switch between the two layouts keeps the socket. */
export const RELEASE_GRACE_MS = 5_000;

export class MessageChannel {
  private state: ChannelState = { unread: null, status: 'idle', version: 0 };
  private listeners = new Set<() => void>();
  private messageListeners = new Set<(message: MessageRecord) => void>();
  /** ids already handed to the message listeners: a message is announced once per tab */
  private announced = new Set<number>();
  private socket: SocketLike | null = null;
  private retryTimer: unknown = null;
  private releaseTimer: unknown = null;
  private attempt = 0;
  private users = 0;
  /** the token the socket signed in with */
  private token: string | null = null;
  /** counts pushes, so a GET answered after a newer push is dropped */
  private pushes = 0;
  private readonly random: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly deps: ChannelDeps) {
    this.random = deps.random ?? Math.random;
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  getState = (): ChannelState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Called with each new message pushed while the tab is open. */
  onMessage(listener: (message: MessageRecord) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** A watcher (the bell, the list page) starts the channel; the returned function lets it go. */
  acquire(): () => void {
    this.users += 1;
    if (this.releaseTimer !== null) this.clearTimer(this.releaseTimer);
    this.releaseTimer = null;
    this.sync();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users > 0) return;
      this.releaseTimer = this.setTimer(() => {
        this.releaseTimer = null;
        if (this.users === 0) this.stop();
      }, RELEASE_GRACE_MS);
    };
  }

  /**
   * Follows the session: connects when watched and signed in, reconnects as the new user when the token changed
   * (another account signed in), stops when signed out.
   */
  sync(): void {
    const token = this.deps.token();
    if (!token || this.users === 0) {
      if (!token) this.stop();
      return;
    }
    if (token === this.token && this.state.status !== 'idle') return;
    if (this.token !== null && token !== this.token) this.stop();
    this.token = token;
    this.attempt = 0;
    void this.refresh();
    this.connect();
  }

  /** The count by GET (on start, after a reconnect); an answer overtaken by a push is dropped. */
  async refresh(): Promise<void> {
    const token = this.token;
    const pushes = this.pushes;
    try {
      const unread = await this.deps.fetchUnread();
      if (token !== this.token || pushes !== this.pushes || this.state.status === 'idle') return;
      this.setUnread(unread);
    } catch {
      // the bell keeps what it shows; the next push or reconnect brings the count
    }
  }

  /** A count this tab learnt by its own call (the answer of mark read): shown at once, lists reload. */
  setUnread(unread: UnreadCount): void {
    this.set({ unread, version: this.state.version + 1 });
  }

  stop(): void {
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'leave');
    }
    this.token = null;
    this.attempt = 0;
    this.announced.clear();
    if (this.state.status !== 'idle' || this.state.unread !== null) this.set({ unread: null, status: 'idle' });
  }

  private connect(): void {
    this.retryTimer = null;
    const token = this.token;
    if (!token) return;
    this.set({ status: this.attempt === 0 ? 'connecting' : 'reconnecting' });
    let socket: SocketLike;
    try {
      socket = this.deps.openSocket(this.deps.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      socket.send(JSON.stringify({ type: 'auth', token }));
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.onEvent(event.data);
    };
    socket.onerror = () => undefined; // onclose follows and decides
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === NOT_SIGNED_IN_CLOSE_CODE) this.set({ status: 'refused' });
      if (this.state.status === 'refused') return;
      this.scheduleReconnect();
    };
  }

  private onEvent(data: unknown): void {
    let event: MessageSocketEvent;
    try {
      event = JSON.parse(String(data)) as MessageSocketEvent;
    } catch {
      return;
    }
    if (event.type === 'auth') {
      if (!event.ok) {
        // the token is no longer valid: the request layer signs the user out on the next call; no retry loop
        this.set({ status: 'refused' });
        return;
      }
      const reconnected = this.attempt > 0;
      this.attempt = 0;
      this.set({ status: 'open' });
      // what changed while the socket was down
      if (reconnected) void this.refresh();
      return;
    }
    if (event.type === 'unread') {
      this.pushes += 1;
      this.set({ unread: event.unread, version: this.state.version + 1 });
      const message = event.message;
      if (message && !this.announced.has(message.id)) {
        this.announced.add(message.id);
        for (const listener of this.messageListeners) listener(message);
      }
    }
  }

  private scheduleReconnect(): void {
    if (!this.token || this.users === 0) return;
    const delay = backoffDelay(this.attempt, this.random);
    this.attempt += 1;
    this.set({ status: 'reconnecting' });
    this.retryTimer = this.setTimer(() => this.connect(), delay);
  }

  private set(patch: Partial<ChannelState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The tab's channel

export const messageChannel = new MessageChannel({
  openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  fetchUnread: () => getUnreadCount(),
  url: () => liveSocketUrl('message'),
  token: () => session.token(),
});
// sign-in, sign-out, another account: the channel follows the stored token
session.subscribe(() => messageChannel.sync());

/**
 * The unread count and the channel's state, live; watching keeps the tab's socket open. `onMessage` is called with
 * every new message pushed while mounted.
 */
export function useMessageChannel(onMessage?: (message: MessageRecord) => void): ChannelState {
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });
  useEffect(() => messageChannel.acquire(), []);
  const listens = Boolean(onMessage);
  useEffect(() => {
    if (!listens) return;
    return messageChannel.onMessage((m) => handler.current?.(m));
  }, [listens]);
  return useSyncExternalStore(messageChannel.subscribe, messageChannel.getState, messageChannel.getState);
}

/** Marks messages read (ids, or all) and shows the new count at once, before the socket's push arrives. */
export async function markMessagesRead(input: MarkReadInput): Promise<MarkReadResult> {
  const result = await markRead(input);
  messageChannel.setUnread(result.unread);
  return result;
}

/**
 * Opens the page where a message is acted on, marking it read on the way (a failed mark leaves it unread: the
 * trader still gets to the page).
 */
export function followMessage(message: Pick<MessageRecord, 'id' | 'link' | 'read'>, navigate: (to: string) => void): void {
  if (!message.read) void markMessagesRead({ ids: [message.id] }).catch(() => undefined);
  navigate(messageTarget(message.link));
}
