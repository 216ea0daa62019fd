import { describe, expect, it, vi } from 'vitest';
import { bidPriceRefusal, type AuctionSnapshot } from '@coalx/shared';
import {
  AuctionLiveClient,
  BACKOFF_MAX_MS,
  NOT_FOUND_CLOSE_CODE,
  auctionSocketUrl,
  backoffDelay,
  clockOffset,
  isNewer,
  nextValidPrice,
  quickBids,
  rankOf,
  remainingMs,
  type SocketLike,
} from './useAuctionLive';

function snap(over: Partial<AuctionSnapshot> = {}): AuctionSnapshot {
  return {
    tradeId: 'JP1',
    tradeType: 2,
    hangState: 2,
    result: null,
    startPrice: 80_000,
    bestPrice: null,
    minStep: 100,
    maxStep: 1_000,
    limitPrice: null,
    bidStart: 0,
    bidEnd: 60_000,
    currentEnd: 60_000,
    inExtension: false,
    extensionSeconds: 120,
    bidCount: 0,
    enrolCount: 2,
    ranking: [],
    bids: [],
    serverTime: 10_000,
    me: { bidder: '竞买人1', enrolled: true },
    ...over,
  };
}

describe('clock offset and countdown', () => {
  it('offset is serverTime − local receipt time, and the countdown reads the server clock', () => {
    // the server is 2.5 s ahead of us
    const offset = clockOffset(1_000_002_500, 1_000_000_000);
    expect(offset).toBe(2_500);
    // deadline 10 s after the server's "now": 10 s left, whatever our own clock says
    expect(remainingMs(1_000_012_500, offset, 1_000_000_000)).toBe(10_000);
    // a server behind us
    expect(remainingMs(5_000, clockOffset(1_000, 4_000), 4_000)).toBe(4_000);
    // never negative
    expect(remainingMs(1_000, 0, 9_000)).toBe(0);
  });

});

describe('reconnect backoff', () => {
  it('doubles from 0.5 s up to the 15 s cap, with half of it jittered', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1_000);
    expect(backoffDelay(3, () => 1)).toBe(4_000);
    expect(backoffDelay(10, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(1000, () => 0.5)).toBe(11_250);
  });
});

describe('prices', () => {
  it('next valid price: the start price first, then best + min step for a sale', () => {
    expect(nextValidPrice(snap())).toBe(80_000);
    expect(nextValidPrice(snap({ bestPrice: 80_500 }))).toBe(80_600);
  });

  it('next valid price goes down for a purchase, and is null once the cap or floor is reached', () => {
    expect(nextValidPrice(snap({ tradeType: 3, bestPrice: 70_000 }))).toBe(69_900);
    expect(nextValidPrice(snap({ limitPrice: 80_550, bestPrice: 80_500 }))).toBeNull();
    expect(nextValidPrice(snap({ tradeType: 3, limitPrice: 69_950, bestPrice: 70_000 }))).toBeNull();
  });

  it('quick bids move 1×, 2×, 5× min step in the direction of the auction and respect the max step', () => {
    expect(quickBids(snap({ bestPrice: 81_000 })).map((q) => q.price)).toEqual([81_100, 81_200, 81_500]);
    expect(quickBids(snap({ tradeType: 3, bestPrice: 70_000 })).map((q) => q.price)).toEqual([69_900, 69_800, 69_500]);
    const narrow = quickBids(snap({ bestPrice: 81_000, maxStep: 300 }));
    expect(narrow.map((q) => q.valid)).toEqual([true, true, false]);
  });

  it('says the server refusals before sending', () => {
    expect(bidPriceRefusal(snap(), 79_999)).toBe('首次出价须不低于起拍价 (800.00 元/吨)');
    expect(bidPriceRefusal(snap({ bestPrice: 80_000 }), 80_050)).toBe('出价须不低于当前价加最小加价幅度 (801.00 元/吨)');
    expect(bidPriceRefusal(snap({ bestPrice: 80_000 }), 81_100)).toBe('出价不能高于当前价加最大加价幅度 (810.00 元/吨)');
    expect(bidPriceRefusal(snap({ bestPrice: 80_000, maxStep: null, limitPrice: 90_000 }), 90_100)).toBe('出价不能高于出价上限 (900.00 元/吨)');
    expect(bidPriceRefusal(snap({ tradeType: 3, bestPrice: 70_000 }), 69_950)).toBe('出价须不高于当前价减最小降价幅度 (699.00 元/吨)');
    expect(bidPriceRefusal(snap({ bestPrice: 80_000, maxStep: null }), 99_900)).toBeNull();
  });
});

