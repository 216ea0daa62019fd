import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dispatches } from '../db/schema/index';
import { gradientPng } from '../lib/simple-png';
import { shanghaiDate } from '../lib/shanghai-time';
import { confirmFreight, draftFreight, payFreight } from '../modules/freight/freight.service';
import { saveUpload } from '../modules/files/files.service';
import type { FileStorage } from '../modules/files/storage';
import type { Actor } from '../lib/actor';
import { actorOf, at } from './listings';

const HOUR = 3600_000;

/**
 * The demo freight desk, over the signed trucks loadDemoOrders made (no truck is invented): 华东电力 (buyer01, fetching
 * on 出厂价 orders) settles with a carrier company, its earlier trucks paid and its later ones confirmed; 晋北煤业
 * (seller01, delivering on the 到厂价 order) has a draft. The split is by month when the trucks span two months, or
 * else the earliest trucks (the 待结算 order's fourteen) against the later ones. Call after loadDemoOrders.
 */
export async function loadDemoFreight(db: Db, storage: FileStorage, now: Date) {
  const plant = await actorOf(db, 'buyer01');
  const seller = await actorOf(db, 'seller01');
  const signedOf = async (who: Actor) =>
    db
      .select({ id: dispatches.id, signedAt: dispatches.signedAt })
      .from(dispatches)
      .where(and(eq(dispatches.enterpriseId, who.enterpriseId!), eq(dispatches.status, 'signed')))
      .orderBy(asc(dispatches.signedAt), asc(dispatches.id));
  const file = async (who: Actor, time: number, filename: string, seed: number) =>
    (await saveUpload(db, storage, at(time), who, { filename, data: gradientPng(64, 40, [240, 244, 250], [180 - seed, 196, 220]), visibility: 'private' })).url;

  const plantTrucks = await signedOf(plant);
  if (plantTrucks.length >= 2) {
    const month = (d: Date | null) => shanghaiDate(d!).slice(0, 7);
    const firstMonth = month(plantTrucks[0]!.signedAt);
    let cut = plantTrucks.findIndex((truck) => month(truck.signedAt) !== firstMonth);
    if (cut < 0) cut = Math.min(14, plantTrucks.length - 1);
    const groups = [plantTrucks.slice(0, cut), plantTrucks.slice(cut)];
    const carrier = '晋运通物流有限公司';
    for (const [i, group] of groups.entries()) {
      const first = group[0]!.signedAt!.getTime();
      const last = group[group.length - 1]!.signedAt!.getTime();
      const made = last + 2 * HOUR;
      const statement = await draftFreight(db, at(made), plant, {
        carrierKind: 'company',
        carrierName: carrier,
        periodFrom: shanghaiDate(first),
        periodTo: shanghaiDate(last),
        rateFen: i === 0 ? 26_800 : 27_550,
        lines: group.map((truck) => ({ dispatchId: truck.id })),
        note: i === 0 ? '朔州—外高桥汽运，按签收量结算' : '',
      });
      const confirmedAt = Math.min(made + 20 * HOUR, now.getTime() - 2 * HOUR);
      await confirmFreight(db, at(confirmedAt), plant, statement.id, { signedCopy: await file(plant, confirmedAt, `${statement.statementNo}-承运方签字.png`, i * 20), carrierSigner: '赵建国' });
      if (i === 0) {
        const paidAt = Math.min(confirmedAt + 48 * HOUR, now.getTime() - HOUR);
        await payFreight(db, at(paidAt), plant, statement.id, { voucher: await file(plant, paidAt, `${statement.statementNo}-付款回单.png`, 40), note: '网银转账' });
      }
    }
  }

  const sellerTrucks = await signedOf(seller);
  if (sellerTrucks.length > 0) {
    const first = sellerTrucks[0]!.signedAt!.getTime();
    const last = sellerTrucks[sellerTrucks.length - 1]!.signedAt!.getTime();
    await draftFreight(db, at(Math.min(last + 3 * HOUR, now.getTime() - HOUR)), seller, {
      carrierKind: 'company',
      carrierName: '朔州顺达运输有限公司',
      periodFrom: shanghaiDate(first),
      periodTo: shanghaiDate(last),
      rateFen: 28_000,
    });
  }
}
