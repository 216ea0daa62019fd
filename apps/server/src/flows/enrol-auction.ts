import { formatDateTime } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctionEnrolments, auctions, enterprises } from '../db/schema/index';
import { appError, notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { auctionPolicy } from '../modules/auction/auction.policy';
import { freezeTradeDeposit } from '../modules/funds/trade-deposits.service';
import { verifyPaymentAuth, type UkeyVerifier } from '../modules/funds/pay-auth';
import type { Actor } from '../lib/actor';
import { publish } from '../lib/events';
import { requireTradingAllowed } from '../modules/enterprise/trading-rights.service';

/** 竞价报名: the deposit is frozen in the transaction that enrols, under the auction's row lock. */
export async function enrolAuction(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier,
  actor: Actor,
  input: { tradeId: string; requestId: string; payPassword?: string; ukeySignature?: string },
) {
  auctionPolicy.can(actor, 'enrol');
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.id, actor.enterpriseId ?? -1)).limit(1);
  if (!enterprise || enterprise.auditStatus !== 'approved') throw appError('enterprise_not_approved', '企业未通过交易中心审核，不能报名');
  await requireTradingAllowed(db, clock, enterprise.id);
  const [existing] = await db
    .select({ e: auctionEnrolments })
    .from(auctionEnrolments)
    .innerJoin(auctions, eq(auctions.id, auctionEnrolments.auctionId))
    .where(and(eq(auctions.tradeNo, input.tradeId), eq(auctionEnrolments.enterpriseId, enterprise.id)))
    .limit(1);
  if (existing) {
    // the same click again gets its enrolment back; a second enrolment is refused
    if (existing.e.requestId === input.requestId) return existing.e;
    throw appError('already_enrolled');
  }
  await verifyPaymentAuth(db, clock, ukey, actor, 'auction_enrol', input);

  return db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.tradeNo, input.tradeId)).for('update').limit(1);
    if (!auction || auction.status !== 'approved') throw notFound('竞价不存在或未通过审核');
    auctionPolicy.can(actor, 'participate', auction);
    const now = clock.now();
    if (now >= auction.enrolDeadline) throw appError('enrolment_closed', `报名已于 ${formatDateTime(auction.enrolDeadline)} 截止`);
    const bidderNo = auction.enrolCount + 1;
    const [enrolment] = await tx
      .insert(auctionEnrolments)
      .values({ auctionId: auction.id, enterpriseId: enterprise.id, userId: actor.userId, bidderNo, requestId: input.requestId, createdAt: now })
      .onConflictDoNothing({ target: [auctionEnrolments.auctionId, auctionEnrolments.enterpriseId] })
      .returning();
    if (!enrolment) throw appError('already_enrolled');
    if (auction.depositFen > 0) {
      const deposit = await freezeTradeDeposit(tx, {
        enterpriseId: enterprise.id,
        tradeKind: 'auction',
        tradeId: auction.tradeNo,
        refId: String(enrolment.id),
        amount: auction.depositFen,
        createdBy: actor.userId,
      });
      await tx.update(auctionEnrolments).set({ depositId: deposit.id }).where(eq(auctionEnrolments.id, enrolment.id));
      enrolment.depositId = deposit.id;
    }
    await tx.update(auctions).set({ enrolCount: sql`${auctions.enrolCount} + 1`, updatedAt: now }).where(eq(auctions.id, auction.id));
    await publish(tx, 'auction.enrolled', { tradeNo: auction.tradeNo, enrolmentId: enrolment.id });
    return enrolment;
  });
}
