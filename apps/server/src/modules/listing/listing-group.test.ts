import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../../app';
import { openPostgres } from '../../lib/database';
import { fundAccounts, fundJournal, listingSubscriptions, listings, tradeDeposits } from '../../db/schema/index';
import { subscribeListing } from '../../flows/subscribe-listing';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { runScheduledJobs } from '../../plugins/scheduler';
import { reconcile } from '../funds/ledger';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, listingInput, post } from './listing.test-helpers';

/**
 * 摘牌 through the per-listing sequencer (group commit): subscriptions that land in one group are judged in arrival
 * order exactly as one transaction each would judge them, a refused one leaves no trace, a request sent twice
 * subscribes once, and two server processes on one PostgreSQL cannot oversell.
 */
describe.each(testDatabaseKinds())('listing subscriptions in groups on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
  });
  afterAll(async () => t?.close());

  async function openListing(overrides = {}) {
    const operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operatorToken, { tradeId })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    return { tradeId, seller };
  }

  async function buyerWithFunds(fen: number) {
    const buyer = await fundedEnterprise(t.app, t.database.db);
    if (fen > 0) await creditThroughDepositIn(t.database.db, t.clock, buyer.actor, await operatorActor(t.database.db), fen);
    return buyer;
  }

  const subscribe = (buyer: Awaited<ReturnType<typeof buyerWithFunds>>, tradeId: string, quantity: number, requestId = newRequestId()) =>
    subscribeListing(t.database.db, t.clock, t.app.ukeyVerifier, buyer.actor, { tradeId, quantity, requestId });

  it('judges one group in arrival order: quantity left, min and max, the last lot, funds, sold out', async () => {
    // 1,000 t, 100–500 t a time, ¥20/t deposit
    const { tradeId } = await openListing({ quantity: 1_000_000, minSubscribe: 100_000, maxSubscribe: 500_000 });
    const rich = await buyerWithFunds(100_000_000);
    const poor = await buyerWithFunds(500_000); // ¥5,000: 250 t of deposit
    const other = await buyerWithFunds(100_000_000);
    // all submitted in the same tick: one group, judged in this order
    const answers = await Promise.allSettled([
      subscribe(rich, tradeId, 600_000), // above the maximum
      subscribe(poor, tradeId, 300_000), // deposit ¥6,000 > ¥5,000
      subscribe(rich, tradeId, 500_000), // 500 t left
      subscribe(poor, tradeId, 200_000), // 300 t left, ¥4,000 of ¥5,000
      subscribe(other, tradeId, 400_000), // more than the 300 t left
      subscribe(other, tradeId, 50_000), // below the minimum and not the last lot
      subscribe(other, tradeId, 250_000), // 50 t left
      subscribe(other, tradeId, 50_000), // the last lot, below the minimum: served, sold out
      subscribe(poor, tradeId, 100_000), // nothing left
    ]);
    const outcome = answers.map((a) => (a.status === 'fulfilled' ? `ok ${a.value.quantityKg}` : (a.reason as Error).message));
    expect(outcome[0]).toContain('最大摘牌量');
    expect(outcome[1]).toContain('可用资金不足');
    expect(outcome.slice(2, 4)).toEqual(['ok 500000', 'ok 200000']);
    expect(outcome[4]).toContain('剩余可摘量');
    expect(outcome[5]).toContain('最小摘牌量');
    expect(outcome.slice(6, 8)).toEqual(['ok 250000', 'ok 50000']);
    expect(outcome[8]).toMatch(/已全部摘完/);

    const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
    expect(row).toMatchObject({ subscribedKg: 1_000_000, hangState: 2 });
    expect(row!.endedAt).not.toBeNull();
    const subs = await t.database.db.select().from(listingSubscriptions).where(eq(listingSubscriptions.listingId, row!.id));
    expect(subs.map((s) => s.quantityKg).sort((a, b) => a - b)).toEqual([50_000, 200_000, 250_000, 500_000]);
    // each accepted subscription has its own frozen deposit and journal row; the refused ones left nothing
    const deposits = await t.database.db.select().from(tradeDeposits).where(eq(tradeDeposits.tradeId, tradeId));
    expect(deposits).toHaveLength(4);
    for (const s of subs) expect(deposits.find((d) => d.id === s.depositId)).toMatchObject({ refId: String(s.id), amount: s.depositFen, enterpriseId: s.enterpriseId, status: 'frozen' });
    const [poorAccount] = await t.database.db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, poor.enterprise.id));
    expect(poorAccount).toMatchObject({ available: 100_000, frozen: 400_000 });
    const journal = await t.database.db.select().from(fundJournal).where(eq(fundJournal.enterpriseId, poor.enterprise.id));
    expect(journal.filter((j) => j.kind === 'freeze')).toMatchObject([{ amount: 400_000, availableAfter: 100_000, frozenAfter: 400_000 }]);
    for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
  });

  it('a request sent twice in one group, or again later, subscribes once and answers the same subscription', async () => {
    const { tradeId } = await openListing();
    const buyer = await buyerWithFunds(100_000_000);
    const requestId = newRequestId();
    const [a, b] = await Promise.all([subscribe(buyer, tradeId, 200_000, requestId), subscribe(buyer, tradeId, 200_000, requestId)]);
    expect(b.id).toBe(a.id);
    const again = await post(t.app, '/api/listedAnswerApply', (await signedIn(t.app, t.database.db, { role: 'trader', enterpriseId: buyer.enterprise.id })).token, { tradeId, quantity: 200_000, requestId });
    expect(again.json().result.id).toBe(a.id);
    const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
    expect(row!.subscribedKg).toBe(200_000);
    const [frozen] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(tradeDeposits).where(eq(tradeDeposits.tradeId, tradeId));
    expect(frozen!.n).toBe(1);
  });

  it('with the pay password switched on, a subscription passes only with the right password', async () => {
    const { tradeId } = await openListing();
    const buyer = await buyerWithFunds(100_000_000);
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const right = createHash('sha256').update(`${buyer.enterprise.clientId}:135790`).digest('hex');
    expect((await post(t.app, '/api/funds/payPassword/set', buyer.token, { password: right })).statusCode).toBe(200);
    const setSwitch = (content: '0' | '1') => t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': admin.token }, payload: { code: 'PayPassword', content } });
    expect((await setSwitch('1')).statusCode).toBe(200);
    try {
      const missing = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 200_000, requestId: newRequestId() });
      expect(missing.json().message).toBe('请输入支付密码');
      const requestId = newRequestId();
      const passed = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 200_000, requestId, payPassword: right });
      expect(passed.statusCode, passed.body).toBe(200);
      const replay = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId, quantity: 200_000, requestId, payPassword: right });
      expect(replay.json().result.id).toBe(passed.json().result.id);
      const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
      expect(row!.subscribedKg).toBe(200_000);
    } finally {
      await setSwitch('0');
    }
  });

  it.runIf(kind === 'postgres')('two server processes on one PostgreSQL cannot oversell one listing', async () => {
    // a second app with its own pool and its own sequencer: only the listing's row lock orders the two
    const { name } = ((await t.database.db.execute(sql`SELECT current_database() AS name`)) as unknown as { rows: { name: string }[] }).rows[0]!;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const second = await openPostgres(url.toString(), 10);
    const other = await buildApp({ config: t.config, database: second, clock: t.clock });
    await other.ready();
    try {
      const { tradeId } = await openListing({ quantity: 5_000_000 });
      const buyers = await Promise.all(Array.from({ length: 6 }, () => buyerWithFunds(100_000_000)));
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => post(i % 2 ? other : t.app, '/api/listedAnswerApply', buyers[i % 6]!.token, { tradeId, quantity: 500_000, requestId: newRequestId() })),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(10);
      for (const r of responses.filter((x) => x.statusCode !== 200)) expect(r.json().message).toMatch(/已全部摘完|挂牌已结束|剩余/);
      const [row] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, tradeId));
      expect(row!.subscribedKg).toBe(5_000_000);
      const [frozen] = await t.database.db.select({ sum: sql<string>`SUM(${tradeDeposits.amount})::text` }).from(tradeDeposits).where(eq(tradeDeposits.tradeId, tradeId));
      expect(Number(frozen!.sum)).toBe(10 * 1_000_000);

      // one request sent to both processes at once: the group that loses the race runs again and answers the replay
      const { tradeId: secondTradeId } = await openListing();
      const buyer = buyers[0]!;
      for (let round = 0; round < 5; round++) {
        const requestId = newRequestId();
        const both = await Promise.all([t.app, other].map((app) => post(app, '/api/listedAnswerApply', buyer.token, { tradeId: secondTradeId, quantity: 100_000, requestId })));
        expect(both.map((r) => r.statusCode), both[1]!.body).toEqual([200, 200]);
        expect(both[1]!.json().result.id).toBe(both[0]!.json().result.id);
      }
      const [secondRow] = await t.database.db.select().from(listings).where(eq(listings.tradeNo, secondTradeId));
      expect(secondRow!.subscribedKg).toBe(500_000);
      for (const account of await reconcile(t.database.db)) expect(account.balanced).toBe(true);
    } finally {
      await other.close();
      await second.close();
    }
  });
});
