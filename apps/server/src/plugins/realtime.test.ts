import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { WebSocket as ServerSocket } from 'ws';
import { loginAs, signedIn } from '../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../test/test-app';
import { runScheduledJobs } from './scheduler';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../modules/funds/funds.test-helpers';
import { createProduct, post } from '../modules/listing/listing.test-helpers';
import { auctionInput } from '../modules/auction/auction.test-helpers';
import { buildSnapshot, type SnapshotBase } from '../modules/auction/auction.service';
import { AuctionRooms, authTokenOf } from './realtime';

/** A server-side socket that records what it was sent. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  sent: unknown[] = [];
  send(data: string | Buffer, options?: { binary?: boolean }) {
    if (typeof data !== 'string') expect(options?.binary).toBe(false); // JSON goes as text frames
    this.sent.push(JSON.parse(String(data)));
  }
  ping() {}
  terminate() {}
  close() {
    this.readyState = 3;
  }
}

function base(bidCount: number, bidders: [number, number][] = []): SnapshotBase {
  const bids = Array.from({ length: Math.min(bidCount, 20) }, (_, i) => {
    const seq = bidCount - i;
    return { seq, bidder: `竞买人${(seq % 2) + 1}`, price: 80_000 + seq * 100, inExtension: false, time: '-', at: 1_000 + seq };
  });
  return {
    snapshot: {
      tradeId: 'JJ1', tradeType: 2, hangState: 2, result: null, startPrice: 80_000, bestPrice: bidCount ? 80_000 + bidCount * 100 : null,
      minStep: 100, maxStep: null, limitPrice: null, bidStart: 0, bidEnd: 1_000_000, currentEnd: 1_000_000, inExtension: false,
      extensionSeconds: 120, bidCount, enrolCount: 2, ranking: [], bids, serverTime: 0,
    },
    bidders: new Map(bidders),
    timing: { hangState: 2, enrolDeadline: new Date(0), bidStart: new Date(0), currentEnd: new Date(1_000_000), bidEnd: new Date(1_000_000) },
  };
}

const log = { error() {}, warn() {}, info() {} } as never;
const tick = () => new Promise((r) => setTimeout(r, 0));
const bidEvent = (seq: number) => ({ tradeNo: 'JJ1', seq, price: 80_000 + seq * 100, bidder: `竞买人${(seq % 2) + 1}`, at: 1_000 + seq, currentEnd: 1_000_000, inExtension: false });

describe('auction rooms (cached snapshot)', () => {
  it('applies the next bid in memory, skips one already in the snapshot, and reads the database again on a missed seq', async () => {
    let stored = base(3);
    const rooms = new AuctionRooms({ build: async () => structuredClone(stored), now: () => new Date(500) }, log);
    const socket = new FakeSocket();
    await rooms.join('JJ1', { socket: socket as unknown as ServerSocket, enterpriseId: null });
    expect(rooms.builds).toBe(1);
    expect(socket.sent[0]).toMatchObject({ type: 'snapshot', snapshot: { bidCount: 3, me: null } });

    rooms.onBid(bidEvent(3)); // heard after the snapshot was read: already in it
    rooms.onBid(bidEvent(4));
    rooms.onBid(bidEvent(5));
    expect(rooms.builds).toBe(1);
    type Sent = { type: string; snapshot: { bidCount: number; bestPrice: number; bids: { seq: number }[]; ranking: { bidder: string; price: number }[] } };
    const summary = (m: unknown) => {
      const { type, snapshot: s } = m as Sent;
      return { type, bidCount: s.bidCount, bestPrice: s.bestPrice, seqs: s.bids.map((b) => b.seq).slice(0, 3), ranking: s.ranking.map((r) => `${r.bidder} ${r.price}`) };
    };
    expect(socket.sent.slice(1).map(summary)).toEqual([
      { type: 'bid', bidCount: 4, bestPrice: 80_400, seqs: [4, 3, 2], ranking: ['竞买人1 80400'] },
      { type: 'bid', bidCount: 5, bestPrice: 80_500, seqs: [5, 4, 3], ranking: ['竞买人2 80500', '竞买人1 80400'] },
    ]);
    expect((socket.sent[2] as { snapshot: object }).snapshot).not.toHaveProperty('me');

    // seq 6 never arrived: the database is read again, and what came meanwhile is applied after it
    stored = base(7);
    rooms.onBid(bidEvent(7));
    rooms.onBid(bidEvent(8));
    expect(rooms.builds).toBe(2);
    await tick();
    expect(socket.sent.slice(3).map(summary)).toEqual([
      { type: 'bid', bidCount: 7, bestPrice: 80_700, seqs: [7, 6, 5], ranking: [] },
      { type: 'bid', bidCount: 8, bestPrice: 80_800, seqs: [8, 7, 6], ranking: ['竞买人1 80800'] },
    ]);
    expect(rooms.builds).toBe(2);
  });

  it('gives each viewer its own me on connect, the same bytes to all after, and a new me when an enrolment changes it', async () => {
    let stored = base(0, [[11, 1]]);
    const rooms = new AuctionRooms({ build: async () => structuredClone(stored), now: () => new Date(500) }, log);
    const [a, b, anonymous] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    await Promise.all([
      rooms.join('JJ1', { socket: a as unknown as ServerSocket, enterpriseId: 11 }),
      rooms.join('JJ1', { socket: b as unknown as ServerSocket, enterpriseId: 12 }),
      rooms.join('JJ1', { socket: anonymous as unknown as ServerSocket, enterpriseId: null }),
    ]);
    expect(rooms.builds).toBe(1); // one read for the watchers that came together
    expect(a.sent[0]).toMatchObject({ type: 'snapshot', snapshot: { me: { bidder: '竞买人1', enrolled: true } } });
    expect(b.sent[0]).toMatchObject({ type: 'snapshot', snapshot: { me: null } });
    stored = base(0, [[11, 1], [12, 2]]);
    rooms.onEvent('state', 'JJ1'); // enterprise 12 enrolled
    await tick();
    expect(a.sent.slice(1)).toEqual([expect.objectContaining({ type: 'state' })]);
    expect(b.sent.slice(1)).toEqual([{ type: 'me', me: { bidder: '竞买人2', enrolled: true } }, expect.objectContaining({ type: 'state' })]);
    expect(anonymous.sent.slice(1)).toEqual([expect.objectContaining({ type: 'state' })]);
    rooms.onBid({ ...bidEvent(1), bidder: '竞买人2' });
    expect(a.sent[2]).toEqual(b.sent[3]);
    expect(a.sent[2]).toMatchObject({ type: 'bid', snapshot: { bidCount: 1, ranking: [{ bidder: '竞买人2' }] } });
  });

  it('a socket is a visitor until it signs in: then its me comes in the snapshot, at once, or after a read in flight', async () => {
    let release: () => void = () => undefined;
    let hold = false;
    const rooms = new AuctionRooms(
      {
        build: async () => {
          if (hold) await new Promise<void>((resolve) => (release = resolve));
          return base(0, [[11, 1], [12, 2], [13, 3]]);
        },
        now: () => new Date(500),
      },
      log,
    );
    // signed in after its snapshot: `me` by itself
    const late = { socket: new FakeSocket() as unknown as ServerSocket, enterpriseId: null as number | null };
    await rooms.join('JJ1', late);
    rooms.identify('JJ1', late, 11);
    const lateSent = (late.socket as unknown as FakeSocket).sent;
    expect(lateSent).toEqual([expect.objectContaining({ type: 'snapshot', snapshot: expect.objectContaining({ me: null }) }), { type: 'me', me: { bidder: '竞买人1', enrolled: true } }]);
    // signed in while its snapshot is being read: `me` in the snapshot, nothing more
    hold = true;
    const early = { socket: new FakeSocket() as unknown as ServerSocket, enterpriseId: null as number | null };
    const joined = rooms.join('JJ2', early);
    rooms.identify('JJ2', early, 12);
    release();
    await joined;
    // one already watching signs in while the snapshot is read again: its `me` once the read is done
    hold = false;
    const during = { socket: new FakeSocket() as unknown as ServerSocket, enterpriseId: null as number | null };
    await rooms.join('JJ1', during);
    hold = true;
    rooms.onEvent('state', 'JJ1');
    rooms.identify('JJ1', during, 13);
    expect((during.socket as unknown as FakeSocket).sent).toHaveLength(1);
    release();
    await tick();
    const earlySent = (early.socket as unknown as FakeSocket).sent;
    expect(earlySent[0]).toMatchObject({ type: 'snapshot', snapshot: { me: { bidder: '竞买人2' } } });
    expect(earlySent.filter((m) => (m as { type: string }).type === 'me')).toEqual([]);
    const duringSent = (during.socket as unknown as FakeSocket).sent;
    expect(duringSent.filter((m) => (m as { type: string }).type === 'me')).toEqual([{ type: 'me', me: { bidder: '竞买人3', enrolled: true } }]);
  });

  it('takes a token only from a text frame {"type":"auth","token":…}', () => {
    expect(authTokenOf(Buffer.from('{"type":"auth","token":"abc"}'), false)).toBe('abc');
    expect(authTokenOf(Buffer.from('{"type":"auth","token":"abc"}'), true)).toBeNull();
    expect(authTokenOf(Buffer.from('{"type":"hello","token":"abc"}'), false)).toBeNull();
    expect(authTokenOf(Buffer.from('{"type":"auth","token":42}'), false)).toBeNull();
    expect(authTokenOf(Buffer.from(`{"type":"auth","token":"${'x'.repeat(129)}"}`), false)).toBeNull();
    expect(authTokenOf(Buffer.from('not json'), false)).toBeNull();
    expect(authTokenOf(Buffer.from('null'), false)).toBeNull();
  });

  it('turns a viewer away when the auction cannot be shown, and forgets an empty room', async () => {
    const rooms = new AuctionRooms({ build: async () => Promise.reject(new Error('竞价不存在')), now: () => new Date(0) }, log);
    await expect(rooms.join('JJ9', { socket: new FakeSocket() as unknown as ServerSocket, enterpriseId: null })).rejects.toThrow('竞价不存在');
    expect(rooms.watcherCount()).toBe(0);
  });
});

describe.each(testDatabaseKinds())('live auction fan-out on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { bidRateLimit: 100_000 });
  });
  afterAll(async () => t?.close());

  it('a burst of bids reaches every watcher in order, each with the snapshot the database holds, and each viewer its own me', async () => {
    const stockCode = await createProduct(t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now(), { maxStep: null }));
    const tradeId = created.json().result.tradeId as string;
    await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId });
    const bidders: Awaited<ReturnType<typeof fundedEnterprise>>[] = [];
    for (let i = 0; i < 2; i++) {
      const p = await fundedEnterprise(t.app, t.database.db);
      await creditThroughDepositIn(t.database.db, t.clock, p.actor, await operatorActor(t.database.db), 50_000_000);
      expect((await post(t.app, '/api/bidEnroll/add', p.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
      bidders.push({ ...p, token: await loginAs(t.app, p.user.username) });
    }
    t.clock.advance(121_000);
    await runScheduledJobs(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;

    type Message = { type: string; snapshot: { bidCount: number; bestPrice: number; bids: { seq: number; price: number }[]; me?: { bidder: string } | null } };
    // a signed-in viewer sends its token as the first message (never in the address); its `me` comes in the
    // snapshot or, when the snapshot went first, by itself right after: kept apart from the pushed events here
    const watch = async (token?: string) => {
      const messages: Message[] = [];
      const mine: { me?: { bidder: string } | null; auth?: boolean } = {};
      const socket = new WebSocket(`ws://127.0.0.1:${port}/trade-api/ws/auction?tradeId=${tradeId}`);
      if (token) socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
      socket.on('message', (data, isBinary) => {
        expect(isBinary).toBe(false);
        const message = JSON.parse(String(data));
        if (message.type === 'auth') mine.auth = message.ok;
        else if (message.type === 'me') mine.me = message.me;
        else {
          if (message.type === 'snapshot' && (message.snapshot.me || !token)) mine.me = message.snapshot.me;
          messages.push(message);
        }
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        const wait = () => (messages.length > 0 && mine.me !== undefined ? resolve() : setTimeout(wait, 10));
        wait();
      });
      return { socket, messages, mine };
    };
    const watchers = [await watch(bidders[0]!.token), await watch(bidders[1]!.token), await watch()];
    expect(watchers.map((w) => w.mine.me?.bidder ?? null)).toEqual(['竞买人1', '竞买人2', null]);
    expect(watchers.map((w) => w.mine.auth)).toEqual([true, true, undefined]);
    const buildsBefore = t.app.auctionRooms.builds;

    const N = 30;
    for (let i = 0; i < N; i++) {
      const response = await post(t.app, '/api/bidRecord/bidAnswerApply', bidders[i % 2]!.token, { tradeId, price: 80_000 + i * 100 });
      expect(response.statusCode, response.body).toBe(200);
    }
    const deadline = Date.now() + 10_000;
    while (watchers.some((w) => w.messages.length < N + 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(t.app.auctionRooms.builds).toBe(buildsBefore); // bids alone never read the database
    for (const { messages } of watchers) {
      const events = messages.slice(1);
      expect(events.map((m) => m.type)).toEqual(Array(N).fill('bid'));
      events.forEach((m, i) => {
        expect(m.snapshot).toMatchObject({ bidCount: i + 1, bestPrice: 80_000 + i * 100 });
        expect(m.snapshot.bids[0]).toMatchObject({ seq: i + 1, price: 80_000 + i * 100 });
        expect(m.snapshot).not.toHaveProperty('me');
      });
    }
    // the last pushed snapshot is what the database says
    const last = watchers[0]!.messages.at(-1)!.snapshot;
    const stored = (await buildSnapshot(t.database.db, t.clock, tradeId)).snapshot;
    expect({ ...last, serverTime: 0 }).toEqual({ ...stored, serverTime: 0 });

    // bids sent all at once are judged in groups, whose events come in one notification: still one push each, in order
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(t.app, '/api/bidRecord/bidAnswerApply', bidders[i % 2]!.token, { tradeId, price: 80_000 + (N + i) * 100 })),
    );
    const accepted = answers.filter((a) => a.statusCode === 200).map((a) => a.json().result.seq as number);
    expect(accepted.length).toBeGreaterThan(0);
    const total = N + accepted.length;
    while (watchers.some((w) => w.messages.length < total + 1) && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(t.app.auctionRooms.builds).toBe(buildsBefore);
    const final = (await buildSnapshot(t.database.db, t.clock, tradeId)).snapshot;
    expect(final.bidCount).toBe(total);
    for (const { messages } of watchers) {
      expect(messages.slice(1).map((m) => m.snapshot.bidCount)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect({ ...messages.at(-1)!.snapshot, serverTime: 0 }).toEqual({ ...final, serverTime: 0 });
    }
    for (const w of watchers) w.socket.close();
  });
});
