import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { contracts, deals, messageDeliveries, messageEvents, messages } from '../db/schema/index';
import { makeContractForDeal } from '../flows/make-contract';
import { newRequestId } from '../modules/funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../modules/listing/listing.test-helpers';
import { runScheduledJobs } from '../plugins/scheduler';
import { signedIn } from '../test/factories';
import { tradingParty, type TradingParty } from '../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../test/test-app';

const HOUR = 3600_000;

describe.each(testDatabaseKinds())('reminders on %s', (kind) => {
  let t: TestApp;
  let seller: TradingParty;
  let buyer: TradingParty;
  let contractId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    seller = await tradingParty(t);
    buyer = await tradingParty(t);
    const operator = await signedIn(t.app, db, { role: 'operator' });
    const listing = listingInput(await createProduct(db), t.clock.now(), { autoConfirm: true, price: 84_550, maxSubscribe: 500_000, quantity: 10_000_000 });
    const tradeId = (await post(t.app, '/api/addListedApply', seller.adminToken, listing)).json().result.tradeId as string;
    await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId });
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    expect((await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: 500_000, requestId: newRequestId() })).statusCode).toBe(200);
    const [deal] = await db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    await makeContractForDeal(db, t.app.storage, t.clock, deal!.id);
    const [contract] = await db.select().from(contracts).where(eq(contracts.dealId, deal!.id));
    contractId = contract!.id;
    await t.app.notifications.settled();
  }, 120_000);
  afterAll(async () => t?.close());

  const reminders = () =>
    t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.kind, 'contract.deadline_soon'), inArray(messages.userId, [seller.admin.id, buyer.admin.id, seller.trader.id, buyer.trader.id])));

  it('4 hours before the signing deadline both unsigned parties are reminded once, by message and SMS', async () => {
    const [contract] = await t.database.db.select().from(contracts).where(eq(contracts.id, contractId));
    // 5 hours before: too early
    t.clock.advance(contract!.signDeadline.getTime() - 5 * HOUR - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    await t.app.notifications.settled();
    expect(await reminders()).toHaveLength(0);
    // 3 hours before: due
    t.clock.advance(2 * HOUR);
    await runScheduledJobs(t.app);
    await t.app.notifications.settled();
    const sent = await reminders();
    expect(sent.map((m) => m.userId).sort()).toEqual([seller.admin.id, buyer.admin.id, seller.trader.id, buyer.trader.id].sort());
    for (const m of sent) {
      expect(m.title).toBe('合同即将逾期');
      expect(m.urgent).toBe(true);
      expect(m.dueAt?.toISOString()).toBe(contract!.signDeadline.toISOString());
    }
    const texts = await t.database.db.select().from(messageDeliveries).where(inArray(messageDeliveries.messageId, sent.map((m) => m.id)));
    expect(texts.filter((d) => d.channel === 'sms')).toHaveLength(4);
    // the next rounds, an hour later: nothing new
    t.clock.advance(HOUR);
    await runScheduledJobs(t.app);
    await runScheduledJobs(t.app);
    await t.app.notifications.settled();
    expect(await reminders()).toHaveLength(4);
  });

  it('not again after a restart: a new app on the same database finds the reminder already made', async () => {
    const again = await buildApp({ config: t.config, database: t.database, clock: t.clock });
    await again.ready();
    try {
      await runScheduledJobs(again);
      await again.notifications.settled();
      expect(await reminders()).toHaveLength(4);
      const events = await t.database.db.select().from(messageEvents).where(eq(messageEvents.name, 'contract.deadline_soon'));
      expect(events).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});
