import { addMonths, monthDays, monthsBetween, type LongTermOffer } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, drivers, longTermApplications, longTermCallOffs, orders, users, type Driver } from '../db/schema/index';
import { decideCallOff } from '../flows/decide-call-off';
import { makeFrameworkContract } from '../flows/make-long-term-contract';
import { startLongTermOfContract } from '../flows/start-long-term';
import { makeContractForDeal } from '../flows/make-contract';
import { makeOrderForContract } from '../flows/make-order';
import type { Actor } from '../lib/actor';
import { shanghaiDate } from '../lib/shanghai-time';
import { answerQualityReport } from '../flows/answer-quality-report';
import { finishDelivery } from '../flows/finish-delivery';
import type { FileStorage } from '../modules/files/storage';
import { createCallOff } from '../modules/long-term/call-offs.service';
import { acceptApplication, applyToOffer, saveOffer } from '../modules/long-term/offers.service';
import { issueStatement } from '../flows/issue-statement';
import { confirmStatement } from '../flows/settle-statement';
import type { UkeyVerifier } from '../modules/funds/pay-auth';
import { actorOf, at } from './listings';
import { demoDeliveryDesk, effectiveByPaperCopy } from './orders';
import { demoPayAuth } from './pay-password';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Midnight Asia/Shanghai of a YYYY-MM-DD day, as epoch ms. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);

/**
 * 长协 in the demo (call after the spot chain's demo, DESIGN.md §7): 晋北煤业 supplies 华东电力 under a twelve-month
 * framework priced from the platform's index that is in its fourth month: three months called off, delivered by
 * truck and (the first two) settled, the second short of the 90 % line, and this month's call-off waiting for the
 * buyer; and a second offer, open to every audited buyer, waiting for applications. Every step goes through the
 * services the pages call, each at its own time in the past.
 */
