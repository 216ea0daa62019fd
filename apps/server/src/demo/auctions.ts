import { and, eq, inArray, sql } from 'drizzle-orm';
import { shanghaiDate } from '../lib/shanghai-time';
import type { Db, Tx } from '../db/client';
import { auctionEnrolments, auctions, recommendations, users } from '../db/schema/index';
import { awardAuction } from '../flows/award-auction';
import { enrolAuction } from '../flows/enrol-auction';
import type { UkeyVerifier } from '../modules/funds/pay-auth';
import { placeBid } from '../flows/place-bid';
import type { Clock } from '../lib/clock';
import { nextTradeNumber } from '../lib/trade-number';
import type { Actor } from '../lib/actor';
import type { ScheduledJob } from '../plugins/scheduler';
import { DEMO_PRODUCTS } from './listings';
import { demoPayAuth } from './pay-password';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (time: number): Clock => ({ now: () => new Date(time) });

async function actorOf(db: Db | Tx, username: string): Promise<Actor> {
  const [row] = await db.select().from(users).where(eq(users.username, username));
  return { userId: row!.id, username, role: 'enterprise_admin', enterpriseId: row!.enterpriseId, sessionId: 0 };
}

/** Accounts the demo bidders bid as (see demoBiddersJob), of two demo enterprises of their own; the README lists them. */
export const DEMO_BIDDERS = ['bidder01', 'bidder02'] as const;

/** The demo bidders' accounts; none on a data folder made before they existed. */
async function demoBidders(db: Db | Tx): Promise<Actor[]> {
  const rows = await db.select().from(users).where(inArray(users.username, [...DEMO_BIDDERS]));
  return rows
    .sort((a, b) => a.username.localeCompare(b.username))
    .map((row) => ({ userId: row.id, username: row.username, role: 'enterprise_admin', enterpriseId: row.enterpriseId, sessionId: 0 }));
}

interface DemoAuction {
  owner: Actor;
  tradeType: 2 | 3;
  product: (typeof DEMO_PRODUCTS)[number];
  tons: number;
  yuan: number;
  enrolDeadline: number;
  bidStart: number;
  bidEnd: number;
  status?: string;
  place: [string, string, string, string];
}

async function insertAuction(tx: Tx | Db, a: DemoAuction) {
  const [operator] = await tx.select().from(users).where(eq(users.username, 'operator'));
  const [province, city, district, place] = a.place;
  const status = a.status ?? 'approved';
  const [row] = await tx
    .insert(auctions)
    .values({
      tradeNo: await nextTradeNumber(tx, 'JJ', new Date(a.enrolDeadline - DAY)),
      tradeType: a.tradeType,
      enterpriseId: a.owner.enterpriseId!,
      createdBy: a.owner.userId,
      stockCode: a.product.stockCode,
      productName: a.product.stockName,
      category: a.product.category,
      quality: a.product.quality,
      quantityKg: a.tons * 1000,
      startPriceFen: a.yuan * 100,
      minStepFen: 100,
      maxStepFen: 1_000,
      limitPriceFen: null,
      depositFen: 20_000_000,
      enrolDeadline: new Date(a.enrolDeadline),
      bidStart: new Date(a.bidStart),
      bidEnd: new Date(a.bidEnd),
      currentEnd: new Date(a.bidEnd),
      extensionSeconds: 120,
      priceType: a.tradeType === 2 ? 'factory_tax' : 'delivered',
      transport: 'rail',
      deliveryProvince: province,
      deliveryCity: city,
      deliveryDistrict: district,
      deliveryPlace: place,
      deliveryDateStart: shanghaiDate(a.bidEnd + DAY),
      deliveryDateEnd: shanghaiDate(a.bidEnd + 30 * DAY),
      status,
      auditTime: status === 'approved' ? new Date(a.enrolDeadline - 2 * DAY) : null,
      auditedBy: status === 'approved' ? operator!.id : null,
      createdAt: new Date(a.enrolDeadline - 3 * DAY),
    })
    .returning();
  return row!;
}

let requestSeq = 0;
const enrol = async (db: Db, ukey: UkeyVerifier, who: Actor, tradeNo: string, time: number) =>
  enrolAuction(db, at(time), ukey, who, { tradeId: tradeNo, requestId: `demo-enrol-${Date.now()}-${++requestSeq}`, ...(await demoPayAuth(db, who)) });

