import { AuctionMarketStates } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auctions } from '../../db/schema/index';
import { eventBusOf, type EventName } from '../../lib/events';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { auctionInput } from './auction.test-helpers';

/** Every move of the auction market table publishes its event: by the scheduler, by the first bid, by the award. */
describe.each(testDatabaseKinds())('auction market state moves on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  const heard: { name: EventName; payload: { id: number; to: string; tradeNo: string; result?: string } }[] = [];
  // on PostgreSQL these events come back through LISTEN, a moment after the commit: the checks poll
  const heardOf = (tradeNo: string) => heard.filter((h) => h.payload.tradeNo === tradeNo).map((h) => `${h.name}:${h.payload.to}`);

  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    const bus = eventBusOf(t.database.db);
    for (const move of Object.values(AuctionMarketStates.moves)) bus.on(move.event, (payload) => void heard.push({ name: move.event, payload }));
  });
  afterAll(async () => t?.close());
  beforeEach(() => void (heard.length = 0));

  const row = async (tradeNo: string) => (await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeNo)))[0]!;
  const advanceTo = (at: Date) => t.clock.advance(at.getTime() - t.clock.now().getTime());

  /** Publishes and approves an auction and enrols `bidders` funded enterprises; the scheduler has not run since. */
  async function approvedAuction(bidders = 0) {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    const parties = [];
    for (let i = 0; i < bidders; i++) {
      const p = await fundedEnterprise(t.app, t.database.db);
      await creditThroughDepositIn(t.database.db, t.clock, p.actor, await operatorActor(t.database.db), 50_000_000);
      expect((await post(t.app, '/api/bidEnroll/add', p.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
      parties.push(p);
    }
    return { tradeId, bidders: parties, operator };
  }

  it('the scheduler closes enrolment and starts bidding on time, the award ends it: each move announced once', async () => {
    const { tradeId } = await approvedAuction();
    const a = await row(tradeId);
    await expect.poll(() => heardOf(tradeId)).toEqual([]);
    advanceTo(a.enrolDeadline);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.enrolment_closed:waiting']);
    advanceTo(a.bidStart);
    await runScheduledJobs(t.app);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.enrolment_closed:waiting', 'auction.bidding_started:bidding']);
    expect((await row(tradeId)).hangState).toBe(2);
    advanceTo(a.currentEnd);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.enrolment_closed:waiting', 'auction.bidding_started:bidding', 'auction.ended:ended']);
    expect(heard.at(-1)!.payload).toMatchObject({ id: a.id, tradeNo: tradeId, result: 'failed' });
    expect(await row(tradeId)).toMatchObject({ hangState: 3, result: 'failed' });
  });

  it('a bid before the scheduler moves the auction into bidding: announced by the first bid only', async () => {
    const { tradeId, bidders } = await approvedAuction(2);
    const a = await row(tradeId);
    advanceTo(a.bidStart);
    expect((await row(tradeId)).hangState).toBe(0); // the scheduler has not run
    const bid = (i: number, price: number) => post(t.app, '/api/bidRecord/bidAnswerApply', bidders[i]!.token, { tradeId, price });
    const first = await bid(0, 80_100);
    expect(first.statusCode, first.body).toBe(200);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.bidding_started:bidding']);
    expect(heard[0]!.payload).toMatchObject({ id: a.id, tradeNo: tradeId });
    expect((await row(tradeId)).hangState).toBe(2);
    expect((await bid(1, 80_200)).statusCode).toBe(200);
    await runScheduledJobs(t.app); // nothing left for it to move
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.bidding_started:bidding']);

    t.clock.advance((await row(tradeId)).currentEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.bidding_started:bidding', 'auction.ended:ended']);
    expect(heard.at(-1)!.payload).toMatchObject({ tradeNo: tradeId, result: 'deal' });
  });

  it('concurrent first bids of several bidders announce bidding_started once', async () => {
    const { tradeId, bidders } = await approvedAuction(3);
    advanceTo((await row(tradeId)).bidStart);
    const responses = await Promise.all(bidders.map((p, i) => post(t.app, '/api/bidRecord/bidAnswerApply', p.token, { tradeId, price: 80_100 + i * 100 })));
    expect(responses.some((r) => r.statusCode === 200)).toBe(true);
    await expect.poll(() => heardOf(tradeId)).toEqual(['auction.bidding_started:bidding']);
  });
});
