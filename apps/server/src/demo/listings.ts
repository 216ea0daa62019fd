import { eq } from 'drizzle-orm';
import { shanghaiDate } from '../lib/shanghai-time';
import type { Db, Tx } from '../db/client';
import { listings, products, users } from '../db/schema/index';
import { answerSubscription } from '../flows/answer-subscription';
import { subscribeListing } from '../flows/subscribe-listing';
import type { UkeyVerifier } from '../modules/funds/pay-auth';
import type { Clock } from '../lib/clock';
import { nextTradeNumber } from '../lib/trade-number';
import type { Actor } from '../lib/actor';
import type { RoleCode } from '@coalx/shared';
import { demoPayAuth } from './pay-password';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

export const DEMO_PRODUCTS = [
  { stockCode: 'DLM5500', stockName: '动力煤 5500', category: '动力煤', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, sort: 1 },
  { stockCode: 'DLM5000', stockName: '动力煤 5000', category: '动力煤', quality: { qnet: 5000, mt: 14, st: 0.9, ad: 22, vdaf: 30 }, sort: 2 },
  { stockCode: 'DLM4500', stockName: '动力煤 4500', category: '动力煤', quality: { qnet: 4500, mt: 18, st: 1.0, ad: 25, vdaf: 32 }, sort: 3 },
  { stockCode: 'WYM6000', stockName: '无烟煤 6000', category: '无烟煤', quality: { qnet: 6000, mt: 8, st: 0.5, ad: 14, vdaf: 8 }, sort: 4 },
  { stockCode: 'JM1', stockName: '主焦煤', category: '焦煤', quality: { qnet: 6800, mt: 9, st: 0.6, ad: 10, vdaf: 24 }, sort: 5 },
];

export const at = (time: number): Clock => ({ now: () => new Date(time) });

export async function actorOf(db: Db, username: string): Promise<Actor> {
  const [row] = await db.select().from(users).where(eq(users.username, username));
  return { userId: row!.id, username, role: 'enterprise_admin' as RoleCode, enterpriseId: row!.enterpriseId, sessionId: 0 };
}

/** A listing of the demo market, as published and audited at the given times (relative to `now`). */
export async function insertDemoListing(
  tx: Tx,
  now: Date,
  operatorId: number,
  owner: Actor,
  o: { tradeType: 0 | 1; product: (typeof DEMO_PRODUCTS)[number]; tons: number; yuan: number; start: number; end: number; status?: string; autoConfirm?: boolean; place: [string, string, string, string] },
) {
  const [province, city, district, place] = o.place;
  const status = o.status ?? 'approved';
  const [row] = await tx
    .insert(listings)
    .values({
      tradeNo: await nextTradeNumber(tx, 'GP', new Date(o.start - DAY)),
      tradeType: o.tradeType,
      enterpriseId: owner.enterpriseId!,
      createdBy: owner.userId,
      stockCode: o.product.stockCode,
      productName: o.product.stockName,
      category: o.product.category,
      quality: o.product.quality,
      quantityKg: o.tons * 1000,
      priceFen: o.yuan * 100,
      minSubscribeKg: Math.min(500_000, o.tons * 1000),
      maxSubscribeKg: Math.min(5_000_000, o.tons * 1000),
      depositMode: 'per_ton',
      depositValueFen: 2_000,
      priceType: o.tradeType === 0 ? 'factory_tax' : 'delivered',
      transport: 'road',
      deliveryProvince: province,
      deliveryCity: city,
      deliveryDistrict: district,
      deliveryPlace: place,
      deliveryDateStart: shanghaiDate(o.end + DAY),
      deliveryDateEnd: shanghaiDate(o.end + 30 * DAY),
      listedDateStart: new Date(o.start),
      listedDateEnd: new Date(o.end),
      autoConfirm: o.autoConfirm ?? false,
      status,
      auditTime: status === 'approved' ? new Date(o.start - DAY) : null,
      auditedBy: status === 'approved' ? operatorId : null,
      hangState: status !== 'approved' ? 0 : now.getTime() < o.start ? 0 : now.getTime() < o.end ? 1 : 2,
      endedAt: status === 'approved' && now.getTime() >= o.end ? new Date(o.end) : null,
      createdAt: new Date(o.start - 2 * DAY),
    })
    .returning();
  return row!;
}

/**
 * A living listing market relative to `now`: open, upcoming, ended, awaiting audit and draft listings of both types,
 * some partly subscribed, with deals. Subscriptions go through the real flow, so deposits sit in the journal.
 */
