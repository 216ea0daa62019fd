import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { systemClock } from '../lib/clock';
import { listLongTerm, longTermDetail } from '../modules/long-term/long-term-query.service';
import { auctionBids, auctionEnrolments, auctions, banners, contents, marketIndex, recommendations, deals, depositInApplications, enterprises, fundAccounts, listings, listingSubscriptions, users, withdrawals, ukeyCertificates, ukeyDevices, contracts, orders, dispatches, qualityReports, drivers, invoices, freightStatements, freightLines, payPasswords, dailyReports } from '../db/schema/index';
import { LocalFileStorage } from '../modules/files/storage';
import { reconcile } from '../modules/funds/ledger';
import { checkPayPassword } from '../modules/funds/pay-auth';
import { openTestDatabase } from '../test/test-app';
import type { Database } from '../db/client';
import { loadPlatformCa, type PlatformCa } from '../modules/ukey/ca';
import { platformCaVerifier } from '../modules/ukey/ukey.verifier';
import { loadDemoData } from './index';
import { DEMO_PAY_PASSWORD, demoPayPasswordHash } from './pay-password';
import { demoBiddersJob, ensureLiveDemoAuction } from './auctions';
import { enrolAuction } from '../flows/enrol-auction';
import { brokenBidLogs, storedBidLogCheck } from '../test/bid-logs';

