import { formatDateTime } from '@coalx/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, contractUploads, deals, drivers, enterprises, orders, users, type Driver, type Order } from '../db/schema/index';
import { answerSubscription } from '../flows/answer-subscription';
import { makeMissingContracts } from '../flows/make-contract';
import { makeMissingOrders, makeOrderForContract } from '../flows/make-order';
import { subscribeListing } from '../flows/subscribe-listing';
import type { Actor } from '../lib/actor';
import { reviewPaperCopy, uploadPaperCopy } from '../modules/contract/contract.service';
import { contractPdfKey, readAll } from '../modules/contract/contract-document';
import { answerDispute } from '../flows/answer-dispute';
import { answerQualityReport } from '../flows/answer-quality-report';
import { dispatchTruck } from '../flows/dispatch-truck';
import { disputeTruck } from '../flows/dispute-truck';
import { recordArrival } from '../flows/record-arrival';
import { recordLoading } from '../flows/record-loading';
import { signFor } from '../flows/sign-for-truck';
import { submitQualityReport } from '../flows/submit-quality-report';
import { saveUpload } from '../modules/files/files.service';
import type { FileStorage } from '../modules/files/storage';
import { payOrder } from '../flows/pay-order';
import type { UkeyVerifier } from '../modules/funds/pay-auth';
import { terminateOrder } from '../flows/terminate-order';
import { shanghaiDate } from '../lib/shanghai-time';
import { labReportPng, weighTicketPng, type DemoLabReport } from './delivery-photos';
import { actorOf, at, DEMO_PRODUCTS, insertDemoListing } from './listings';
import { demoPayAuth } from './pay-password';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The deals behind the demo delivery desk: a sale of 晋北煤业 (出厂价: the buyer fetches) ended three weeks ago and
 * bought in lots by 华东电力 and 津沽能源, and a purchase of 华东电力 (到厂价: the seller delivers) supplied by 晋北煤业.
 * Each contract takes effect the way a party without a certificate makes it effective: a paper copy signed by both,
 * accepted by the trading centre. Returns the contracts by lot name, oldest first.
 */
async function demoEffectiveContracts(db: Db, storage: FileStorage, ukey: UkeyVerifier, now: Date) {
  const t = now.getTime();
  const seller = await actorOf(db, 'seller01');
  const plant = await actorOf(db, 'buyer01');
  const trader = await actorOf(db, 'buyer02');
  const [operatorRow] = await db.select().from(users).where(eq(users.username, 'operator'));
  const operator: Actor = { userId: operatorRow!.id, username: 'operator', role: 'operator', enterpriseId: null, sessionId: 0 };
  const [p5500] = DEMO_PRODUCTS;
  const shuozhou: [string, string, string, string] = ['山西省', '朔州市', '平鲁区', '晋北煤业井东煤矿装车站'];
  const shanghai: [string, string, string, string] = ['上海市', '市辖区', '浦东新区', '外高桥电厂码头'];

  const sale = await insertDemoListing(db as never, now, operatorRow!.id, seller, { tradeType: 0, product: p5500!, tons: 20_000, yuan: 845, start: t - 24 * DAY, end: t - 21 * DAY, place: shuozhou });
  // the lot delivered and settled was bought five weeks ago, so its trucks fall in an earlier month than today's
  const earlier = await insertDemoListing(db as never, now, operatorRow!.id, seller, { tradeType: 0, product: p5500!, tons: 5_000, yuan: 845, start: t - 42 * DAY, end: t - 39 * DAY, place: shuozhou });
  const purchase = await insertDemoListing(db as never, now, operatorRow!.id, plant, { tradeType: 1, product: p5500!, tons: 3_000, yuan: 905, start: t - 18 * DAY, end: t - 16 * DAY, place: shanghai });
  let request = 0;
  const lots: { name: string; listing: string; owner: Actor; buyer: Actor; tons: number; at: number }[] = [
    { name: 'overdue', listing: sale.tradeNo, owner: seller, buyer: trader, tons: 500, at: t - 23 * DAY + 2 * HOUR },
    { name: 'paid', listing: sale.tradeNo, owner: seller, buyer: plant, tons: 800, at: t - 22 * DAY - 6 * HOUR },
    { name: 'shipping', listing: sale.tradeNo, owner: seller, buyer: plant, tons: 1_000, at: t - 22 * DAY - 4 * HOUR },
    { name: 'delivered', listing: earlier.tradeNo, owner: seller, buyer: plant, tons: 500, at: t - 41 * DAY },
    { name: 'terminated', listing: sale.tradeNo, owner: seller, buyer: trader, tons: 700, at: t - 22 * DAY },
    { name: 'delivering', listing: purchase.tradeNo, owner: plant, buyer: seller, tons: 1_200, at: t - 17 * DAY },
  ];
  const sourceIds = new Map<number, string>();
  for (const lot of lots) {
    const subscription = await subscribeListing(db, at(lot.at), ukey, lot.buyer, { tradeId: lot.listing, quantity: lot.tons * 1000, requestId: `demo-order-sub-${++request}`, ...(await demoPayAuth(db, lot.buyer)) });
    await answerSubscription(db, at(lot.at + HOUR), lot.owner, { id: subscription.id, action: 'confirm' });
    sourceIds.set(subscription.id, lot.name);
    // the platform makes the contract right after the deal
    await makeMissingContracts(db, storage, at(lot.at + 2 * HOUR), (err) => {
      throw err;
    });
  }
  const made = await db
    .select({ contract: contracts, sourceId: deals.sourceId })
    .from(contracts)
    .innerJoin(deals, eq(deals.id, contracts.dealId))
    .where(and(eq(deals.tradeKind, 'listing'), inArray(deals.sourceId, [...sourceIds.keys()])));
  const byName = new Map<string, typeof contracts.$inferSelect>();
  for (const { contract, sourceId } of made) byName.set(sourceIds.get(sourceId)!, contract);
  for (const lot of lots) {
    const contract = byName.get(lot.name)!;
    const signedAt = lot.at + 3 * HOUR;
    await effectiveByPaperCopy(db, storage, contract, lot.buyer, operator, signedAt);
    // the order follows the contract taking effect, as the listener makes it
    await makeOrderForContract(db, at(signedAt + HOUR + 60_000), contract.id);
  }
  return { byName, seller, plant, trader, operator };
}

