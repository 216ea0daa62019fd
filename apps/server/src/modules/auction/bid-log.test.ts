import fs from 'node:fs';
import path from 'node:path';
import { AuctionBidLogSchema, bidLogGenesis, chainBidLog, verifyBidLog, type AuctionBidLog } from '@coalx/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../config';
import type { Db } from '../../db/client';
import { auctionBids, auctions, contracts, deals } from '../../db/schema/index';
import { makeMissingContracts } from '../../flows/make-contract';
import { runScheduledJobs } from '../../plugins/scheduler';
import { brokenBidLogs } from '../../test/bid-logs';
import { loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { auctionInput } from './auction.test-helpers';
import { auctionBidLog } from './auction.service';

const S = 1000;

describe.each(testDatabaseKinds())('public bid log (公开出价记录) on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
  });
  afterAll(async () => t?.close());

  type Party = Awaited<ReturnType<typeof fundedEnterprise>>;

  async function liveAuction(overrides: object, bidders: number) {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now(), overrides));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    const parties: Party[] = [];
    for (let i = 0; i < bidders; i++) {
      const p = await fundedEnterprise(t.app, t.database.db);
      await creditThroughDepositIn(t.database.db, t.clock, p.actor, await operatorActor(t.database.db), 50_000_000);
      expect((await post(t.app, '/api/bidEnroll/add', p.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
      parties.push({ ...p, token: await loginAs(t.app, p.user.username) });
    }
    const row = await auctionRow(tradeId);
    t.clock.advance(row.bidStart.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    return { tradeId, seller, bidders: parties };
  }
  const auctionRow = async (tradeId: string) => (await t.database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeId)))[0]!;
  const bid = async (p: { token: string }, tradeId: string, price: number) => {
    const response = await post(t.app, '/api/bidRecord/bidAnswerApply', p.token, { tradeId, price });
    expect(response.statusCode, response.body).toBe(200);
  };
  const end = async (tradeId: string) => {
    t.clock.advance((await auctionRow(tradeId)).currentEnd.getTime() - t.clock.now().getTime());
    await runScheduledJobs(t.app);
    expect((await auctionRow(tradeId)).hangState).toBe(3);
  };
  const publicLog = (tradeId: string) => t.app.inject({ method: 'GET', url: `/trade-api/api/bidRecord/log?tradeId=${tradeId}` });

  /** A sale auction of three bidders: five bids, the last two in the extension, ended and awarded. */
  async function endedSale() {
    const a = await liveAuction({}, 3);
    const [x, y, z] = a.bidders as [Party, Party, Party];
    await bid(x, a.tradeId, 80_000);
    t.clock.advance(1_234);
    await bid(y, a.tradeId, 80_100);
    await bid(z, a.tradeId, 80_600);
    t.clock.advance((await auctionRow(a.tradeId)).bidEnd.getTime() - t.clock.now().getTime() + 7);
    await bid(x, a.tradeId, 80_700);
    t.clock.advance(60 * S + 1);
    await bid(y, a.tradeId, 81_000);
    await end(a.tradeId);
    return a;
  }

  it('is published once the auction has ended, with aliases, prices, ms times and a chain that verifies', async () => {
    const a = await liveAuction({}, 2);
    const [x, y] = a.bidders as [Party, Party];
    await bid(x, a.tradeId, 80_000);
    // not before the end
    const early = await publicLog(a.tradeId);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('竞价尚未结束，出价记录将在竞价结束后公布');
    expect((await publicLog('JJ000000000000')).statusCode).toBe(404);
    t.clock.advance(333);
    await bid(y, a.tradeId, 80_500);
    await end(a.tradeId);

    const response = await publicLog(a.tradeId);
    expect(response.statusCode, response.body).toBe(200);
    const log = AuctionBidLogSchema.parse(response.json().result);
    const stored = await t.database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, (await auctionRow(a.tradeId)).id)).orderBy(asc(auctionBids.seq));
    expect(log).toMatchObject({ tradeId: a.tradeId, tradeType: 2, genesis: bidLogGenesis(a.tradeId), deal: { bidder: '竞买人2', price: 80_500 } });
    expect(log.entries).toEqual(
      stored.map((b) => ({ seq: b.seq, bidder: `竞买人${b.bidderNo}`, price: b.priceFen, at: b.createdAt.toISOString(), hash: b.hash })),
    );
    expect(log.entries[1]!.at).toMatch(/\.\d{3}Z$/);
    expect(new Date(log.entries[1]!.at).getTime() - new Date(log.entries[0]!.at).getTime()).toBe(333);
    // the chain is the one the shared function makes from the same bids
    expect(log.entries).toEqual(chainBidLog(a.tradeId, log.entries.map(({ hash: _hash, ...b }) => b)));
    const check = verifyBidLog(log);
    expect(check).toMatchObject({ ok: true, finalHash: log.finalHash, winner: { bidder: '竞买人2', price: 80_500 } });
    expect(log.finalHash).toBe(stored.at(-1)!.hash);
    // the result notice agrees: the recomputed winner's price is the deal price
    const result = (await post(t.app, '/api/bidResult', null, { tradeId: a.tradeId })).json().result;
    expect(result.dealPrice).toBe(check.winner!.price);
  });

  it('a purchase auction and one with no bid (流拍) verify too; 流拍 ends at the genesis', async () => {
    const p = await liveAuction({ tradeType: 3, limitPrice: null }, 2);
    const [x, y] = p.bidders as [Party, Party];
    await bid(x, p.tradeId, 80_000);
    await bid(y, p.tradeId, 79_000);
    await bid(x, p.tradeId, 78_500);
    await end(p.tradeId);
    const log = (await publicLog(p.tradeId)).json().result as AuctionBidLog;
    expect(verifyBidLog(log)).toMatchObject({ ok: true, winner: { bidder: '竞买人1', price: 78_500 } });
    expect(log.deal).toEqual({ bidder: '竞买人1', price: 78_500 });

    const f = await liveAuction({}, 1);
    await end(f.tradeId);
    const failed = (await publicLog(f.tradeId)).json().result as AuctionBidLog;
    expect(failed).toMatchObject({ entries: [], deal: null, finalHash: bidLogGenesis(f.tradeId) });
    expect(verifyBidLog(failed).ok).toBe(true);
  });

  it('never names an enterprise: only aliases, prices, times and hashes', async () => {
    const a = await endedSale();
    const body = (await publicLog(a.tradeId)).body;
    for (const p of [a.seller, ...a.bidders]) {
      for (const secret of [p.enterprise.organName, p.enterprise.clientId, p.enterprise.creditCode, p.user.username]) {
        expect(body, secret).not.toContain(secret);
      }
    }
    const log = JSON.parse(body).result as AuctionBidLog;
    expect(Object.keys(log).sort()).toEqual(['algorithm', 'deal', 'entries', 'finalHash', 'genesis', 'productName', 'tradeId', 'tradeType']);
    for (const entry of log.entries) expect(Object.keys(entry).sort()).toEqual(['at', 'bidder', 'hash', 'price', 'seq']);
    expect(new Set(log.entries.map((e) => e.bidder))).toEqual(new Set(['竞买人1', '竞买人2', '竞买人3']));
  });

  /** Tampers with the stored bids inside a transaction that is rolled back, and reads the public log through it. */
  async function tampered(tradeId: string, change: (tx: Db, auctionId: number) => Promise<unknown>) {
    let seen: ReturnType<typeof verifyBidLog> | null = null;
    await t.database.db
      .transaction(async (tx) => {
        const auctionId = (await tx.select().from(auctions).where(eq(auctions.tradeNo, tradeId)))[0]!.id;
        await change(tx as unknown as Db, auctionId);
        seen = verifyBidLog(await auctionBidLog(tx as unknown as Db, tradeId));
        tx.rollback();
      })
      .catch((err: Error) => {
        if (!/rollback/i.test(err.message)) throw err;
      });
    return seen! as ReturnType<typeof verifyBidLog>;
  }

  it('a changed price, a removed bid or an inserted bid in the database breaks verification at that row', async () => {
    const { tradeId } = await endedSale();
    const and2 = (auctionId: number, seq: number) => sql`${auctionBids.auctionId} = ${auctionId} AND ${auctionBids.seq} = ${seq}`;

    // every stored bid's price, changed by one fen
    for (const seq of [1, 2, 3, 4, 5]) {
      const check = await tampered(tradeId, (tx, id) => tx.update(auctionBids).set({ priceFen: sql`${auctionBids.priceFen} + 1` }).where(and2(id, seq)));
      expect(check.ok, `seq ${seq}`).toBe(false);
      expect(check.firstBroken, `seq ${seq}`).toMatchObject({ index: seq - 1, seq });
      expect(check.rows.slice(0, seq - 1).every((r) => r.status === 'ok')).toBe(true);
    }
    // the time moved by 1 ms, the bidder swapped
    expect((await tampered(tradeId, (tx, id) => tx.update(auctionBids).set({ createdAt: sql`${auctionBids.createdAt} + interval '1 millisecond'` }).where(and2(id, 3)))).firstBroken).toMatchObject({ index: 2, seq: 3 });
    expect((await tampered(tradeId, (tx, id) => tx.update(auctionBids).set({ bidderNo: 3 }).where(and2(id, 2)))).firstBroken).toMatchObject({ index: 1, seq: 2 });

    // a removed bid: the row after it is where the numbering and the chain stop matching
    const removed = await tampered(tradeId, (tx, id) => tx.delete(auctionBids).where(and2(id, 2)));
    expect(removed.firstBroken).toMatchObject({ index: 1, seq: 3 });
    // removed and renumbered, the hash gives it away at the same row
    const renumbered = await tampered(tradeId, async (tx, id) => {
      await tx.delete(auctionBids).where(and2(id, 2));
      await tx.update(auctionBids).set({ seq: sql`${auctionBids.seq} - 1` }).where(sql`${auctionBids.auctionId} = ${id} AND ${auctionBids.seq} > 2`);
    });
    expect(renumbered.firstBroken).toMatchObject({ index: 1, seq: 2 });
    // the last bid removed (and the auction's head moved back): a consistent shorter chain, but the recomputed winner
    // is not the announced one, and the final hash is not the one printed in the contract
    const head = (await auctionRow(tradeId)).bidLogHash!;
    const cut = await tampered(tradeId, async (tx, id) => {
      const [fourth] = await tx.select().from(auctionBids).where(and2(id, 4));
      await tx.delete(auctionBids).where(and2(id, 5));
      await tx.update(auctions).set({ bidLogHash: fourth!.hash }).where(eq(auctions.id, id));
    });
    expect(cut.rows.every((r) => r.status === 'ok')).toBe(true);
    expect(cut.firstBroken).toMatchObject({ index: 4, seq: null });
    expect(cut.firstBroken!.reason).toContain('与公告');
    expect(cut.finalHash).not.toBe(head);

    // an inserted bid between the second and the third, the later ones renumbered
    const inserted = await tampered(tradeId, async (tx, id) => {
      const rows = await tx.select().from(auctionBids).where(eq(auctionBids.auctionId, id)).orderBy(asc(auctionBids.seq));
      for (const row of [...rows].reverse().filter((r) => r.seq >= 3)) await tx.update(auctionBids).set({ seq: row.seq + 1 }).where(eq(auctionBids.id, row.id));
      const second = rows[1]!;
      await tx.insert(auctionBids).values({ ...second, id: undefined, seq: 3, priceFen: second.priceFen + 100, createdAt: new Date(second.createdAt.getTime() + 1), hash: second.hash });
    });
    expect(inserted.firstBroken).toMatchObject({ index: 2, seq: 3 });

    // nothing stayed changed
    expect(verifyBidLog(await auctionBidLog(t.database.db, tradeId)).ok).toBe(true);
    expect(await brokenBidLogs(t.database.db)).toEqual([]);
  });

  it("the auction deal's contract prints the log's final hash", async () => {
    const { tradeId } = await endedSale();
    const log = (await publicLog(tradeId)).json().result as AuctionBidLog;
    await makeMissingContracts(t.database.db, t.app.storage, t.clock, (err) => {
      throw err;
    });
    const [deal] = await t.database.db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    const [contract] = await t.database.db.select().from(contracts).where(eq(contracts.dealId, deal!.id));
    expect(contract!.context.bidLogHash).toBe(log.finalHash);
    expect(contract!.text).toContain(log.finalHash);
    expect(contract!.text.join('\n')).toContain('公开出价记录');
  });

  it('migration 0014 chains older bids with the same bytes as the application', async () => {
    await endedSale();
    const db = t.database.db;
    const before = await db.select({ id: auctionBids.id, hash: auctionBids.hash }).from(auctionBids).orderBy(asc(auctionBids.id));
    const heads = await db.select({ id: auctions.id, head: auctions.bidLogHash }).from(auctions).orderBy(asc(auctions.id));
    expect(before.length).toBeGreaterThan(10);
    // the database as it was before 0014: no hashes anywhere
    await db.execute(sql`ALTER TABLE auction_bid ALTER COLUMN hash DROP NOT NULL`);
    await db.execute(sql`UPDATE auction_bid SET hash = NULL`);
    await db.execute(sql`UPDATE auction SET bid_log_hash = NULL`);
    const statements = fs
      .readFileSync(path.join(MIGRATIONS_DIR, '0014_bid_log.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => s && !/ADD COLUMN/.test(s));
    expect(statements).toHaveLength(3);
    for (const statement of statements) await db.execute(sql.raw(statement));
    expect(await db.select({ id: auctionBids.id, hash: auctionBids.hash }).from(auctionBids).orderBy(asc(auctionBids.id))).toEqual(before);
    expect(await db.select({ id: auctions.id, head: auctions.bidLogHash }).from(auctions).orderBy(asc(auctions.id))).toEqual(heads);
  });
});
