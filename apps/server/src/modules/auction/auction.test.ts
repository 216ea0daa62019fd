import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { auctionBids, auctions, deals, fundAccounts, tradeDeposits } from '../../db/schema/index';
import { loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { runScheduledJobs } from '../../plugins/scheduler';
import { eventBusOf } from '../../lib/events';
import { reconcile } from '../funds/ledger';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { auctionInput } from './auction.test-helpers';

const S = 1000;

describe.each(testDatabaseKinds())('auction trading on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
  });
  afterAll(async () => t?.close());

  type Party = Awaited<ReturnType<typeof fundedEnterprise>>;
  const fresh = async (p: Party) => ({ ...p, token: await loginAs(t.app, p.user.username) });

  /** Publishes and approves an auction, enrols `bidders` funded enterprises, and moves the clock into bidding. */
  async function liveAuction(overrides = {}, bidders = 2) {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect(tradeId).toMatch(/^JJ\d{12}$/);
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    const parties: Party[] = [];
    for (let i = 0; i < bidders; i++) {
      const p = await fundedEnterprise(t.app, t.database.db);
      await creditThroughDepositIn(t.database.db, t.clock, p.actor, await operatorActor(t.database.db), 50_000_000);
      const enrolled = await post(t.app, '/api/bidEnroll/add', p.token, { tradeId, acceptRules: true, requestId: newRequestId() });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
      parties.push(p);
    }
    const [row] = await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeId));
    t.clock.advance(row!.bidStart.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    return { tradeId, seller: await fresh(seller), bidders: await Promise.all(parties.map(fresh)), operatorToken: (await signedIn(t.app, t.database.db, { role: 'operator' })).token };
  }
  const bid = (p: { token: string }, tradeId: string, price: number) => post(t.app, '/api/bidRecord/bidAnswerApply', p.token, { tradeId, price });
  const auctionRow = async (tradeId: string) => (await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeId)))[0]!;

  it('validates the publishing form', async () => {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const base = auctionInput(stockCode, t.clock.now());
    const cases: [object, string][] = [
      [{ startPrice: 0 }, '起拍价'],
      [{ minStep: 0 }, '最小加价幅度'],
      [{ maxStep: 50 }, '最大加价幅度不能小于最小加价幅度'],
      [{ limitPrice: 70_000 }, '出价上限不能低于起拍价'],
      [{ tradeType: 3, limitPrice: 90_000 }, '出价下限不能高于基价'],
      [{ enrolDeadline: base.bidEnd }, '报名截止时间不能晚于竞价开始时间'],
      [{ bidEnd: base.bidStart }, '竞价结束时间须晚于开始时间'],
      [{ extensionSeconds: 5 }, '延时周期'],
      [{ enrolDeadline: new Date(t.clock.now().getTime() - 3600 * S).toISOString() }, '报名截止时间须晚于当前时间'],
    ];
    for (const [override, message] of cases) {
      const response = await post(t.app, '/api/bidApply', seller.token, { ...base, ...override });
      expect(response.statusCode, JSON.stringify(override)).toBeGreaterThanOrEqual(400);
      expect(response.json().message).toContain(message);
    }
  });

  it("the hall's publisher filter takes a client number and shows that enterprise's auctions under its name", async () => {
    const { tradeId, seller } = await liveAuction({}, 1);
    const hall = async (enterpriseId: string) => (await post(t.app, '/api/tradeHome/bidTrade/list', null, { pageNo: 1, pageSize: 50, enterpriseId })).json().result;
    const own = await hall(seller.enterprise.clientId);
    expect(own.records.map((r: { tradeId: string }) => r.tradeId)).toEqual([tradeId]);
    expect(own.records[0].enterpriseName).toBe(seller.enterprise.organName);
    expect(await hall('C000000')).toMatchObject({ records: [], total: 0 });
  });

  it('enrolment: refused to the publisher, twice, after the deadline and without funds', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const tradeId = (await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()))).json().result.tradeId;
    await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId });
    const enrol = (token: string, requestId = newRequestId()) => post(t.app, '/api/bidEnroll/add', token, { tradeId, acceptRules: true, requestId });
    expect((await enrol(seller.token)).json().message).toContain('不能参与本企业发布的竞价');
    const poor = await fundedEnterprise(t.app, t.database.db);
    const noFunds = await enrol(poor.token);
    expect(noFunds.statusCode).toBe(422);
    expect(noFunds.json().message).toContain('可用资金不足');
    const rich = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, rich.actor, await operatorActor(t.database.db), 30_000_000);
    const requestId = newRequestId();
    expect((await enrol(rich.token, requestId)).statusCode).toBe(200);
    expect((await enrol(rich.token, requestId)).statusCode).toBe(200); // the same click again
    expect((await enrol(rich.token)).json().message).toContain('已报名');
    const [account] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, rich.enterprise.id));
    expect(account).toMatchObject({ frozen: 20_000_000, available: 10_000_000 });
    const missingRules = await post(t.app, '/api/bidEnroll/add', rich.token, { tradeId, requestId: newRequestId() });
    expect(missingRules.statusCode).toBe(400);
    t.clock.advance(61 * S);
    const late = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, late.actor, await operatorActor(t.database.db), 30_000_000);
    expect((await enrol(late.token)).json().message).toContain('报名已于');
  });

  it('forward auction: start price, step limits, cap, ties, leader, unenrolled and early/late bids', async () => {
    const { tradeId, bidders, seller } = await liveAuction({ limitPrice: 81_500 });
    const [a, b] = bidders as [Party, Party];
    const outsider = await fundedEnterprise(t.app, t.database.db);
    expect((await bid(outsider, tradeId, 80_000)).json().message).toContain('未报名');
    expect((await bid(seller, tradeId, 80_000)).json().message).toContain('不能参与本企业');
    expect((await bid(a, tradeId, 79_999)).json().message).toBe('首次出价须不低于起拍价 (800.00 元/吨)');
    expect((await bid(a, tradeId, 81_001)).json().message).toContain('最大加价幅度');
    expect((await bid(a, tradeId, 80_000)).statusCode).toBe(200);
    expect((await bid(a, tradeId, 80_100)).json().message).toContain('已是最优出价');
    // a tie with the best price is never accepted
    expect((await bid(b, tradeId, 80_000)).json().message).toBe('出价须不低于当前价加最小加价幅度 (801.00 元/吨)');
    expect((await bid(b, tradeId, 80_050)).json().message).toContain('最小加价幅度');
    expect((await bid(b, tradeId, 81_001)).json().message).toContain('最大加价幅度');
    expect((await bid(b, tradeId, 81_000)).statusCode).toBe(200);
    expect((await bid(a, tradeId, 81_501)).json().message).toBe('出价不能高于出价上限 (815.00 元/吨)');
    expect((await bid(a, tradeId, 81_500)).statusCode).toBe(200);
    const row = await auctionRow(tradeId);
    expect(row).toMatchObject({ bestPriceFen: 81_500, bidCount: 3, bestEnterpriseId: a.enterprise.id });
    const bad = await post(t.app, '/api/bidRecord/bidAnswerApply', a.token, { tradeId, price: 820.5 });
    expect(bad.statusCode).toBe(400);
  });

  it('reverse auction mirrors it downward with a floor', async () => {
    const { tradeId, bidders } = await liveAuction({ tradeType: 3, limitPrice: 78_500 });
    const [a, b] = bidders as [Party, Party];
    expect((await bid(a, tradeId, 80_001)).json().message).toBe('首次出价须不高于基价 (800.00 元/吨)');
    expect((await bid(a, tradeId, 80_000)).statusCode).toBe(200);
    expect((await bid(b, tradeId, 79_950)).json().message).toBe('出价须不高于当前价减最小降价幅度 (799.00 元/吨)');
    expect((await bid(b, tradeId, 78_999)).json().message).toContain('最大降价幅度');
    expect((await bid(b, tradeId, 79_000)).statusCode).toBe(200);
    expect((await bid(a, tradeId, 78_499)).json().message).toContain('出价下限');
    expect((await bid(a, tradeId, 78_500)).statusCode).toBe(200);
    t.clock.advance(3600 * S);
    await runScheduledJobs(t.app);
    const [deal] = await t.database.db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    // a purchase: the publisher buys, the winner sells
    expect(deal).toMatchObject({ priceFen: 78_500, sellerEnterpriseId: a.enterprise.id, amountFen: 78_500 * 5_000 });
  });

  it('timing: a bid 1 ms before the end extends, 1 ms after is refused; a bid in the last second restarts the period', async () => {
    const { tradeId, bidders } = await liveAuction();
    const [a, b] = bidders as [Party, Party];
    const row = await auctionRow(tradeId);
    t.clock.advance(row.bidEnd.getTime() - t.clock.now().getTime() - 1); // 1 ms before the regular end
    expect((await bid(a, tradeId, 80_000)).statusCode).toBe(200);
    expect((await auctionRow(tradeId)).currentEnd.getTime()).toBe(row.bidEnd.getTime() + 120 * S);
    t.clock.advance(1 + 119 * S); // in the last second of the extension
    expect((await bid(b, tradeId, 80_100)).statusCode).toBe(200);
    const restarted = await auctionRow(tradeId);
    expect(restarted.currentEnd.getTime()).toBe(t.clock.now().getTime() + 120 * S);
    t.clock.advance(120 * S - 1);
    await runScheduledJobs(t.app);
    expect((await auctionRow(tradeId)).hangState).toBe(2); // still running 1 ms before the new deadline
    t.clock.advance(1);
    expect((await bid(a, tradeId, 80_200)).json().message).toBe('竞价已结束');
    await runScheduledJobs(t.app);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 3, result: 'deal', bestPriceFen: 80_100 });
    const bids = await t.database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, restarted.id));
    expect(bids.map((x) => x.inExtension)).toEqual([0, 1]);
  });

  it('a deadline stored with microseconds (written by SQL, e.g. an import) still takes bids', async () => {
    const { tradeId, bidders } = await liveAuction();
    const [a, b] = bidders as [Party, Party];
    await t.database.db.execute(sql`UPDATE auction SET current_end = current_end + interval '123 microseconds' WHERE trade_no = ${tradeId}`);
    const first = await bid(a, tradeId, 80_000);
    expect(first.statusCode, first.body).toBe(200);
    expect((await bid(b, tradeId, 80_100)).statusCode).toBe(200);
    expect((await auctionRow(tradeId)).bidCount).toBe(2);
  });

  it("the publisher's results come latest-ended first, whatever order they were published in", async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const now = t.clock.now().getTime();
    const publish = async (bidEndMs: number) => {
      const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now(), { bidEnd: new Date(now + bidEndMs).toISOString() }));
      expect(created.statusCode, created.body).toBe(200);
      const tradeId = created.json().result.tradeId as string;
      expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
      return tradeId;
    };
    const endsLater = await publish(900 * S);
    const endsFirst = await publish(720 * S);
    t.clock.advance(901 * S);
    await runScheduledJobs(t.app);
    const token = await loginAs(t.app, seller.user.username);
    const results = (await post(t.app, '/api/myBidTradeList', token, { pageNo: 1, pageSize: 10, hangState: 3 })).json().result.records.map((r: { tradeId: string }) => r.tradeId);
    expect(results).toEqual([endsLater, endsFirst]);
    // the list of every auction stays newest-published first
    const all = (await post(t.app, '/api/myBidTradeList', token, { pageNo: 1, pageSize: 10 })).json().result.records.map((r: { tradeId: string }) => r.tradeId);
    expect(all).toEqual([endsFirst, endsLater]);
  });

  it('no bid by the regular end: 流拍, every deposit released', async () => {
    const { tradeId, bidders } = await liveAuction();
    const row = await auctionRow(tradeId);
    t.clock.advance(row.bidEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 3, result: 'failed' });
    for (const p of bidders) {
      const [account] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, p.enterprise.id));
      expect(account).toMatchObject({ frozen: 0, available: 50_000_000 });
    }
    const result = (await post(t.app, '/api/bidResult', null, { tradeId })).json().result;
    expect(result).toMatchObject({ dealPrice: null, winner: null, bidCount: 0 });
  });

  it('200 concurrent bids from 20 enterprises: strictly improving, nothing lost, the best wins, the rest released', async () => {
    const { tradeId, bidders } = await liveAuction({ maxStep: null }, 20);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => bid(bidders[i % 20]!, tradeId, 80_000 + 100 * (1 + Math.floor(i / 20)) + (i % 20) * 3)),
    );
    const accepted = responses.filter((r) => r.statusCode === 200).map((r) => r.json().result as { seq: number; price: number });
    for (const r of responses.filter((x) => x.statusCode !== 200)) expect(r.statusCode).toBe(422);
    const row = await auctionRow(tradeId);
    const stored = await t.database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, row.id)).orderBy(auctionBids.seq);
    expect(stored).toHaveLength(accepted.length);
    expect(stored.map((b) => b.seq)).toEqual(stored.map((_, i) => i + 1));
    for (let i = 1; i < stored.length; i++) expect(stored[i]!.priceFen).toBeGreaterThanOrEqual(stored[i - 1]!.priceFen + 100);
    expect(row.bestPriceFen).toBe(stored.at(-1)!.priceFen);
    t.clock.advance(row.currentEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    const winner = stored.at(-1)!.enterpriseId;
    const deposits = await t.database.db.select().from(tradeDeposits).where(eq(tradeDeposits.tradeId, tradeId));
    expect(deposits).toHaveLength(20);
    for (const d of deposits) expect(d.status).toBe(d.enterpriseId === winner ? 'performance' : 'released');
    for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
    const result = (await post(t.app, '/api/bidResult', null, { tradeId })).json().result;
    expect(result).toMatchObject({ dealPrice: row.bestPriceFen, bidCount: stored.length });
    expect(result.winner).toContain('*');
  });

  it('pushes a snapshot on connect and every accepted bid to WebSocket watchers', async () => {
    const { tradeId, bidders } = await liveAuction();
    const [a] = bidders as [Party];
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/trade-api/ws/auction?tradeId=${tradeId}`);
    // signed in by the first message, never the address: `me` comes in the snapshot or right after it
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token: a.token })));
    const messages: { type: string; snapshot: { bestPrice: number | null; me: { bidder: string } | null; bidCount: number } }[] = [];
    let me: { bidder: string } | null | undefined;
    let signedIn: boolean | undefined;
    const arrived = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${messages.length} messages`)), 10_000);
        const check = () => (messages.length >= n && me !== undefined ? (clearTimeout(timer), resolve()) : setTimeout(check, 20));
        check();
      });
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'auth') signedIn = message.ok;
      else if (message.type === 'me') me = message.me;
      else {
        if (message.type === 'snapshot' && message.snapshot.me) me = message.snapshot.me;
        messages.push(message);
      }
    });
    await arrived(1);
    expect(signedIn).toBe(true);
    expect(messages[0]).toMatchObject({ type: 'snapshot', snapshot: { bestPrice: null } });
    expect(me).toMatchObject({ bidder: '竞买人1' });
    await bid(a, tradeId, 80_000);
    await arrived(2);
    expect(messages[1]).toMatchObject({ type: 'bid', snapshot: { bestPrice: 80_000, bidCount: 1 } });
    socket.close();

    // the app hears each of its bids once: delivered at the commit, its echo through NOTIFY (PostgreSQL) skipped
    const heard: number[] = [];
    const stop = eventBusOf(t.database.db).on('auction.bid_accepted', (event) => void (event.tradeNo === tradeId && heard.push(event.seq)));
    const [, b] = bidders as [Party, Party];
    expect((await bid(b, tradeId, 80_100)).statusCode).toBe(200);
    expect((await bid(a, tradeId, 80_200)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop();
    expect(heard).toEqual([2, 3]);

    const bad = new WebSocket(`ws://127.0.0.1:${port}/trade-api/ws/auction?tradeId=JJ000000000000`);
    const closed = await new Promise<number>((resolve) => bad.on('close', (code) => resolve(code)));
    expect(closed).toBe(4404);
  });
});
