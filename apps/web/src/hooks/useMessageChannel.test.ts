import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageRecord, UnreadCount } from '@coalx/shared';
import type { SocketLike } from '@/lib/live-socket';
import { MessageChannel, NOT_SIGNED_IN_CLOSE_CODE, RELEASE_GRACE_MS } from './useMessageChannel';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  closed = false;
  constructor(public url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  push(event: unknown) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

const message = (id: number, urgent = true): MessageRecord => ({
  id,
  kind: 'contract.to_sign',
  category: 'contract',
  title: '待签署合同',
  content: '合同 HT001 已生成，请在截止时间前签署。',
  dueAt: '2026-05-02T02:00:00.000Z',
  link: '/contract/sign?id=1',
  urgent,
  read: false,
  createdAt: '2026-05-01T02:00:00.000Z',
});

function harness(options: { token?: string | null; fetched?: UnreadCount } = {}) {
  vi.useFakeTimers();
  let token: string | null = options.token === undefined ? 'T1' : options.token;
  let answer: UnreadCount = options.fetched ?? { count: 2, urgent: 1 };
  const sockets: FakeSocket[] = [];
  const pending: ((u: UnreadCount) => void)[] = [];
  let deferred = false;
  const fetchUnread = vi.fn(
    () =>
      new Promise<UnreadCount>((resolve) => {
        if (deferred) pending.push(resolve);
        else resolve(answer);
      }),
  );
  const channel = new MessageChannel({
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    fetchUnread,
    url: () => 'ws://x/trade-api/ws/message',
    token: () => token,
    random: () => 1,
  });
  return {
    channel,
    sockets,
    fetchUnread,
    pending,
    setToken: (t: string | null) => (token = t),
    setAnswer: (u: UnreadCount) => (answer = u),
    defer: (on: boolean) => (deferred = on),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('MessageChannel', () => {
  it('fetches the count on start, signs the socket in with its first message, then shows the pushed counts', async () => {
    const { channel, sockets, fetchUnread } = harness();
    expect(channel.getState().status).toBe('idle');
    const release = channel.acquire();
    expect(fetchUnread).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(channel.getState().unread).toEqual({ count: 2, urgent: 1 });
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://x/trade-api/ws/message');
    sockets[0]!.open();
    expect(sockets[0]!.sent.map((s) => JSON.parse(s))).toEqual([{ type: 'auth', token: 'T1' }]);
    sockets[0]!.push({ type: 'auth', ok: true });
    expect(channel.getState().status).toBe('open');
    const before = channel.getState().version;
    sockets[0]!.push({ type: 'unread', unread: { count: 0, urgent: 0 } });
    expect(channel.getState().unread).toEqual({ count: 0, urgent: 0 });
    expect(channel.getState().version).toBe(before + 1);
    release();
    await vi.advanceTimersByTimeAsync(RELEASE_GRACE_MS);
    expect(sockets[0]!.closed).toBe(true);
    expect(channel.getState()).toMatchObject({ status: 'idle', unread: null });
  });

  it('hands each new message to the listeners once, a push without one (a read elsewhere) to none', async () => {
    const { channel, sockets } = harness();
    channel.acquire();
    const heard: number[] = [];
    const stop = channel.onMessage((m) => heard.push(m.id));
    sockets[0]!.open();
    sockets[0]!.push({ type: 'auth', ok: true });
    sockets[0]!.push({ type: 'unread', unread: { count: 3, urgent: 2 }, message: message(7) });
    sockets[0]!.push({ type: 'unread', unread: { count: 3, urgent: 2 }, message: message(7) });
    sockets[0]!.push({ type: 'unread', unread: { count: 2, urgent: 1 } });
    sockets[0]!.push({ type: 'unread', unread: { count: 3, urgent: 1 }, message: message(8, false) });
    expect(heard).toEqual([7, 8]);
    stop();
    sockets[0]!.push({ type: 'unread', unread: { count: 4, urgent: 1 }, message: message(9) });
    expect(heard).toEqual([7, 8]);
    expect(channel.getState().unread).toEqual({ count: 4, urgent: 1 });
    channel.stop();
  });

  it('drops a GET answered after a newer push', async () => {
    const h = harness();
    h.defer(true);
    h.channel.acquire();
    h.sockets[0]!.open();
    h.sockets[0]!.push({ type: 'auth', ok: true });
    h.sockets[0]!.push({ type: 'unread', unread: { count: 5, urgent: 0 } });
    h.pending.shift()!({ count: 4, urgent: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.channel.getState().unread).toEqual({ count: 5, urgent: 0 });
    h.channel.stop();
  });

  it('reconnects with backoff after a drop and fetches what changed meanwhile', async () => {
    const h = harness();
    h.channel.acquire();
    await vi.advanceTimersByTimeAsync(0);
    h.sockets[0]!.open();
    h.sockets[0]!.push({ type: 'auth', ok: true });
    h.sockets[0]!.drop();
    expect(h.channel.getState().status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(499);
    expect(h.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sockets).toHaveLength(2);
    h.sockets[1]!.drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sockets).toHaveLength(3);
    h.setAnswer({ count: 9, urgent: 3 });
    h.sockets[2]!.open();
    h.sockets[2]!.push({ type: 'auth', ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetchUnread).toHaveBeenCalledTimes(2);
    expect(h.channel.getState()).toMatchObject({ status: 'open', unread: { count: 9, urgent: 3 } });
    h.channel.stop();
  });

  it('stops on a refused sign-in instead of retrying, and follows the session: signed out closes, another user reconnects', async () => {
    const h = harness();
    h.channel.acquire();
    h.sockets[0]!.open();
    h.sockets[0]!.push({ type: 'auth', ok: false });
    h.sockets[0]!.drop(1008);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.channel.getState().status).toBe('refused');

    h.setToken('T2');
    h.channel.sync();
    expect(h.sockets).toHaveLength(2);
    h.sockets[1]!.open();
    expect(JSON.parse(h.sockets[1]!.sent[0]!)).toEqual({ type: 'auth', token: 'T2' });

    h.setToken(null);
    h.channel.sync();
    expect(h.sockets[1]!.closed).toBe(true);
    expect(h.channel.getState()).toMatchObject({ status: 'idle', unread: null });
  });

  it('does not retry a socket the server closed as not signed in', async () => {
    const h = harness();
    h.channel.acquire();
    h.sockets[0]!.open();
    h.sockets[0]!.drop(NOT_SIGNED_IN_CLOSE_CODE);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.channel.getState().status).toBe('refused');
    h.channel.stop();
  });

  it('keeps one socket for two watchers and across a layout switch within the grace time', async () => {
    const h = harness();
    const releaseA = h.channel.acquire();
    const releaseB = h.channel.acquire();
    expect(h.sockets).toHaveLength(1);
    releaseA();
    releaseB();
    await vi.advanceTimersByTimeAsync(RELEASE_GRACE_MS - 1);
    const releaseC = h.channel.acquire();
    await vi.advanceTimersByTimeAsync(RELEASE_GRACE_MS);
    expect(h.sockets).toHaveLength(1);
    expect(h.sockets[0]!.closed).toBe(false);
    releaseC();
    await vi.advanceTimersByTimeAsync(RELEASE_GRACE_MS);
    expect(h.sockets[0]!.closed).toBe(true);
  });

  it('opens nothing for a visitor', () => {
    const h = harness({ token: null });
    h.channel.acquire();
    expect(h.sockets).toHaveLength(0);
    expect(h.fetchUnread).not.toHaveBeenCalled();
  });
});