describe('demo data', () => {
  let database: Database;
  let ca: PlatformCa;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-demo-'));
  beforeAll(async () => {
    // as a fresh installation: the PayPassword switch on, so every money action of the demo carries its pay password
    database = await openTestDatabase('pglite', { installationSwitches: true });
    ca = await loadPlatformCa({ dataDir: dir });
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads once: accounts of DESIGN.md §7, funded through the journal, transfers waiting for the operator', async () => {
    const storage = new LocalFileStorage(dir);
    expect(await loadDemoData(database.db, storage, ca)).toBe(true);
    expect(await loadDemoData(database.db, storage, ca)).toBe(false);
    // 交易日报 of the last five demo days are archived, as the schedule leaves them, and some show the demo's deals
    const reports = await database.db.select().from(dailyReports);
    expect(reports).toHaveLength(5);
    expect(reports.every((r) => r.madeBy === null)).toBe(true);
    expect(reports.some((r) => (r.figures as { summary: { dealCount: number } }).summary.dealCount > 0)).toBe(true);
    // the freight desk over the demo's own signed trucks: one paid, one confirmed, one draft
    const freight = await database.db.select().from(freightStatements).orderBy(freightStatements.id);
    expect(freight.map((f) => f.status)).toEqual(['paid', 'confirmed', 'draft']);
    const lines = await database.db.select().from(freightLines);
    const signed = new Set((await database.db.select().from(dispatches).where(eq(dispatches.status, 'signed'))).map((d) => d.id));
    expect(lines.length).toBeGreaterThan(14);
    expect(lines.every((l) => signed.has(l.dispatchId))).toBe(true);
    const names = (await database.db.select({ username: users.username }).from(users)).map((u) => u.username).sort();
    expect(names).toEqual(['admin', 'bidder01', 'bidder02', 'buyer01', 'buyer02', 'newcomer', 'operator', 'pending01', 'pending02', 'seller01', 'trader01']);
    const [newcomer] = await database.db.select().from(users).where(eq(users.username, 'newcomer'));
    expect(newcomer!.isFirstLogin).toBe(true);
    const all = await database.db.select().from(enterprises);
    expect(all.every((e) => e.bankAccountNo)).toBe(true);
    // audited enterprises of every type, and two registrations waiting for the operator
    const approvedTypes = new Set(all.filter((e) => e.auditStatus === 'approved').map((e) => e.enterpriseType));
    expect(approvedTypes).toEqual(new Set(['mine', 'trader', 'power_plant', 'other']));
    expect(all.filter((e) => e.auditStatus === 'pending')).toHaveLength(2);
    // every demo enterprise with a member has the pay password of the README (a fresh installation asks it for money)
    const payPasswordsSet = await database.db.select().from(payPasswords);
    const members = new Set((await database.db.select({ enterpriseId: users.enterpriseId }).from(users)).map((u) => u.enterpriseId));
    expect(payPasswordsSet.map((p) => p.enterpriseId).sort()).toEqual(all.filter((e) => members.has(e.id)).map((e) => e.id).sort());
    expect(payPasswordsSet).toHaveLength(8);
    for (const e of all.filter((x) => ['C10001', 'C10002', 'C10004'].includes(x.clientId))) {
      await expect(checkPayPassword(database.db, systemClock, e.id, demoPayPasswordHash(e.clientId))).resolves.toBeUndefined();
    }
    expect(DEMO_PAY_PASSWORD).toBe('246810');
    const accounts = await database.db.select().from(fundAccounts);
    expect(accounts.length).toBe(5); // seller01, buyer01, buyer02 and the two demo bidders' enterprises
    const pendingIn = await database.db.select().from(depositInApplications).where(eq(depositInApplications.status, 'pending'));
    expect(pendingIn.length).toBe(3);
    const pendingOut = await database.db.select().from(withdrawals).where(eq(withdrawals.status, 'pending'));
    expect(pendingOut.length).toBe(1);
    // the vouchers exist as files: a bank receipt picture of its own for every declared transfer
    const confirmedIn = await database.db.select().from(depositInApplications).where(eq(depositInApplications.status, 'confirmed'));
    const vouchers = new Set([...pendingIn, ...confirmedIn].map((d) => d.voucherUrl));
    // three traders with a confirmed and a waiting transfer, two demo bidders with a confirmed one
    expect(vouchers.size).toBe(8);
    for (const key of vouchers) {
      const voucher = await storage.read(key);
      const chunks: Buffer[] = [];
      for await (const chunk of voucher!) chunks.push(chunk as Buffer);
      const png = Buffer.concat(chunks);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([900, 500]);
    }
    // a living listing market: every state and both types, with deals and a subscription waiting
    const rows = await database.db.select().from(listings);
    expect(new Set(rows.map((l) => `${l.status}:${l.hangState}`))).toEqual(new Set(['approved:0', 'approved:1', 'approved:2', 'submitted:0', 'draft:0']));
    expect(new Set(rows.map((l) => l.tradeType))).toEqual(new Set([0, 1]));
    // 4 of the market, 6 behind the delivery desk (demo/orders.ts)
    expect((await database.db.select().from(deals).where(eq(deals.tradeKind, 'listing'))).length).toBe(10);
    expect((await database.db.select().from(listingSubscriptions).where(eq(listingSubscriptions.status, 'pending'))).length).toBe(2);
    // auctions of both types in every state, one of them bidding now
    const auctionRows = await database.db.select().from(auctions);
    expect(new Set(auctionRows.filter((a) => a.status === 'approved').map((a) => a.tradeType))).toEqual(new Set([2, 3]));
    expect(auctionRows.some((a) => a.status === 'approved' && a.bidStart <= new Date() && a.currentEnd > new Date() && a.bidCount > 0)).toBe(true);
    expect(new Set(auctionRows.map((a) => a.result))).toEqual(new Set([null, 'deal', 'failed']));
    expect((await database.db.select().from(deals).where(eq(deals.tradeKind, 'auction'))).length).toBe(2);
    // the public face: a year of index terms, banners, announcements of every type with PDFs, recommendations
    expect((await database.db.select().from(marketIndex)).length).toBe(52);
    expect((await database.db.select().from(banners)).length).toBe(3);
    const docs = await database.db.select().from(contents);
    expect(new Set(docs.map((c) => c.type))).toEqual(new Set(['0', '1', 'a', 'b', 'c', 'd']));
    expect(docs.filter((c) => c.type === '0').length).toBeGreaterThan(10);
    const pdf = await storage.read(docs[0]!.enclosure!);
    const bytes: Buffer[] = [];
    for await (const chunk of pdf!) bytes.push(chunk as Buffer);
    expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await database.db.select().from(recommendations)).length).toBeGreaterThan(5);
    for (const account of await reconcile(database.db)) expect(account.balanced).toBe(true);
    // seller01's enterprise: a revoked key device and its trader's request waiting for approval
    const [seller] = await database.db.select().from(users).where(eq(users.username, 'seller01'));
    const devices = await database.db.select().from(ukeyDevices).where(eq(ukeyDevices.enterpriseId, seller!.enterpriseId!));
    // … and the active device its contracts were signed with
    expect(devices.map((d) => d.status).sort()).toEqual(['active', 'pending', 'revoked']);
    const certificates = await database.db.select().from(ukeyCertificates).where(eq(ukeyCertificates.enterpriseId, seller!.enterpriseId!));
    expect(certificates.filter((c) => c.revokedAt !== null)).toHaveLength(1);
    // every demo deal has exactly one contract: one effective with both signatures, an overdue one the seller signed;
    // the long-term deal in execution has its framework contract besides
    const allDeals = await database.db.select().from(deals);
    const allContracts = await database.db.select().from(contracts);
    const dealContracts = allContracts.filter((c) => c.dealId !== null);
    expect(new Set(dealContracts.map((c) => c.dealId))).toEqual(new Set(allDeals.map((d) => d.id)));
    expect(dealContracts).toHaveLength(allDeals.length);
    expect(allContracts.filter((c) => c.kind === 'long_term').map((c) => c.status)).toEqual(['performing']);
    const states = allContracts.map((c) => c.status);
    // effective contracts have their orders and are being performed
    expect(states).toContain('performing');
    expect(states).toContain('overdue');
    expect(states).toContain('pending');
    expect(allContracts.some((c) => c.status === 'overdue' && c.sellerSignedAt !== null)).toBe(true);
    expect(devices.find((d) => d.status === 'pending')!.pendingCsr).toBeTruthy();
    // a living delivery desk: orders in every state before settlement, trucks in every state, a dispute, lab reports
    const allOrders = await database.db.select().from(orders);
    // the delivered order is settled (demo/invoices.ts until settlement has demo data of its own); the
    // long-term call-offs' orders are settled but last month's, which waits for its statement
    expect(new Set(allOrders.map((o) => o.status))).toEqual(new Set(['unpaid', 'awaiting_shipment', 'shipping', 'awaiting_settlement', 'settled', 'terminated']));
    expect(allOrders.some((o) => o.status === 'unpaid' && o.paymentDeadline < new Date())).toBe(true);
    const trucks = await database.db.select().from(dispatches);
    expect(new Set(trucks.map((d) => d.status))).toEqual(new Set(['dispatched', 'loaded', 'arrived', 'signed', 'disputed']));
    const done = allOrders.find((o) => o.status === 'settled' && o.tradeNo.startsWith('GP'))!;
    expect(done.signedKg).toBeGreaterThanOrEqual(done.quantityKg * 0.95);
    // its invoices: one confirmed, one reversed by a red-letter invoice, the rest still to invoice
    const demoInvoices = await database.db.select().from(invoices).where(eq(invoices.orderId, done.id));
    expect(demoInvoices.map((i) => i.status).sort()).toEqual(['confirmed', 'red', 'reversed']);
    const confirmedTotal = demoInvoices.find((i) => i.status === 'confirmed')!.totalFen;
    expect(confirmedTotal).toBeLessThan(done.settledFen!);
    expect(new Set((await database.db.select().from(qualityReports)).map((r) => r.status))).toEqual(new Set(['accepted', 'submitted']));
    expect((await database.db.select().from(drivers)).length).toBe(8);

    // 长协: one in its fourth month (three months delivered, September below the line, this month's call-off
    // waiting for the buyer) and one offer waiting for applications
    const plant = await database.db.select().from(users).where(eq(users.username, 'buyer01'));
    const buyerActor = { userId: plant[0]!.id, username: 'buyer01', role: 'enterprise_admin' as const, enterpriseId: plant[0]!.enterpriseId, sessionId: 0 };
    const mine = await listLongTerm(database.db, systemClock, buyerActor, { pageNo: 1, pageSize: 10, scope: 'mine' });
    expect(mine.records.map((r) => r.status)).toEqual(['executing']);
    const detail = await longTermDetail(database.db, systemClock, buyerActor, mine.records[0]!.id);
    expect(detail.months.slice(0, 4).map((m) => m.phase)).toEqual(['past', 'past', 'past', 'current']);
    expect(detail.months.slice(0, 3).map((m) => m.flagged)).toEqual([false, true, false]);
    expect(detail.months.slice(0, 3).every((m) => m.deliveredKg > 0 && m.price !== null)).toBe(true);
    expect(detail.months.slice(0, 2).every((m) => m.settledKg === m.deliveredKg)).toBe(true);
    expect(detail.callOffs.find((c) => c.status === 'pending')?.actions).toEqual(['accept', 'decline']);
    // the fulfilment equals what the call-offs' orders signed for
    const callOffOrders = allOrders.filter((o) => o.tradeNo === detail.dealNo);
    expect(detail.fulfilment.deliveredKg).toBe(callOffOrders.reduce((sum, o) => sum + o.signedKg, 0));
    const market = await listLongTerm(database.db, systemClock, buyerActor, { pageNo: 1, pageSize: 10, scope: 'market' });
    expect(market.records.map((r) => [r.status, r.applicationCount])).toEqual([['open', 0]]);
    // the whole demo market through the real flows, each money action with its pay password (scrypt): a minute on a busy machine
  }, 90_000);

  it('demo bidders bid only as bidder01 and bidder02, even when buyer01 enrols in the live auction', async () => {
    const now = Date.now();
    const tradeNo = await ensureLiveDemoAuction(database.db, platformCaVerifier(ca), new Date(now));
    const [live] = await database.db.select().from(auctions).where(eq(auctions.tradeNo, tradeNo));
    const byName = async (username: string) => (await database.db.select().from(users).where(eq(users.username, username)))[0]!;
    const buyer = await byName('buyer01');
    const bidderEnterprises = new Set([(await byName('bidder01')).enterpriseId, (await byName('bidder02')).enterpriseId]);
    // the seeded bids of the live auction are the demo bidders' own
    const seeded = await database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, live!.id));
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.every((b) => bidderEnterprises.has(b.enterpriseId))).toBe(true);
    // buyer01 enrols (before the deadline) and so becomes a candidate the old job would have bid for
    await enrolAuction(
      database.db,
      { now: () => new Date(live!.enrolDeadline.getTime() - 60_000) },
      platformCaVerifier(ca),
      { userId: buyer.id, username: 'buyer01', role: 'enterprise_admin', enterpriseId: buyer.enterpriseId, sessionId: 0 },
      { tradeId: tradeNo, requestId: `demo-test-${now}`, payPassword: demoPayPasswordHash('C10002') },
    );
    expect((await database.db.select().from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, live!.id))).length).toBe(3);

    const job = demoBiddersJob(now, tradeNo);
    for (let i = 0; i < 20; i++) await job.run(database.db, new Date(now + 5_000 + i * 16_000));
    const bids = await database.db.select().from(auctionBids).where(eq(auctionBids.auctionId, live!.id));
    expect(bids.length).toBe(seeded.length + 20);
    expect(bids.filter((b) => b.enterpriseId === buyer.enterpriseId)).toEqual([]);
    expect(bids.every((b) => bidderEnterprises.has(b.enterpriseId))).toBe(true);
  });

  it('every demo auction keeps a public bid log that verifies, and its deal contract prints the final hash', async () => {
    expect(await brokenBidLogs(database.db)).toEqual([]);
    const ended = (await database.db.select().from(auctions)).filter((a) => a.hangState === 3 && a.bidCount > 0);
    expect(new Set(ended.map((a) => a.tradeType))).toEqual(new Set([2, 3]));
    for (const auction of ended) {
      const check = await storedBidLogCheck(database.db, auction.id);
      expect(check).toMatchObject({ ok: true, finalHash: auction.bidLogHash, bids: auction.bidCount });
      const [deal] = await database.db.select().from(deals).where(eq(deals.tradeNo, auction.tradeNo));
      const [contract] = await database.db.select().from(contracts).where(eq(contracts.dealId, deal!.id));
      expect(contract!.text).toContain(auction.bidLogHash);
    }
  });
});
