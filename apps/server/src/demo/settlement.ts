import { and, asc, eq, like } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema/index';
import type { StatementView } from '@coalx/shared';
import { issueStatement } from '../flows/issue-statement';
import { confirmStatement } from '../flows/settle-statement';
import type { UkeyVerifier } from '../modules/funds/pay-auth';
import { actorOf, at } from './listings';
import { demoPayAuth } from './pay-password';

const DAY = 24 * 3600_000;

/**
 * 余额结算 in the demo (call after loadDemoOrders(db, storage, ukey, now)): the 待结算 order 华东电力 bought from 晋北煤业
 * (14 trucks signed, lab report accepted 13 days ago) gets its statement issued by seller01 twelve days ago and
 * confirmed by buyer01 eleven days ago, through the service the pages call (pay password off in the demo), so the
 * escrow reaches the seller, the rest goes back and the order is 已结算. Returns the statement, or null when the
 * demo has no such order (already settled).
 */
export async function loadDemoSettlement(db: Db, ukey: UkeyVerifier, now: Date): Promise<StatementView | null> {
  const t = now.getTime();
  const seller = await actorOf(db, 'seller01');
  const plant = await actorOf(db, 'buyer01');
  const [order] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'awaiting_settlement'),
        eq(orders.sellerEnterpriseId, seller.enterpriseId!),
        eq(orders.buyerEnterpriseId, plant.enterpriseId!),
        // the spot order: the long-term call-offs settle in demo/long-term.ts
        like(orders.tradeNo, 'GP%'),
      ),
    )
    .orderBy(asc(orders.id))
    .limit(1);
  if (!order) return null;
  const issued = await issueStatement(db, at(t - 12 * DAY + 3 * 3600_000), seller, order.id);
  return confirmStatement(db, at(t - 11 * DAY + 5 * 3600_000), ukey, plant, issued.id, await demoPayAuth(db, plant));
}
