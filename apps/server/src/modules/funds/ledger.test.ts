import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { fundAccounts } from '../../db/schema/index';
import { createEnterprise, createUser } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import type { Actor } from '../../lib/actor';
import {
  applyDepositToPayment,
  applyWithdrawal,
  convertToPerformanceDeposit,
  freezeTradeDeposit,
  payWithdrawal,
  rejectWithdrawal,
  releaseTradeDeposit,
} from './funds.service';
import { move, reconcile } from './ledger';
import { creditThroughDepositIn, newRequestId, operatorActor } from './funds.test-helpers';

/** A small seeded generator, so a failing sequence can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe.each(testDatabaseKinds())('the funds ledger on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('keeps Σ(available + frozen) = Σ(confirmed in) − Σ(paid out) over thousands of random operations', async () => {
    const db = t.database.db;
    const operator = await operatorActor(db);
    const actors: Actor[] = [];
    for (let i = 0; i < 3; i++) {
      const enterprise = await createEnterprise(db, { bankName: '建设银行', bankBranch: '太原分行', bankAccountNo: `62270000${i}11223344` });
      const user = await createUser(db, { role: 'enterprise_admin', enterpriseId: enterprise.id });
      actors.push({ userId: user.id, username: user.username, role: 'enterprise_admin', enterpriseId: enterprise.id, sessionId: 0 });
    }
    const random = prng(kind === 'pglite' ? 20261122 : 7);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const amount = () => [1, 99, 100, 12_345, 1_000_000, 50_000_000][Math.floor(random() * 6)]!;
    let confirmedIn = 0;
    let paidOut = 0;
    let refused = 0;
    const deposits: number[] = [];
    const pendingWithdrawals: number[] = [];
    const usedKeys: string[] = [];
    const OPERATIONS = kind === "pglite" ? 2500 : 800;

    for (let i = 0; i < OPERATIONS; i++) {
      const actor = pick(actors);
      const op = random();
      try {
        if (op < 0.2) {
          const a = amount();
          await creditThroughDepositIn(db, t.clock, actor, operator, a);
          confirmedIn += a;
        } else if (op < 0.4) {
          const deposit = await t.database.db.transaction((tx) =>
            freezeTradeDeposit(tx, { enterpriseId: actor.enterpriseId!, tradeKind: 'listing', tradeId: `GP${i}`, refId: `sub-${i}`, amount: amount() }),
          );
          deposits.push(deposit.id);
        } else if (op < 0.5 && deposits.length) {
          await t.database.db.transaction((tx) => releaseTradeDeposit(tx, pick(deposits)));
        } else if (op < 0.55 && deposits.length) {
          await t.database.db.transaction((tx) => convertToPerformanceDeposit(tx, pick(deposits)));
        } else if (op < 0.62 && deposits.length) {
          const payee = pick(actors);
          await t.database.db.transaction((tx) => applyDepositToPayment(tx, pick(deposits), payee.enterpriseId!));
        } else if (op < 0.77) {
          const w = await applyWithdrawal(db, t.clock, t.app.ukeyVerifier, actor, { amount: amount(), remark: '', requestId: newRequestId() });
          pendingWithdrawals.push(w.id);
        } else if (op < 0.85 && pendingWithdrawals.length) {
          const id = pendingWithdrawals.splice(Math.floor(random() * pendingWithdrawals.length), 1)[0]!;
          const w = await payWithdrawal(db, t.clock, operator, id);
          paidOut += w.amount;
        } else if (op < 0.9 && pendingWithdrawals.length) {
          const id = pendingWithdrawals.splice(Math.floor(random() * pendingWithdrawals.length), 1)[0]!;
          await rejectWithdrawal(db, t.clock, operator, id, '测试驳回');
        } else if (op < 0.95) {
          // a bare movement, sometimes replayed with its key, sometimes with an impossible amount
          const key = usedKeys.length && random() < 0.5 ? pick(usedKeys) : `test:${i}`;
          const a = random() < 0.2 ? pick([0, -5, 1.5, Number.MAX_SAFE_INTEGER]) : amount();
          await t.database.db.transaction((tx) =>
            move(tx, { enterpriseId: actor.enterpriseId!, kind: random() < 0.5 ? 'freeze' : 'release', amount: a, refType: 'test', refId: String(i), idempotencyKey: key }),
          );
          usedKeys.push(key);
        } else if (deposits.length) {
          // the same deposit released twice changes nothing the second time
          const id = pick(deposits);
          await t.database.db.transaction((tx) => releaseTradeDeposit(tx, id));
          await t.database.db.transaction((tx) => releaseTradeDeposit(tx, id));
        }
      } catch (err) {
        refused++;
        const status = (err as { status?: number }).status;
        expect(status, String(err)).toBeGreaterThanOrEqual(400);
        expect(status, String(err)).toBeLessThan(500);
      }
    }

    const [totals] = await db.select({ sum: sql<string>`SUM(${fundAccounts.available} + ${fundAccounts.frozen})::text`, min: sql<string>`LEAST(MIN(${fundAccounts.available}), MIN(${fundAccounts.frozen}))::text` }).from(fundAccounts);
    expect(Number(totals!.sum)).toBe(confirmedIn - paidOut);
    expect(Number(totals!.min)).toBeGreaterThanOrEqual(0);
    for (const account of await reconcile(db)) expect(account.balanced, JSON.stringify(account)).toBe(true);
    expect(refused).toBeGreaterThan(0); // the sequence did meet refusals, or the test proves less than it says
    expect(confirmedIn).toBeGreaterThan(0);
  }, 180_000);

  it('refuses to edit or delete journal rows', async () => {
    await expect(t.database.db.execute(sql`UPDATE fund_journal SET amount = amount + 1`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`DELETE FROM fund_journal`)).rejects.toThrow();
  });

  it('refuses a negative balance in SQL even past the service', async () => {
    const enterprise = await createEnterprise(t.database.db);
    await t.database.db.insert(fundAccounts).values({ enterpriseId: enterprise.id });
    await expect(t.database.db.execute(sql`UPDATE fund_account SET available = -1 WHERE enterprise_id = ${enterprise.id}`)).rejects.toThrow();
  });
});
