import {
  AuctionStates,
  ChangeRequestStates,
  ContentStates,
  DepositInStates,
  EnrolmentStates,
  EnterpriseAuditStates,
  ListingStates,
  SubscriptionStates,
  TradeDepositStates,
  WithdrawalStates,
  type StateMachine,
} from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import {
  auctionEnrolments,
  auctions,
  contents,
  depositInApplications,
  enterpriseChangeRequests,
  enterprises,
  listingSubscriptions,
  listings,
  tradeDeposits,
  withdrawals,
} from '../db/schema/index';
import { AppError } from '../errors';
import { createEnterprise, createUser } from '../test/factories';
import { openTestDatabase, testDatabaseKinds } from '../test/test-app';
import type { Database } from '../db/client';
import { eventBusOf, type EventName } from './events';
import { transition } from './transition';

let seq = 0;
const unique = () => `${process.pid}-${Date.now()}-${++seq}`;
const day = 24 * 3600 * 1000;

/** Owners the rows below hang on: one enterprise and one user, made once per database. */
interface Owners {
  enterpriseId: number;
  userId: number;
}

type Table = PgTable & { id: PgColumn };
interface Case {
  machine: StateMachine;
  table: Table;
  /** Inserts a row in `status` and returns its id. */
  insert(db: Db, owners: Owners, status: string): Promise<number>;
}

async function insertListing(db: Db, o: Owners, status: string) {
  const now = Date.now();
  const [row] = await db
    .insert(listings)
    .values({
      tradeNo: `GPT${unique()}`,
      tradeType: 0,
      enterpriseId: o.enterpriseId,
      createdBy: o.userId,
      stockCode: 'P5500',
      productName: '动力煤 5500',
      category: '动力煤',
      quantityKg: 1_000_000,
      priceFen: 85_000,
      minSubscribeKg: 1_000,
      maxSubscribeKg: 1_000_000,
      depositMode: 'fixed',
      depositValueFen: 0,
      priceType: 'factory_tax',
      transport: 'road',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '',
      deliveryPlace: '一号煤场',
      deliveryDateStart: '2030-01-01',
      deliveryDateEnd: '2030-02-01',
      listedDateStart: new Date(now + day),
      listedDateEnd: new Date(now + 2 * day),
      status,
    })
    .returning({ id: listings.id });
  return row!.id;
}

async function insertAuction(db: Db, o: Owners, status: string) {
  const now = Date.now();
  const [row] = await db
    .insert(auctions)
    .values({
      tradeNo: `JJT${unique()}`,
      tradeType: 2,
      enterpriseId: o.enterpriseId,
      createdBy: o.userId,
      stockCode: 'P5500',
      productName: '动力煤 5500',
      category: '动力煤',
      quantityKg: 1_000_000,
      startPriceFen: 80_000,
      minStepFen: 500,
      depositFen: 0,
      enrolDeadline: new Date(now + day),
      bidStart: new Date(now + 2 * day),
      bidEnd: new Date(now + 3 * day),
      currentEnd: new Date(now + 3 * day),
      priceType: 'factory_tax',
      transport: 'road',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '',
      deliveryPlace: '一号煤场',
      deliveryDateStart: '2030-01-01',
      deliveryDateEnd: '2030-02-01',
      status,
    })
    .returning({ id: auctions.id });
  return row!.id;
}

const CASES: Record<string, Case> = {
  listing: { machine: ListingStates, table: listings, insert: insertListing },
  auction: { machine: AuctionStates, table: auctions, insert: insertAuction },
  subscription: {
    machine: SubscriptionStates,
    table: listingSubscriptions,
    async insert(db, o, status) {
      const listingId = await insertListing(db, o, 'approved');
      const [row] = await db
        .insert(listingSubscriptions)
        .values({ listingId, enterpriseId: o.enterpriseId, userId: o.userId, quantityKg: 1_000, priceFen: 85_000, amountFen: 85_000, depositFen: 0, requestId: unique(), status })
        .returning({ id: listingSubscriptions.id });
      return row!.id;
    },
  },
  enrolment: {
    machine: EnrolmentStates,
    table: auctionEnrolments,
    async insert(db, o, status) {
      const auctionId = await insertAuction(db, o, 'approved');
      const [row] = await db
        .insert(auctionEnrolments)
        .values({ auctionId, enterpriseId: o.enterpriseId, userId: o.userId, bidderNo: 1, requestId: unique(), createdAt: new Date(), status })
        .returning({ id: auctionEnrolments.id });
      return row!.id;
    },
  },
  'deposit-in': {
    machine: DepositInStates,
    table: depositInApplications,
    async insert(db, o, status) {
      const [row] = await db
        .insert(depositInApplications)
        .values({ enterpriseId: o.enterpriseId, amount: 100, bankName: '工商银行', payerAccountNo: '6222', transferDate: '2026-01-01', voucherUrl: 'v.png', requestId: unique(), appliedBy: o.userId, status })
        .returning({ id: depositInApplications.id });
      return row!.id;
    },
  },
  withdrawal: {
    machine: WithdrawalStates,
    table: withdrawals,
    async insert(db, o, status) {
      const [row] = await db
        .insert(withdrawals)
        .values({ enterpriseId: o.enterpriseId, amount: 100, bankName: '工商银行', bankBranch: '朔州支行', bankAccountNo: '6222', accountName: '测试', requestId: unique(), appliedBy: o.userId, status })
        .returning({ id: withdrawals.id });
      return row!.id;
    },
  },
  'trade-deposit': {
    machine: TradeDepositStates,
    table: tradeDeposits,
    async insert(db, o, status) {
      const [row] = await db
        .insert(tradeDeposits)
        .values({ enterpriseId: o.enterpriseId, tradeKind: 'listing', tradeId: 'GP0', refId: unique(), amount: 100, status })
        .returning({ id: tradeDeposits.id });
      return row!.id;
    },
  },
  content: {
    machine: ContentStates,
    table: contents,
    async insert(db, _o, status) {
      const [row] = await db.insert(contents).values({ type: '0', title: '周报', effectiveTime: new Date(), status }).returning({ id: contents.id });
      return row!.id;
    },
  },
  'enterprise-audit': {
    machine: EnterpriseAuditStates,
    table: enterprises,
    async insert(db, _o, status) {
      return (await createEnterprise(db, { auditStatus: status })).id;
    },
  },
  'change-request': {
    machine: ChangeRequestStates,
    table: enterpriseChangeRequests,
    async insert(db, o, status) {
      // one pending change per enterprise: each row gets an enterprise of its own
      const enterprise = await createEnterprise(db);
      const [row] = await db
        .insert(enterpriseChangeRequests)
        .values({ enterpriseId: enterprise.id, organName: '新名称', creditCode: enterprise.creditCode, legalPerson: '李四', bankName: '工商银行', bankBranch: '朔州支行', bankAccountNo: '6222', appliedBy: o.userId, status })
        .returning({ id: enterpriseChangeRequests.id });
      return row!.id;
    },
  },
};