const ORDOS: [string, string, string, string] = ['内蒙古自治区', '鄂尔多斯市', '东胜区', '东胜煤炭铁路集运站'];
const SHUOZHOU: [string, string, string, string] = ['山西省', '朔州市', '朔城区', '朔州南站煤炭专用线'];

/** A sale auction bidding right now, so a newcomer can watch one at once; the demo bidders keep it moving. */
async function createLiveAuction(db: Db, ukey: UkeyVerifier, now: number) {
  const seller = await actorOf(db, 'seller01');
  const live = await insertAuction(db, {
    owner: seller,
    tradeType: 2,
    product: DEMO_PRODUCTS[0]!,
    tons: 10_000,
    yuan: 820,
    enrolDeadline: now - 20 * MINUTE,
    bidStart: now - 5 * MINUTE,
    bidEnd: now + 15 * MINUTE,
    place: SHUOZHOU,
  });
  // the demo bidders' own enterprises bid, never buyer01 or buyer02: a newcomer signed in as them sees only its own bids
  const [first, second] = await demoBidders(db);
  if (first && second) {
    for (const bidder of [first, second]) await enrol(db, ukey, bidder, live.tradeNo, now - 30 * MINUTE);
    await placeBid(db, at(now - 4 * MINUTE), first, { tradeId: live.tradeNo, price: 82_000 });
    await placeBid(db, at(now - 3 * MINUTE), second, { tradeId: live.tradeNo, price: 82_200 });
    await placeBid(db, at(now - 1 * MINUTE), first, { tradeId: live.tradeNo, price: 82_300 });
  }
  await db.insert(recommendations).values({ tradeKind: 'auction', tradeNo: live.tradeNo, sort: 0 }).onConflictDoNothing();
  return live;
}

/** Auctions of both types in every state, relative to `now`, through the real enrolment, bid and award flows. */
export async function loadDemoAuctions(tx: Tx, ukey: UkeyVerifier, now: Date) {
  const db = tx as unknown as Db;
  const t = now.getTime();
  const seller = await actorOf(db, 'seller01');
  const plant = await actorOf(db, 'buyer01');
  const trader = await actorOf(db, 'buyer02');
  const [p5500, p5000, p4500, anthracite] = DEMO_PRODUCTS as unknown as (typeof DEMO_PRODUCTS)[number][];

  await createLiveAuction(db, ukey, t);
  // enrolment open, and waiting for bidding
  const open = await insertAuction(db, { owner: seller, tradeType: 2, product: p5000!, tons: 6_000, yuan: 760, enrolDeadline: t + DAY, bidStart: t + DAY + HOUR, bidEnd: t + DAY + 2 * HOUR, place: SHUOZHOU });
  await enrol(db, ukey, trader, open.tradeNo, t - HOUR);
  const waiting = await insertAuction(db, { owner: seller, tradeType: 2, product: anthracite!, tons: 3_000, yuan: 1_100, enrolDeadline: t - HOUR, bidStart: t + 3 * HOUR, bidEnd: t + 4 * HOUR, place: ['山西省', '晋城市', '城区', '晋城北站'] });
  await enrol(db, ukey, plant, waiting.tradeNo, t - 2 * HOUR);
  // ended: a deal, and one that found no bidder (流拍)
  const done = await insertAuction(db, { owner: seller, tradeType: 2, product: p4500!, tons: 8_000, yuan: 650, enrolDeadline: t - 3 * DAY, bidStart: t - 2 * DAY, bidEnd: t - 2 * DAY + HOUR, place: SHUOZHOU });
  await enrol(db, ukey, plant, done.tradeNo, t - 4 * DAY);
  await enrol(db, ukey, trader, done.tradeNo, t - 4 * DAY);
  await placeBid(db, at(t - 2 * DAY + 10 * MINUTE), plant, { tradeId: done.tradeNo, price: 65_000 });
  await placeBid(db, at(t - 2 * DAY + 20 * MINUTE), trader, { tradeId: done.tradeNo, price: 65_500 });
  await placeBid(db, at(t - 2 * DAY + 59 * MINUTE), plant, { tradeId: done.tradeNo, price: 66_000 });
  await awardAuction(db, new Date(t - 2 * DAY + 2 * HOUR), done.id);
  const failed = await insertAuction(db, { owner: seller, tradeType: 2, product: p5500!, tons: 5_000, yuan: 900, enrolDeadline: t - 4 * DAY, bidStart: t - 3 * DAY, bidEnd: t - 3 * DAY + HOUR, place: SHUOZHOU });
  await awardAuction(db, new Date(t - 3 * DAY + 2 * HOUR), failed.id);
  await insertAuction(db, { owner: seller, tradeType: 2, product: p5500!, tons: 12_000, yuan: 830, enrolDeadline: t + 2 * DAY, bidStart: t + 2 * DAY + HOUR, bidEnd: t + 2 * DAY + 2 * HOUR, status: 'submitted', place: SHUOZHOU });

  // a power plant buying by reverse auction: enrolment open, and one ended with the mine winning
  await insertAuction(db, { owner: plant, tradeType: 3, product: p5500!, tons: 20_000, yuan: 880, enrolDeadline: t + 2 * DAY, bidStart: t + 2 * DAY + 2 * HOUR, bidEnd: t + 2 * DAY + 3 * HOUR, place: ORDOS });
  const bought = await insertAuction(db, { owner: plant, tradeType: 3, product: p5000!, tons: 15_000, yuan: 800, enrolDeadline: t - 6 * DAY, bidStart: t - 5 * DAY, bidEnd: t - 5 * DAY + HOUR, place: ORDOS });
  await enrol(db, ukey, seller, bought.tradeNo, t - 7 * DAY);
  await enrol(db, ukey, trader, bought.tradeNo, t - 7 * DAY);
  await placeBid(db, at(t - 5 * DAY + 5 * MINUTE), trader, { tradeId: bought.tradeNo, price: 79_500 });
  await placeBid(db, at(t - 5 * DAY + 30 * MINUTE), seller, { tradeId: bought.tradeNo, price: 78_800 });
  await awardAuction(db, new Date(t - 5 * DAY + 2 * HOUR), bought.id);
}