export async function loadDemoLongTerm(db: Db, storage: FileStorage, ukey: UkeyVerifier, now: Date) {
  const seller = await actorOf(db, 'seller01');
  const plant = await actorOf(db, 'buyer01');
  const [operatorRow] = await db.select().from(users).where(eq(users.username, 'operator'));
  const operator: Actor = { userId: operatorRow!.id, username: 'operator', role: 'operator', enterpriseId: null, sessionId: 0 };
  const thisMonth = shanghaiDate(now).slice(0, 7);
  const first = addMonths(thisMonth, -3);
  const months = monthsBetween(first, addMonths(first, 11));
  const plannedTons = [480, 480, 480, 500, 520, 520, 480, 480, 450, 450, 480, 500];

  // the offer, published two weeks before the period, applied to and accepted within days
  const offeredAt = dayStart(`${first}-01`) - 16 * DAY + 10 * HOUR;
  const offer: LongTermOffer = {
    stockCode: 'DLM5500',
    quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 },
    priceType: 'factory_tax',
    transport: 'road',
    deliveryProvince: '山西省',
    deliveryCity: '朔州市',
    deliveryDistrict: '平鲁区',
    deliveryPlace: '晋北煤业井东煤矿装车站',
    periodStart: first,
    periodEnd: months[months.length - 1]!,
    months: months.map((month, i) => ({ month, plannedKg: plannedTons[i]! * 1000 })),
    pricing: { mode: 'index', basePriceFen: 67_500, coefficientE4: 3_000, referenceFen: 82_000, heatFactorE4: null },
    applyDeadline: shanghaiDate(offeredAt + 6 * DAY),
    remark: '年度电煤保供长协，汽运出厂，每月上旬发布当月调运。',
    submit: true,
  };
  const published = await saveOffer(db, at(offeredAt), seller, offer);
  await applyToOffer(db, at(offeredAt + 2 * DAY), plant, published.id, '迎峰度夏及冬储保供，申请全年长协');
  const [applied] = await db.select().from(longTermApplications).where(eq(longTermApplications.longTermId, published.id));
  await acceptApplication(db, at(offeredAt + 3 * DAY), seller, published.id, applied!.id);
  await makeFrameworkContract(db, storage, at(offeredAt + 3 * DAY + HOUR), published.id);
  const [framework] = await db.select().from(contracts).where(eq(contracts.longTermId, published.id));
  await effectiveByPaperCopy(db, storage, framework!, plant, operator, offeredAt + 5 * DAY);
  await startLongTermOfContract(db, at(offeredAt + 5 * DAY + 2 * HOUR), framework!.id);

  // the buyer's trucks fetch the coal (出厂价): each month's call-off runs the whole spot chain
  const desk = await demoDeliveryDesk(db, storage, ukey, seller, [plant]);
  const plantDrivers = await db.select().from(drivers).where(and(eq(drivers.enterpriseId, plant.enterpriseId!), eq(drivers.status, 'approved'))).orderBy(drivers.id);
  const deliveredShare = [0.99, 0.84, 0.98];
  for (let m = 0; m < 3; m++) {
    const month = months[m]!;
    const start = dayStart(`${month}-01`);
    const plannedKg = plannedTons[m]! * 1000;
    const issued = await createCallOff(db, at(start + DAY + 9 * HOUR), seller, published.id, {
      month,
      quantityKg: plannedKg,
      deliveryDateStart: shanghaiDate(start + DAY),
      deliveryDateEnd: monthDays(month).last,
      note: `${month.slice(5)}月调运`,
    });
    const callOffId = issued.callOffs.find((c) => c.month === month)!.id;
    await decideCallOff(db, at(start + DAY + 14 * HOUR), ukey, plant, callOffId, { accept: true, reason: '', ...(await demoPayAuth(db, plant)) });
    const [callOff] = await db.select().from(longTermCallOffs).where(eq(longTermCallOffs.id, callOffId));
    await makeContractForDeal(db, storage, at(start + DAY + 15 * HOUR), callOff!.dealId!);
    const [monthly] = await db.select().from(contracts).where(eq(contracts.dealId, callOff!.dealId!));
    await effectiveByPaperCopy(db, storage, monthly!, plant, operator, start + 2 * DAY + 9 * HOUR);
    await makeOrderForContract(db, at(start + 2 * DAY + 11 * HOUR), monthly!.id);
    const [order] = await db.select().from(orders).where(eq(orders.contractId, monthly!.id));
    await desk.pay(plant, order!, start + 2 * DAY + 15 * HOUR);

    // trucks of about 39 t every two days until the month's share is signed for
    const target = Math.round(plannedKg * deliveredShare[m]!);
    let signed = 0;
    for (let i = 0; signed < target - 20_000; i++) {
      const driver: Driver = plantDrivers[i % plantDrivers.length]!;
      const spec = desk.load(driver, i + m, Math.min(40_000, Math.floor(driver.ratedLoadKg * 1.05)));
      await desk.truck(order!, plant, plant, start + 3 * DAY + i * 2 * DAY + 8 * HOUR, spec, 'signed');
      signed += spec.arrivedNet;
    }
    const deliveredAt = start + 27 * DAY;
    const [progress] = await db.select().from(orders).where(eq(orders.id, order!.id));
    if (progress!.status === 'shipping') await finishDelivery(db, at(deliveredAt), seller, order!.id, { note: m === 1 ? '本月矿井检修减产，经双方协商按实际发运量结束' : '本月调运完毕' });
    const report = await desk.labReport(seller, progress!, deliveredAt + HOUR, `${month.slice(5)}月`, { qnet: 5520 - m * 40, mt: 11.8 + m * 0.2, st: 0.78 + m * 0.03, ad: 17.6, vdaf: 28.1 });
    await answerQualityReport(db, at(deliveredAt + 5 * HOUR), plant, report.id, { accept: true, reason: '' });
    // the two earlier months are settled; last month's statement is still to come
    if (m < 2) {
      const statement = await issueStatement(db, at(deliveredAt + DAY), seller, order!.id);
      await confirmStatement(db, at(deliveredAt + DAY + 4 * HOUR), ukey, plant, statement.id, await demoPayAuth(db, plant));
    }
  }

  // this month (the fourth): the seller's call-off waits for the buyer's confirmation
  const current = months[3]!;
  const today = shanghaiDate(now);
  await createCallOff(db, at(now.getTime() - 2 * HOUR), seller, published.id, {
    month: current,
    quantityKg: 300_000,
    deliveryDateStart: today,
    deliveryDateEnd: monthDays(current).last,
    note: '本月第一批调运',
  });

  // an offer open to every audited buyer, waiting for applications
  const next = addMonths(thisMonth, 2);
  const nextYear = monthsBetween(next, addMonths(next, 5));
  await saveOffer(db, at(now.getTime() - 2 * DAY), seller, {
    stockCode: 'DLM5000',
    quality: { qnet: 5000, mt: 14, st: 0.9, ad: 22, vdaf: 30 },
    priceType: 'factory_tax',
    transport: 'rail',
    deliveryProvince: '山西省',
    deliveryCity: '朔州市',
    deliveryDistrict: '平鲁区',
    deliveryPlace: '朔州西站煤炭集运站',
    periodStart: next,
    periodEnd: nextYear[nextYear.length - 1]!,
    months: nextYear.map((month) => ({ month, plannedKg: 3_000_000 })),
    pricing: { mode: 'fixed', basePriceFen: 61_000, coefficientE4: 0, referenceFen: 0, heatFactorE4: null },
    applyDeadline: shanghaiDate(now.getTime() + 20 * DAY),
    remark: '半年度铁路直达长协，固定价格，欢迎电厂及贸易企业申请。',
    submit: true,
  });
  return published.id;
}