describe('ranking', () => {
  const ranking = [
    { bidder: '竞买人2', price: 81_000, at: 3 },
    { bidder: '竞买人1', price: 80_600, at: 2 },
    { bidder: '竞买人3', price: 80_000, at: 1 },
  ];
  it('rank from 1, leading only at the top, gap to the best price', () => {
    expect(rankOf(ranking, '竞买人2')).toEqual({ rank: 1, leading: true, myPrice: 81_000, gap: 0 });
    expect(rankOf(ranking, '竞买人1')).toEqual({ rank: 2, leading: false, myPrice: 80_600, gap: 400 });
    expect(rankOf(ranking, '竞买人9')).toBeNull();
    expect(rankOf(ranking, null)).toBeNull();
  });
});

describe('snapshot ordering', () => {
  it('drops a snapshot older than the one shown', () => {
    const shown = snap({ bidCount: 3, serverTime: 5_000 });
    expect(isNewer(shown, snap({ bidCount: 2, serverTime: 9_000 }))).toBe(false);
    expect(isNewer(shown, snap({ bidCount: 4, serverTime: 4_000 }))).toBe(true);
    expect(isNewer(shown, snap({ bidCount: 3, hangState: 3 }))).toBe(true);
    expect(isNewer(snap({ hangState: 3 }), snap({ hangState: 2, bidCount: 9 }))).toBe(false);
    // the trading centre's pause and resume go back and forth within bidding: the later snapshot wins
    expect(isNewer(snap({ hangState: 4, serverTime: 5_000 }), snap({ hangState: 2, serverTime: 6_000 }))).toBe(true);
    expect(isNewer(snap({ hangState: 2, serverTime: 6_000 }), snap({ hangState: 4, serverTime: 5_000 }))).toBe(false);
    expect(isNewer(snap({ hangState: 5 }), snap({ hangState: 4 }))).toBe(false);
    expect(isNewer(shown, snap({ bidCount: 3, serverTime: 6_000 }))).toBe(true);
  });
});

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  closed = false;
  constructor(public url: string) {}
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

function harness(fetched: AuctionSnapshot = snap(), token: string | null = null) {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
  const sockets: FakeSocket[] = [];
  const fetchSnapshot = vi.fn(async () => fetched);
  const client = new AuctionLiveClient('JP1', {
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    fetchSnapshot,
    url: (id) => `ws://x/trade-api/ws/auction?tradeId=${id}`,
    token: () => token,
    random: () => 1,
  });
  return { client, sockets, fetchSnapshot };
}