/**
 * A contract taking effect the way parties without certificates make it so: a paper copy signed by both uploaded by
 * one side at `signedAt`, accepted by the trading centre an hour later.
 */
export async function effectiveByPaperCopy(db: Db, storage: FileStorage, contract: typeof contracts.$inferSelect, uploader: Actor, operator: Actor, signedAt: number) {
  const pdf = await readAll(storage, contractPdfKey(contract.contractNo, contract.pdfSha256));
  await uploadPaperCopy(db, storage, at(signedAt), uploader, contract.id, { fileName: `${contract.contractNo}-双方盖章.pdf`, data: pdf! });
  const [upload] = await db.select().from(contractUploads).where(eq(contractUploads.contractId, contract.id));
  await reviewPaperCopy(db, at(signedAt + HOUR), operator, contract.id, upload!.id, { accept: true, note: '纸质合同与平台生成文本一致' });
}

type Truck = { driver: Driver; plannedKg: number; loadedNet: number; arrivedNet: number };

/**
 * The demo's hands at the delivery desk: trucks taken as far as asked, weigh tickets with their printed pictures,
 * payments and lab reports, each through the service the pages call at its own time. `seller` weighs at loading.
 */
export async function demoDeliveryDesk(db: Db, storage: FileStorage, ukey: UkeyVerifier, seller: Actor, buyers: Actor[]) {
  const enterpriseName = async (who: Actor) => (await db.select().from(enterprises).where(eq(enterprises.id, who.enterpriseId!)))[0]!.organName;
  const names = new Map<number | null, string>([[seller.enterpriseId, await enterpriseName(seller)]]);
  for (const buyer of buyers) names.set(buyer.enterpriseId, await enterpriseName(buyer));
  const upload = async (who: Actor, time: number, filename: string, data: Buffer) =>
    (await saveUpload(db, storage, at(time), who, { filename, data, visibility: 'private' })).url;
  let ticketSeq = 0;

  /** One weigh ticket, with its printed picture, recorded by the side that weighs at this stage. */
  async function ticket(who: Actor, stage: 'loading' | 'arrival', truckId: number, driver: Driver, time: number, netKg: number, from: Actor, to: Actor) {
    const tareKg = 15_200 + (ticketSeq % 7) * 130;
    const ticketNo = `${stage === 'loading' ? 'ZC' : 'DH'}${formatDateTime(new Date(time)).slice(0, 10).replace(/-/g, '')}-${String(++ticketSeq).padStart(3, '0')}`;
    const weighedAt = new Date(time - 5 * 60_000);
    const photo = await upload(who, time, `${ticketNo}.png`, weighTicketPng({
      title: stage === 'loading' ? '装车过磅单' : '到货过磅单',
      ticketNo,
      plateNo: driver.plateNo,
      from: names.get(from.enterpriseId)!,
      to: names.get(to.enterpriseId)!,
      grossKg: tareKg + netKg,
      tareKg,
      netKg,
      weighedAt: formatDateTime(weighedAt),
    }));
    const input = { ticketNo, grossKg: tareKg + netKg, tareKg, netKg, weighedAt: weighedAt.toISOString(), photo };
    return stage === 'loading' ? recordLoading(db, at(time), who, truckId, input) : recordArrival(db, at(time), who, truckId, input);
  }

  /**
   * Sends trucks against an order and takes each as far as `until` says: 'dispatched', 'loaded', 'arrived',
   * 'signed'. The transporting side dispatches; the seller weighs at loading, the buyer at arrival.
   */
  async function truck(order: Order, transporter: Actor, buyer: Actor, start: number, spec: Truck, until: 'dispatched' | 'loaded' | 'arrived' | 'signed') {
    const dispatched = await dispatchTruck(db, at(start), transporter, { orderId: order.id, driverId: spec.driver.id, plannedKg: spec.plannedKg, planDate: shanghaiDate(start) });
    if (until === 'dispatched') return dispatched;
    await ticket(seller, 'loading', dispatched.id, spec.driver, start + 3 * HOUR, spec.loadedNet, seller, buyer);
    if (until === 'loaded') return dispatched;
    await ticket(buyer, 'arrival', dispatched.id, spec.driver, start + 11 * HOUR, spec.arrivedNet, seller, buyer);
    if (until === 'arrived') return dispatched;
    await signFor(db, at(start + 12 * HOUR), buyer, dispatched.id);
    return dispatched;
  }
  const load = (driver: Driver, i: number, plannedKg = 40_000): Truck => {
    const loadedNet = plannedKg - 300 - (i % 5) * 110;
    return { driver, plannedKg, loadedNet, arrivedNet: loadedNet - 20 - (i % 4) * 15 };
  };
  const pay = async (buyer: Actor, order: Order, time: number) => payOrder(db, at(time), ukey, buyer, order.id, { requestId: `demo-pay-${order.id}`, ...(await demoPayAuth(db, buyer)) });
  async function labReport(who: Actor, order: Order, time: number, batch: string, values: Omit<DemoLabReport, 'labName' | 'reportNo' | 'sample' | 'testedAt'>) {
    const labName = '山西省煤炭质量检测中心';
    const reportNo = `MZ${formatDateTime(new Date(time)).slice(0, 10).replace(/-/g, '')}${String(order.id).padStart(3, '0')}`;
    const testedAt = shanghaiDate(time);
    const file = await upload(who, time, `${reportNo}.png`, labReportPng({ labName, reportNo, sample: `${order.productName} ${batch}`, testedAt, ...values }));
    return submitQualityReport(db, at(time), who, order.id, { lab: 'third_party', labName, reportNo, testedAt, batch, file, ...values });
  }

  return { truck, load, pay, labReport };
}