export async function loadDemoListings(tx: Tx, ukey: UkeyVerifier, now: Date) {
  const db = tx as unknown as Db;
  await tx.insert(products).values(DEMO_PRODUCTS).onConflictDoNothing();
  const seller = await actorOf(db, 'seller01');
  const plant = await actorOf(db, 'buyer01');
  const trader = await actorOf(db, 'buyer02');
  const [operator] = await tx.select().from(users).where(eq(users.username, 'operator'));
  const t = now.getTime();
  const listing = (owner: Actor, o: Parameters<typeof insertDemoListing>[4]) => insertDemoListing(tx, now, operator!.id, owner, o);

  let request = 0;
  const subscribe = async (who: Actor, tradeNo: string, tons: number, time: number) =>
    subscribeListing(db, at(time), ukey, who, { tradeId: tradeNo, quantity: tons * 1000, requestId: `demo-sub-${++request}`, ...(await demoPayAuth(db, who)) });
  const answer = (owner: Actor, id: number, action: 'confirm' | 'decline', time: number) => answerSubscription(db, at(time), owner, { id, action, reason: action === 'decline' ? '交收时间不匹配' : undefined });

  const shuozhou: [string, string, string, string] = ['山西省', '朔州市', '朔城区', '晋北煤业一号储煤场'];
  const [p5500, p5000, p4500, anthracite, coking] = DEMO_PRODUCTS as unknown as [(typeof DEMO_PRODUCTS)[number], (typeof DEMO_PRODUCTS)[number], (typeof DEMO_PRODUCTS)[number], (typeof DEMO_PRODUCTS)[number], (typeof DEMO_PRODUCTS)[number]];

  // open sale, partly subscribed: one deal, one waiting for confirmation
  const open = await listing(seller, { tradeType: 0, product: p5500, tons: 20_000, yuan: 850, start: t - 6 * HOUR, end: t + 2 * DAY, place: shuozhou });
  const s1 = await subscribe(plant, open.tradeNo, 3_000, t - 5 * HOUR);
  await answer(seller, s1.id, 'confirm', t - 4 * HOUR);
  await subscribe(trader, open.tradeNo, 1_500, t - 2 * HOUR);
  // open sale with auto-confirm
  await listing(seller, { tradeType: 0, product: p5000, tons: 8_000, yuan: 780, start: t - 3 * HOUR, end: t + 3 * DAY, autoConfirm: true, place: shuozhou });
  await listing(seller, { tradeType: 0, product: anthracite, tons: 5_000, yuan: 1_120, start: t - 1 * HOUR, end: t + 5 * DAY, place: ['山西省', '晋城市', '城区', '晋城北石店储运站'] });
  // ended sale, sold out to two buyers
  const ended = await listing(seller, { tradeType: 0, product: p4500, tons: 6_000, yuan: 690, start: t - 5 * DAY, end: t - 2 * DAY, place: shuozhou });
  const e1 = await subscribe(plant, ended.tradeNo, 4_000, t - 4 * DAY);
  await answer(seller, e1.id, 'confirm', t - 4 * DAY + HOUR);
  const e2 = await subscribe(trader, ended.tradeNo, 2_000, t - 3 * DAY);
  await answer(seller, e2.id, 'confirm', t - 3 * DAY + HOUR);
  // upcoming, awaiting audit, draft
  await listing(seller, { tradeType: 0, product: coking, tons: 3_000, yuan: 1_650, start: t + 2 * DAY, end: t + 4 * DAY, place: ['山西省', '吕梁市', '柳林县', '柳林焦煤集运站'] });
  await listing(seller, { tradeType: 0, product: p5500, tons: 10_000, yuan: 860, start: t + 1 * DAY, end: t + 3 * DAY, status: 'submitted', place: shuozhou });
  await listing(seller, { tradeType: 0, product: p5000, tons: 2_000, yuan: 770, start: t + 3 * DAY, end: t + 5 * DAY, status: 'draft', place: shuozhou });

  // a power plant buying: open purchase with an offer waiting, and an ended one with a deal
  const shanghai: [string, string, string, string] = ['上海市', '市辖区', '浦东新区', '外高桥电厂码头'];
  const buying = await listing(plant, { tradeType: 1, product: p5500, tons: 30_000, yuan: 870, start: t - 8 * HOUR, end: t + 4 * DAY, place: shanghai });
  await subscribe(seller, buying.tradeNo, 5_000, t - 7 * HOUR);
  await listing(trader, { tradeType: 1, product: p5000, tons: 12_000, yuan: 800, start: t - 2 * HOUR, end: t + 2 * DAY, place: ['天津市', '市辖区', '滨海新区', '天津港南疆煤码头'] });
  const bought = await listing(plant, { tradeType: 1, product: p5000, tons: 10_000, yuan: 790, start: t - 7 * DAY, end: t - 1 * DAY, place: shanghai });
  const b1 = await subscribe(seller, bought.tradeNo, 5_000, t - 6 * DAY);
  await answer(plant, b1.id, 'confirm', t - 6 * DAY + 2 * HOUR);
}