describe('AuctionLiveClient', () => {
  it('applies pushed snapshots with the clock offset at receipt, and catches up by GET on open', async () => {
    const { client, sockets, fetchSnapshot } = harness(snap({ bidCount: 0, serverTime: 1_000_100 }));
    client.start();
    expect(client.getState().status).toBe('connecting');
    sockets[0]!.open();
    expect(client.getState().status).toBe('open');
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    await vi.runOnlyPendingTimersAsync();
    expect(client.getState().offset).toBe(100);
    sockets[0]!.push({ type: 'bid', snapshot: snap({ bidCount: 1, bestPrice: 80_000, serverTime: 1_003_000 }) });
    expect(client.getState().snapshot?.bestPrice).toBe(80_000);
    expect(client.getState().offset).toBe(3_000);
    // a late, older answer does not roll the price back
    client.apply(snap({ bidCount: 0, serverTime: 2_000_000 }));
    expect(client.getState().snapshot?.bestPrice).toBe(80_000);
    client.stop();
    vi.useRealTimers();
  });

  it('keeps my own `me` from the snapshot on connect across the shared broadcasts, and takes a new one when told', async () => {
    const { client, sockets } = harness(snap({ bidCount: 0, serverTime: 900_000, me: null }));
    client.start();
    sockets[0]!.push({ type: 'snapshot', snapshot: snap({ bidCount: 0, serverTime: 1_000_000, me: { bidder: '竞买人2', enrolled: true } }) });
    sockets[0]!.open();
    await vi.runOnlyPendingTimersAsync(); // the catch-up GET is older: dropped
    const { me: _omitted, ...shared } = snap({ bidCount: 1, bestPrice: 80_000, serverTime: 1_001_000 });
    sockets[0]!.push({ type: 'bid', snapshot: shared });
    expect(client.getState().snapshot).toMatchObject({ bidCount: 1, bestPrice: 80_000, me: { bidder: '竞买人2' } });
    sockets[0]!.push({ type: 'me', me: null });
    expect(client.getState().snapshot).toMatchObject({ bidCount: 1, me: null });
    sockets[0]!.push({ type: 'me', me: { bidder: '竞买人3', enrolled: true } });
    sockets[0]!.push({ type: 'state', snapshot: { ...shared, bidCount: 2, serverTime: 1_002_000 } });
    expect(client.getState().snapshot).toMatchObject({ bidCount: 2, me: { bidder: '竞买人3' } });
    client.stop();
    vi.useRealTimers();
  });

  it('reconnects with growing delays, resets them after a successful open, and catches up each time', async () => {
    const { client, sockets, fetchSnapshot } = harness();
    client.start();
    sockets[0]!.drop();
    expect(client.getState().status).toBe('reconnecting');
    expect(client.getState().retryAt).toBe(1_000_000 + 500);
    await vi.advanceTimersByTimeAsync(499);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
    sockets[2]!.open();
    expect(client.getState()).toMatchObject({ status: 'open', attempt: 0 });
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    sockets[2]!.drop();
    expect(client.getState().retryAt).toBe(Date.now() + 500);
    client.stop();
    expect(client.getState().status).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(4 - 1);
    vi.useRealTimers();
  });

  it('stops on close code 4404 (no such auction) and shows the server message', () => {
    const { client, sockets } = harness();
    client.start();
    sockets[0]!.push({ type: 'error', message: '竞价不存在' });
    sockets[0]!.drop(NOT_FOUND_CLOSE_CODE);
    expect(client.getState()).toMatchObject({ status: 'not_found', error: '竞价不存在' });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    client.stop();
    vi.useRealTimers();
  });

  it('builds ws/wss URLs under /trade-api without any token', () => {
    expect(auctionSocketUrl('JP1', { protocol: 'https:', host: 'coalx.cn' })).toBe('wss://coalx.cn/trade-api/ws/auction?tradeId=JP1');
    expect(auctionSocketUrl('JP1', { protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/trade-api/ws/auction?tradeId=JP1');
  });

  it('signs in by the first message on every (re)connect when signed in, and sends nothing as a visitor', async () => {
    const signedIn = harness(snap(), 'tok-123');
    signedIn.client.start();
    expect(signedIn.sockets[0]!.url).not.toContain('tok-123');
    expect(signedIn.sockets[0]!.sent).toEqual([]);
    signedIn.sockets[0]!.open();
    expect(signedIn.sockets[0]!.sent.map((m) => JSON.parse(m))).toEqual([{ type: 'auth', token: 'tok-123' }]);
    signedIn.sockets[0]!.push({ type: 'auth', ok: true });
    expect(signedIn.client.getState().error).toBeNull();
    signedIn.sockets[0]!.drop();
    await vi.advanceTimersByTimeAsync(500);
    signedIn.sockets[1]!.open();
    expect(signedIn.sockets[1]!.sent.map((m) => JSON.parse(m))).toEqual([{ type: 'auth', token: 'tok-123' }]);
    signedIn.client.stop();
    vi.useRealTimers();

    const visitor = harness();
    visitor.client.start();
    visitor.sockets[0]!.open();
    expect(visitor.sockets[0]!.sent).toEqual([]);
    visitor.client.stop();
    vi.useRealTimers();
  });
});
