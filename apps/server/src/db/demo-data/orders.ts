import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { contracts, contractUploads, deals, users } from '../schema/index';
import { answerSubscription } from '../../flows/answer-subscription';
import { makeMissingContracts } from '../../flows/make-contract';
import { makeMissingOrders, makeOrderForContract } from '../../flows/make-order';
import { subscribeListing } from '../../flows/subscribe-listing';
import type { Actor } from '../../lib/actor';
import { reviewPaperCopy, uploadPaperCopy } from '../../modules/contract/contract.service';
import { contractPdfKey, readAll } from '../../modules/contract/contract-document';
import type { FileStorage } from '../../modules/files/storage';
import { actorOf, at, DEMO_PRODUCTS, insertDemoListing } from './listings';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The deals behind the demo delivery desk: a sale of 晋北煤业 (出厂价: the buyer fetches) ended three weeks ago and
 * bought in lots by 华东电力 and 津沽能源, and a purchase of 华东电力 (到厂价: the seller delivers) supplied by 晋北煤业.
 * Each contract takes effect the way a party without a certificate makes it effective: a paper copy signed by both,
 * accepted by the trading centre. Returns the contracts by lot name, oldest first.
 */
async function demoEffectiveContracts(db: Db, storage: FileStorage, now: Date) {
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
  const purchase = await insertDemoListing(db as never, now, operatorRow!.id, plant, { tradeType: 1, product: p5500!, tons: 3_000, yuan: 905, start: t - 18 * DAY, end: t - 16 * DAY, place: shanghai });
  let request = 0;
  const lots: { name: string; listing: string; owner: Actor; buyer: Actor; tons: number; at: number }[] = [
    { name: 'overdue', listing: sale.tradeNo, owner: seller, buyer: trader, tons: 500, at: t - 23 * DAY + 2 * HOUR },
    { name: 'paid', listing: sale.tradeNo, owner: seller, buyer: plant, tons: 800, at: t - 22 * DAY - 6 * HOUR },
    { name: 'shipping', listing: sale.tradeNo, owner: seller, buyer: plant, tons: 1_000, at: t - 22 * DAY - 4 * HOUR },
    { name: 'delivered', listing: sale.tradeNo, owner: seller, buyer: plant, tons: 500, at: t - 22 * DAY - 2 * HOUR },
    { name: 'terminated', listing: sale.tradeNo, owner: seller, buyer: trader, tons: 700, at: t - 22 * DAY },
    { name: 'delivering', listing: purchase.tradeNo, owner: plant, buyer: seller, tons: 1_200, at: t - 17 * DAY },
  ];
  const sourceIds = new Map<number, string>();
  for (const lot of lots) {
    const subscription = await subscribeListing(db, at(lot.at), lot.buyer, { tradeId: lot.listing, quantity: lot.tons * 1000, requestId: `demo-order-sub-${++request}` });
    await answerSubscription(db, at(lot.at + HOUR), lot.owner, { id: subscription.id, action: 'confirm' });
    sourceIds.set(subscription.id, lot.name);
  }
  await makeMissingContracts(db, storage, at(t - 21 * DAY), (err) => {
    throw err;
  });
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
    const pdf = await readAll(storage, contractPdfKey(contract.contractNo, contract.pdfSha256));
    await uploadPaperCopy(db, storage, at(signedAt), lot.buyer, contract.id, { fileName: `${contract.contractNo}-双方盖章.pdf`, data: pdf! });
    const [upload] = await db.select().from(contractUploads).where(eq(contractUploads.contractId, contract.id));
    await reviewPaperCopy(db, at(signedAt + HOUR), operator, contract.id, upload!.id, { accept: true, note: '纸质合同与平台生成文本一致' });
    // the order follows the contract taking effect, as the listener makes it
    await makeOrderForContract(db, at(signedAt + HOUR + 60_000), contract.id);
  }
  return { byName, seller, plant, trader, operator };
}

/**
 * A living delivery desk: orders in every state between the demo enterprises, with trucks, weigh tickets, a
 * sign-for dispute and lab reports (DESIGN.md §7 demo data).
 */
export async function loadDemoOrders(db: Db, storage: FileStorage, now: Date) {
  await demoEffectiveContracts(db, storage, now);
  // the contract both demo parties signed with their certificates (demo-data/contracts.ts): its order waits for payment
  await makeMissingOrders(db, at(now.getTime()), (err) => {
    throw err;
  });
}