/** On every start with demo data: if no demo auction is bidding now, a fresh one starts. */
export async function ensureLiveDemoAuction(db: Db, ukey: UkeyVerifier, now: Date): Promise<string> {
  const seller = await actorOf(db, 'seller01');
  const [live] = await db
    .select({ id: auctions.id, tradeNo: auctions.tradeNo })
    .from(auctions)
    .where(and(eq(auctions.enterpriseId, seller.enterpriseId!), eq(auctions.status, 'approved'), sql`${auctions.bidStart} <= ${now} AND ${auctions.currentEnd} > ${now}`))
    .limit(1);
  return live ? live.tradeNo : (await createLiveAuction(db, ukey, now.getTime())).tradeNo;
}

/**
 * Demo bidders: for the first minutes after start-up, bidder01 and bidder02 (two demo enterprises of their own) take
 * turns outbidding each other on the live demo auction every few seconds, through the real bid flow, so the page is
 * alive for a newcomer. A trader who enrols in that auction is never bid for.
 */
// Only the demo auction of start-up: an auction a trader (or a test) publishes meanwhile must never get robot bids.
export function demoBiddersJob(startedAt: number, tradeNo: string, lease: { held(): boolean } = { held: () => true }, minutes = 10): ScheduledJob {
  let nextBidAt = startedAt + 5_000;
  return {
    name: 'demo.bidders',
    async run(db, now) {
      const time = now.getTime();
      if (time > startedAt + minutes * MINUTE || time < nextBidAt || !lease.held()) return;
      nextBidAt = time + 6_000 + Math.floor(Math.random() * 9_000);
      const [live] = await db
        .select()
        .from(auctions)
        .where(and(eq(auctions.tradeNo, tradeNo), eq(auctions.status, 'approved'), sql`${auctions.bidStart} <= ${now} AND ${auctions.currentEnd} > ${now}`))
        .limit(1);
      if (!live) return;
      const bidders = await demoBidders(db);
      const enrolled = await db
        .select({ enterpriseId: auctionEnrolments.enterpriseId })
        .from(auctionEnrolments)
        .where(and(eq(auctionEnrolments.auctionId, live.id), eq(auctionEnrolments.status, 'enrolled')));
      const enrolledIds = new Set(enrolled.map((e) => e.enterpriseId));
      const candidates = bidders.filter((b) => enrolledIds.has(b.enterpriseId!) && b.enterpriseId !== live.bestEnterpriseId);
      const next = candidates[Math.floor(Math.random() * candidates.length)];
      if (!next) return;
      const steps = 1 + Math.floor(Math.random() * 3);
      const price = (live.bestPriceFen ?? live.startPriceFen - live.minStepFen) + steps * live.minStepFen;
      await placeBid(db, { now: () => now }, next, { tradeId: live.tradeNo, price });
    },
  };
}
