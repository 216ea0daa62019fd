import { AuctionMarketStates, refusedMoveMessage, verifyBidLog, type AuctionBidLog } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctionBids, auctions, deals, fundAccounts, tradeDeposits } from '../../db/schema/index';
import { eventBusOf, type EventName } from '../../lib/events';
import { runScheduledJobs } from '../../plugins/scheduler';
import { loginAs, signedIn } from '../../test/factories';
import { messagesOf, settled } from '../../test/notices';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { reconcile } from '../funds/ledger';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { auctionInput } from './auction.test-helpers';

const S = 1000;

/** The trading centre's pause, resume and cancel of a running auction (实时监控), and the staff's views. */
describe.each(testDatabaseKinds())('operating an auction on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  let operatorToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  type Party = Awaited<ReturnType<typeof fundedEnterprise>>;
  const fresh = async (p: Party) => ({ ...p, token: await loginAs(t.app, p.user.username) });

  /** Publishes and approves an auction, enrols `bidders` funded enterprises and, unless told, moves into bidding. */
  async function liveAuction(bidders = 2, intoBidding = true) {
    const seller = await fundedEnterprise(t.app, t.database.db);
    const tradeId = (await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()))).json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operatorToken, { tradeId })).statusCode).toBe(200);
    const parties: Party[] = [];
    for (let i = 0; i < bidders; i++) {
      const p = await fundedEnterprise(t.app, t.database.db);
      await creditThroughDepositIn(t.database.db, t.clock, p.actor, await operatorActor(t.database.db), 50_000_000);
      expect((await post(t.app, '/api/bidEnroll/add', p.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
      parties.push(p);
    }
    if (intoBidding) {
      const row = await auctionRow(tradeId);
      t.clock.advance(row.bidStart.getTime() - t.clock.now().getTime());
      await runScheduledJobs(t.app);
    }
    return { tradeId, seller: await fresh(seller), bidders: await Promise.all(parties.map(fresh)) };
  }
  const bid = (p: { token: string }, tradeId: string, price: number) => post(t.app, '/api/bidRecord/bidAnswerApply', p.token, { tradeId, price });
  const auctionRow = async (tradeId: string) => (await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeId)))[0]!;
  const pause = (tradeId: string, reason = '行情异常波动，核查中', token = operatorToken) => post(t.app, '/api/monitor/auction/pause', token, { tradeId, reason });
  const resume = (tradeId: string, token = operatorToken) => post(t.app, '/api/monitor/auction/resume', token, { tradeId });
  const cancel = (tradeId: string, reason = '挂牌信息有误，撤销重发', token = operatorToken) => post(t.app, '/api/monitor/auction/cancel', token, { tradeId, reason });

  /**
   * Collects the named events of one trade while `work` runs and until `expected` many arrived (on PostgreSQL they
   * come back through NOTIFY after the commit), waiting 5 s at most.
   */
  async function eventsDuring(tradeId: string, names: EventName[], work: () => Promise<unknown>, expected = 1) {
    const heard: string[] = [];
    const bus = eventBusOf(t.database.db);
    const stops = names.map((name) => bus.on(name, (payload) => void ((payload as { tradeNo?: string }).tradeNo === tradeId && heard.push(name))));
    try {
      await work();
      for (let waited = 0; heard.length < expected && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 100)); // and nothing more arrives
    } finally {
      for (const stop of stops) stop();
    }
    return heard;
  }

  it('pause: a bid is refused and nothing stored; resume gives back the time left at the pause; the bid log still verifies', async () => {
    const { tradeId, bidders } = await liveAuction();
    const [a, b] = bidders as [Party, Party];
    expect((await bid(a, tradeId, 80_000)).statusCode).toBe(200);
    t.clock.advance(90 * S);
    const before = await auctionRow(tradeId);
    const leftAtPause = before.currentEnd.getTime() - t.clock.now().getTime();

    const heard = await eventsDuring(tradeId, ['auction.paused'], async () => expect((await pause(tradeId)).statusCode).toBe(200));
    expect(heard).toEqual(['auction.paused']);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 4, pausedRemainingMs: leftAtPause, operatorReason: '行情异常波动，核查中' });

    const refused = await bid(b, tradeId, 80_100);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('竞价已暂停：行情异常波动，核查中，恢复后可继续出价');
    expect((await auctionRow(tradeId)).bidCount).toBe(1);
    expect(await t.database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, before.id))).toHaveLength(1);

    // the room shows 暂停 with the reason and the frozen time left
    const room = (await t.app.inject({ method: 'GET', url: `/trade-api/api/bidRecord/snapshot?tradeId=${tradeId}` })).json().result;
    expect(room).toMatchObject({ hangState: 4, operatorReason: '行情异常波动，核查中', pausedRemainingMs: leftAtPause });

    // long past the old deadline the award leaves a paused auction alone
    t.clock.advance(leftAtPause + 30 * 60 * S);
    await runScheduledJobs(t.app);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 4, result: null });
    expect((await bid(b, tradeId, 80_100)).statusCode).toBe(422);
    // the SQL form of the time rule agrees: the hall lists it as 暂停, not ended
    const hall = (await post(t.app, '/api/tradeHome/bidTrade/list', null, { pageNo: 1, pageSize: 10, tradeId })).json().result;
    expect(hall.records[0]).toMatchObject({ tradeId, hangState: 4 });

    const resumedEvents = await eventsDuring(tradeId, ['auction.resumed'], async () => expect((await resume(tradeId)).statusCode).toBe(200));
    expect(resumedEvents).toEqual(['auction.resumed']);
    const after = await auctionRow(tradeId);
    expect(after.hangState).toBe(2);
    expect(after.currentEnd.getTime() - t.clock.now().getTime()).toBe(leftAtPause);
    expect(after.currentEnd.getTime()).toBeGreaterThanOrEqual(after.bidEnd.getTime());
    expect(after).toMatchObject({ pausedAt: null, pausedRemainingMs: null });

    // bidding goes on where it stopped: the sequencer did not drift
    const accepted = await bid(b, tradeId, 80_100);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().result.seq).toBe(2);
    expect((await bid(a, tradeId, 80_200)).json().result.seq).toBe(3);

    const ended = await auctionRow(tradeId);
    t.clock.advance(ended.currentEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 3, result: 'deal', bestPriceFen: 80_200 });
    const log = (await t.app.inject({ method: 'GET', url: `/trade-api/api/bidRecord/log?tradeId=${tradeId}` })).json().result as AuctionBidLog;
    expect(log.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(verifyBidLog(log)).toMatchObject({ ok: true });
  });

  it('the enrolled and the publisher are told urgently of the pause and the resume', async () => {
    const { tradeId, bidders, seller } = await liveAuction(1);
    await pause(tradeId, '系统维护');
    await settled(t);
    const [told] = await messagesOf(t.database.db, bidders[0]!.user.id, 'auction.paused');
    expect(told).toMatchObject({ title: '竞价已暂停', urgent: true });
    expect(told!.content).toContain('系统维护');
    expect(await messagesOf(t.database.db, seller.user.id, 'auction.paused')).toHaveLength(1);
    await resume(tradeId);
    await settled(t);
    expect(await messagesOf(t.database.db, bidders[0]!.user.id, 'auction.resumed')).toHaveLength(1);
  });

  it('cancel: no deal, every deposit released, the ledger reconciles, the bidders are told; bids refused', async () => {
    const { tradeId, bidders } = await liveAuction(3);
    expect((await bid(bidders[0]!, tradeId, 80_000)).statusCode).toBe(200);
    const preview = (await post(t.app, '/api/monitor/auction/cancelPreview', operatorToken, { tradeId })).json().result;
    expect(preview).toEqual({ depositCount: 3, depositTotal: 60_000_000 });

    const heard = await eventsDuring(tradeId, ['auction.cancelled', 'auction.ended'], async () => {
      const done = await cancel(tradeId);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().result).toMatchObject({ hangState: 5, releasedDeposit: 60_000_000 });
    });
    expect(heard).toEqual(['auction.cancelled']);
    expect(await auctionRow(tradeId)).toMatchObject({ hangState: 5, result: null, operatorReason: '挂牌信息有误，撤销重发' });
    for (const p of bidders) {
      const [account] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, p.enterprise.id));
      expect(account).toMatchObject({ frozen: 0, available: 50_000_000 });
    }
    const deposits = await t.database.db.select().from(tradeDeposits).where(eq(tradeDeposits.tradeId, tradeId));
    expect(deposits.map((d) => d.status)).toEqual(['released', 'released', 'released']);
    for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
    expect(await t.database.db.select().from(deals).where(eq(deals.tradeNo, tradeId))).toHaveLength(0);

    const refused = await bid(bidders[1]!, tradeId, 80_100);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('竞价已撤销');
    // the award never touches it, and the public hall shows 已撤销
    t.clock.advance(60 * 60 * S);
    await runScheduledJobs(t.app);
    expect((await auctionRow(tradeId)).hangState).toBe(5);
    const hall = (await post(t.app, '/api/tradeHome/bidTrade/list', null, { pageNo: 1, pageSize: 10, tradeId })).json().result;
    expect(hall.records[0]).toMatchObject({ tradeId, hangState: 5 });

    await settled(t);
    const [told] = await messagesOf(t.database.db, bidders[2]!.user.id, 'auction.cancelled');
    expect(told).toMatchObject({ title: '竞价已撤销', urgent: true });
    expect(told!.content).toContain('保证金 200,000.00 元已解冻');
  });

  it('a cancel before bidding releases the deposits too', async () => {
    const { tradeId, bidders } = await liveAuction(2, false);
    expect((await cancel(tradeId)).statusCode).toBe(200);
    for (const p of bidders) {
      const [account] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, p.enterprise.id));
      expect(account).toMatchObject({ frozen: 0, available: 50_000_000 });
    }
    for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
  });

  it('refused to traders (403) and from the wrong state (the table says why, in Chinese)', async () => {
    const { tradeId, bidders, seller } = await liveAuction(1, false);
    for (const token of [bidders[0]!.token, seller.token]) {
      expect((await pause(tradeId, '我要暂停', token)).statusCode).toBe(403);
      expect((await resume(tradeId, token)).statusCode).toBe(403);
      expect((await cancel(tradeId, '我要撤销', token)).statusCode).toBe(403);
      expect((await post(t.app, '/api/monitor/board', token, {})).statusCode).toBe(403);
      expect((await post(t.app, '/api/monitor/auction/bidders', token, { tradeId })).statusCode).toBe(403);
    }
    // enrolling: nothing to pause or resume
    const notBidding = await pause(tradeId);
    expect(notBidding.statusCode).toBe(409);
    expect(notBidding.json().message).toBe(refusedMoveMessage(AuctionMarketStates, 'enrolling', 'paused'));
    expect((await resume(tradeId)).json().message).toBe(refusedMoveMessage(AuctionMarketStates, 'enrolling', 'bidding'));
    // a reason is required
    expect((await pause(tradeId, '')).statusCode).toBe(400);
    expect((await auctionRow(tradeId)).hangState).toBe(0);

    // ended: neither paused nor cancelled
    const row = await auctionRow(tradeId);
    t.clock.advance(row.currentEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    expect((await auctionRow(tradeId)).hangState).toBe(3);
    const late = await cancel(tradeId);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(refusedMoveMessage(AuctionMarketStates, 'ended', 'cancelled'));
    expect((await pause(tradeId)).json().message).toBe(refusedMoveMessage(AuctionMarketStates, 'ended', 'paused'));
  });

  it("the board shows today's auctions with real names and counts; the staff room names every alias", async () => {
    const { tradeId, bidders, seller } = await liveAuction(2);
    await bid(bidders[1]!, tradeId, 80_500);
    const board = (await post(t.app, '/api/monitor/board', operatorToken, {})).json().result;
    const row = board.auctions.find((a: { tradeId: string }) => a.tradeId === tradeId);
    expect(row).toMatchObject({ enterpriseName: seller.enterprise.organName, hangState: 2, enrolCount: 2, bidCount: 1, startPrice: 80_000, currentPrice: 80_500, premium: 500, premiumBp: 63 });
    const names = (await post(t.app, '/api/monitor/auction/bidders', operatorToken, { tradeId })).json().result;
    expect(names).toEqual([
      { bidder: '竞买人1', enterpriseName: bidders[0]!.enterprise.organName, status: 'enrolled' },
      { bidder: '竞买人2', enterpriseName: bidders[1]!.enterprise.organName, status: 'enrolled' },
    ]);
  });
});