/**
 * A living delivery desk: orders in every state between the demo enterprises, with trucks, weigh tickets, a
 * sign-for dispute and lab reports (DESIGN.md §7 demo data). Every step goes through the service the pages call,
 * at its own time in the past, so timelines, journals and counters read as they would after three weeks of trade.
 */
export async function loadDemoOrders(db: Db, storage: FileStorage, ukey: UkeyVerifier, now: Date) {
  const t = now.getTime();
  // the lot 'overdue' (津沽能源) stays unpaid past its deadline: on the operator's to-do
  const { byName, seller, plant, operator } = await demoEffectiveContracts(db, storage, ukey, now);
  const orderOf = async (name: string) => (await db.select().from(orders).where(eq(orders.contractId, byName.get(name)!.id)))[0]!;
  const approvedDrivers = async (who: Actor) =>
    db.select().from(drivers).where(and(eq(drivers.enterpriseId, who.enterpriseId!), eq(drivers.status, 'approved'))).orderBy(drivers.id);
  const [sellerDrivers, plantDrivers] = [await approvedDrivers(seller), await approvedDrivers(plant)];
  const { truck, load, pay, labReport } = await demoDeliveryDesk(db, storage, ukey, seller, [plant]);

  // 待发货: paid two days after the contract, trucks not yet sent
  await pay(plant, await orderOf('paid'), t - 21 * DAY);

  // 发运中, the buyer fetching (出厂价): two trucks signed for, one waiting for sign-for, one on the road, one at the mine
  const shipping = await orderOf('shipping');
  await pay(plant, shipping, t - 21 * DAY + 2 * HOUR);
  const [p1, p2, p3] = plantDrivers as [Driver, Driver, Driver];
  await truck(shipping, plant, plant, t - 4 * DAY, load(p1, 1), 'signed');
  await truck(shipping, plant, plant, t - 3 * DAY, load(p2, 2, 34_000), 'signed');
  await truck(shipping, plant, plant, t - 1 * DAY, load(p3, 3, 30_000), 'arrived');
  await truck(shipping, plant, plant, t - 5 * HOUR, load(p1, 4), 'loaded');
  await truck(shipping, plant, plant, t - 1 * HOUR, load(p2, 5, 34_000), 'dispatched');

  // 待结算: fourteen trucks signed for (the signed tons reach the quantity less its tolerance), the lab report accepted
  const delivered = await orderOf('delivered');
  await pay(plant, delivered, t - 39 * DAY);
  for (let i = 0; i < 14; i++) {
    const driver = plantDrivers[i % plantDrivers.length]!;
    await truck(delivered, plant, plant, t - 37 * DAY + i * 8 * HOUR, load(driver, i, Math.min(40_000, Math.floor(driver.ratedLoadKg * 1.05))), 'signed');
  }
  const report = await labReport(seller, delivered, t - 30 * DAY, '', { qnet: 5480, mt: 11.6, st: 0.82, ad: 17.4, vdaf: 28.3 });
  await answerQualityReport(db, at(t - 29 * DAY), plant, report.id, { accept: true, reason: '' });

  // 已终止: the buyer never paid; the operator ended it with the reason on the timeline
  const terminated = await orderOf('terminated');
  await terminateOrder(db, at(t - 15 * DAY), operator, terminated.id, '买方逾期未支付预付款，经双方确认解除，订单终止');

  // 发运中, the seller delivering (到厂价): signed trucks, one arrived, one disputed and answered (the operator's
  // ruling waits), one on the road; the first batch's lab report waits for the seller's answer
  const delivering = await orderOf('delivering');
  await pay(plant, delivering, t - 16 * DAY);
  const [s1, s2, s3, s4] = sellerDrivers as [Driver, Driver, Driver, Driver];
  await truck(delivering, seller, plant, t - 6 * DAY, load(s1, 6), 'signed');
  await truck(delivering, seller, plant, t - 5 * DAY, load(s2, 7), 'signed');
  await truck(delivering, seller, plant, t - 4 * DAY, load(s4, 8, 38_000), 'signed');
  const short = await truck(delivering, seller, plant, t - 2 * DAY, { driver: s3, plannedKg: 31_000, loadedNet: 30_600, arrivedNet: 29_950 }, 'arrived');
  await disputeTruck(db, at(t - 2 * DAY + 13 * HOUR), plant, short.id, { reason: '到厂净重比装车净重少 0.65 吨，超出合理途损，篷布有破损', photos: [] });
  await answerDispute(db, at(t - 2 * DAY + 16 * HOUR), seller, short.id, { answer: '出厂时篷布完好，有装车视频为证，请按装车净重签收' });
  await truck(delivering, seller, plant, t - 1 * DAY, load(s1, 9), 'arrived');
  await truck(delivering, seller, plant, t - 4 * HOUR, load(s2, 10), 'loaded');
  await labReport(plant, delivering, t - 3 * DAY, '第1批', { qnet: 5390, mt: 12.8, st: 0.95, ad: 18.6, vdaf: 27.9 });
  // the contract both demo parties signed with their certificates (demo/contracts.ts): its order waits for payment
  await makeMissingOrders(db, at(now.getTime()), (err) => {
    throw err;
  });
}
