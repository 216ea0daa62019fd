import { ListingMarketStates } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema/index';
import { eventBusOf, type EventName } from '../../lib/events';
import { transition, transitionMany } from '../../lib/transition';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, listingInput, post } from './listing.test-helpers';

const HOUR = 3600_000;

/** Every move of the listing market table publishes its event: on time (scheduler, approval) and by trading. */
describe.each(testDatabaseKinds())('listing market state moves on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  const heard: { name: EventName; payload: { id: number; to: string; tradeNo: string } }[] = [];
  const heardOf = (tradeNo: string) => heard.filter((h) => h.payload.tradeNo === tradeNo).map((h) => `${h.name}:${h.payload.to}`);

  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    const bus = eventBusOf(t.database.db);
    for (const move of Object.values(ListingMarketStates.moves)) bus.on(move.event, (payload) => void heard.push({ name: move.event, payload }));
  });
  afterAll(async () => t?.close());
  beforeEach(() => void (heard.length = 0));

  /** Publishes and approves a listing; the scheduler has not run since. */
  async function approvedListing(overrides = {}) {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    return { tradeId, seller };
  }
  const row = async (tradeNo: string) => (await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeNo)))[0]!;

  it('the scheduler opens and ends a listing on time, each move announced once with the trade number', async () => {
    const { tradeId } = await approvedListing();
    expect(heardOf(tradeId)).toEqual([]); // approved before its window: not started, nothing moved
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open']);
    expect((await row(tradeId)).hangState).toBe(1);
    const { id } = await row(tradeId);
    expect(heard.find((h) => h.payload.tradeNo === tradeId)!.payload.id).toBe(id);

    t.clock.advance(24 * HOUR);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open', 'listing.ended:ended']);
    expect(await row(tradeId)).toMatchObject({ hangState: 2, endedAt: t.clock.now() });
  });

  it('a listing approved inside its window is opened by the approval, announced', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const start = new Date(t.clock.now().getTime() + 1_000).toISOString();
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), { listedDateStart: start }));
    const tradeId = created.json().result.tradeId as string;
    t.clock.advance(2_000);
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open']);
    expect((await row(tradeId)).hangState).toBe(1);
  });

  it('selling out ends the listing (listing.ended once); a decline in its window reopens it (listing.reopened)', async () => {
    const { tradeId, seller } = await approvedListing({ quantity: 1_000_000 });
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const buyer = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, buyer.actor, await operatorActor(t.database.db), 100_000_000);
    const subscribe = () => post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 500_000, requestId: newRequestId() });
    const first = await subscribe();
    expect(first.statusCode, first.body).toBe(200);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open']);
    const last = await subscribe();
    expect(last.statusCode, last.body).toBe(200);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open', 'listing.ended:ended']);
    expect((await row(tradeId)).hangState).toBe(2);
    await runScheduledJobs(t.app); // sold out stays ended: nothing more
    expect(heardOf(tradeId)).toHaveLength(2);

    const declined = await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id: last.json().result.id, action: 'decline', reason: '数量不符' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(heardOf(tradeId)).toEqual(['listing.opened:open', 'listing.ended:ended', 'listing.reopened:open']);
    expect(await row(tradeId)).toMatchObject({ hangState: 1, endedAt: null, subscribedKg: 500_000 });
  });

  it('a move loses cleanly to a racing one: one row, one winner, one event; the set-based move skips it', async () => {
    const { tradeId } = await approvedListing();
    t.clock.advance(61_000);
    const { id } = await row(tradeId);
    const results = await Promise.allSettled(
      [1, 2].map(() => t.database.db.transaction((tx) => transition(tx, ListingMarketStates, 'open', { table: listings, where: eq(listings.id, id) }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ status: 409, code: 'state_changed', message: '挂牌状态为「挂牌中」，不能改为「挂牌中」，请刷新后重试' });
    expect(await t.database.db.transaction((tx) => transitionMany(tx, ListingMarketStates, 'open', { table: listings, where: eq(listings.id, id) }))).toEqual([]);
    expect(heard.filter((h) => h.payload.id === id).map((h) => h.name)).toEqual(['listing.opened']);
    await runScheduledJobs(t.app);
    expect(heard.filter((h) => h.payload.id === id)).toHaveLength(1);
  });
});