async function statusOf(db: Db, table: Table, id: number): Promise<string> {
  const columns = table as unknown as { status?: PgColumn; auditStatus?: PgColumn };
  const [row] = (await db.select({ status: (columns.status ?? columns.auditStatus)! }).from(table as PgTable).where(eq(table.id, id))) as { status: string }[];
  return row!.status;
}

describe.each(testDatabaseKinds())('transition tables on %s', (kind) => {
  let database: Database;
  let owners: Owners;
  const heard: { name: EventName; payload: unknown }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const enterprise = await createEnterprise(database.db);
    const user = await createUser(database.db, { enterpriseId: enterprise.id });
    owners = { enterpriseId: enterprise.id, userId: user.id };
    const bus = eventBusOf(database.db);
    for (const c of Object.values(CASES)) {
      for (const move of Object.values(c.machine.moves)) bus.on(move.event as EventName, (payload) => void heard.push({ name: move.event as EventName, payload }));
    }
  });
  afterAll(() => database?.close());

  describe.each(Object.entries(CASES))('%s', (_name, c) => {
    const moves = Object.entries(c.machine.moves);
    const states = Object.keys(c.machine.states);

    it.each(moves)('%s: succeeds once from each from-state, publishes its event after commit; a racing second move loses with 409', async (move, step) => {
      for (const from of step.from) {
        const id = await c.insert(database.db, owners, from);
        heard.length = 0;
        const results = await Promise.allSettled(
          [1, 2].map(() => database.db.transaction((tx) => transition(tx, c.machine, move, { table: c.table, where: eq(c.table.id, id) }))),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
        if (step.from.includes(step.to)) {
          // a move that may repeat (save a draft again) wins both times, one after the other under the row lock
          expect(won).toHaveLength(2);
        } else {
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(1);
          expect(lost[0]).toBeInstanceOf(AppError);
          expect(lost[0]).toMatchObject({ status: 409, code: 'state_changed' });
          expect((lost[0] as AppError).message).toContain(`「${c.machine.states[step.to as never]}」`);
        }
        expect(await statusOf(database.db, c.table, id)).toBe(step.to);
        expect(heard.filter((h) => h.name === step.event && (h.payload as { id: number }).id === id).length).toBe(won.length);
      }
    });

    it.each(moves)('%s: refused from every other state, with both states named, nothing changed or published', async (move, step) => {
      for (const from of states.filter((s) => !step.from.includes(s))) {
        const id = await c.insert(database.db, owners, from);
        heard.length = 0;
        const refusal = await database.db
          .transaction((tx) => transition(tx, c.machine, move, { table: c.table, where: eq(c.table.id, id) }))
          .then(() => null, (err: unknown) => err);
        expect(refusal).toMatchObject({ status: 409, code: 'state_changed' });
        expect((refusal as Error).message).toBe(`${c.machine.label}为「${c.machine.states[from as never]}」，不能改为「${c.machine.states[step.to as never]}」，请刷新后重试`);
        expect(await statusOf(database.db, c.table, id)).toBe(from);
        expect(heard).toHaveLength(0);
      }
    });
  });

  it('a rolled-back transaction publishes nothing, and a missing row is a 404', async () => {
    const id = await insertListing(database.db, owners, 'submitted');
    heard.length = 0;
    await expect(
      database.db.transaction(async (tx) => {
        await transition(tx, ListingStates, 'approve', { table: listings, where: eq(listings.id, id) });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(heard).toHaveLength(0);
    expect(await statusOf(database.db, listings, id)).toBe('submitted');
    await expect(transition(database.db, ListingStates, 'approve', { table: listings, where: eq(listings.id, -1), notFoundMessage: '挂牌不存在' })).rejects.toMatchObject({ status: 404, message: '挂牌不存在' });
  });
});
