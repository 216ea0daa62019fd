import { amountFen, formatTons, HangState, listingHangState, subscriptionDeposit } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enterprises, listingSubscriptions, listings } from '../db/schema/index';
import { appError, notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { freezeTradeDeposit } from '../modules/funds/trade-deposits.service';
import { verifyPaymentAuth } from '../modules/funds/pay-auth';
import { listingPolicy } from '../modules/listing/listing.policy';
import type { Actor } from '../lib/actor';
import { confirmSubscriptionInTx } from './answer-subscription';

/**
 * 摘牌: reserves the quantity and freezes the subscriber's deposit in one transaction that holds the listing's row
 * lock, so concurrent subscribers are served in time order and can never take more than the listed total.
 */
export async function subscribeListing(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { tradeId: string; quantity: number; requestId: string; payPassword?: string; ukeySignature?: string },
) {
  const [replay] = await db
    .select()
    .from(listingSubscriptions)
    .where(and(eq(listingSubscriptions.enterpriseId, actor.enterpriseId ?? -1), eq(listingSubscriptions.requestId, input.requestId)))
    .limit(1);
  if (replay) return replay;
  listingPolicy.can(actor, 'trade');
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.id, actor.enterpriseId ?? -1)).limit(1);
  if (!enterprise || enterprise.auditStatus !== 'approved') throw appError('enterprise_not_approved', '企业未通过交易中心审核，不能摘牌');
  await verifyPaymentAuth(db, clock, actor, 'listing_subscribe', input);

  return db.transaction(async (tx) => {
    const [listing] = await tx.select().from(listings).where(eq(listings.tradeNo, input.tradeId)).for('update').limit(1);
    if (!listing || listing.status !== 'approved') throw notFound('挂牌不存在或未通过审核');
    listingPolicy.can(actor, 'subscribe', listing);
    const now = clock.now();
    if (now < listing.listedDateStart) throw appError('listing_not_open', '挂牌尚未开始，暂不能摘牌');
    const remaining = listing.quantityKg - listing.subscribedKg;
    if (remaining <= 0) throw appError('listing_sold_out');
    if (listingHangState(listing, now) !== HangState.open) throw appError('listing_ended', '挂牌已结束，不能摘牌');
    const q = input.quantity;
    if (q > remaining) throw appError('subscribe_quantity_invalid', `摘牌数量超过剩余可摘量 ${formatTons(remaining)}`);
    if (q > listing.maxSubscribeKg) throw appError('subscribe_quantity_invalid', `摘牌数量不能大于最大摘牌量 ${formatTons(listing.maxSubscribeKg)}`);
    // the last lot may be smaller than the minimum: whoever takes exactly the remainder is served
    if (q < listing.minSubscribeKg && q !== remaining) throw appError('subscribe_quantity_invalid', `摘牌数量不能小于最小摘牌量 ${formatTons(listing.minSubscribeKg)}`);

    const deposit = subscriptionDeposit(listing.depositMode, listing.depositValueFen, q);
    const [subscription] = await tx
      .insert(listingSubscriptions)
      .values({
        listingId: listing.id,
        enterpriseId: actor.enterpriseId!,
        userId: actor.userId,
        quantityKg: q,
        priceFen: listing.priceFen,
        amountFen: Number(amountFen(listing.priceFen, q)),
        depositFen: deposit,
        requestId: input.requestId,
        createdAt: now,
      })
      .returning();
    let depositId: number | null = null;
    if (deposit > 0) {
      const frozen = await freezeTradeDeposit(tx, {
        enterpriseId: actor.enterpriseId!,
        tradeKind: 'listing',
        tradeId: listing.tradeNo,
        refId: String(subscription!.id),
        amount: deposit,
        createdBy: actor.userId,
      });
      depositId = frozen.id;
      await tx.update(listingSubscriptions).set({ depositId }).where(eq(listingSubscriptions.id, subscription!.id));
    }
    const soldOut = listing.subscribedKg + q >= listing.quantityKg;
    await tx
      .update(listings)
      .set({
        subscribedKg: sql`${listings.subscribedKg} + ${q}`,
        ...(soldOut ? { hangState: HangState.ended, endedAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(listings.id, listing.id));
    await publish(tx, 'listing.quantity_changed', { id: listing.id });
    const saved = { ...subscription!, depositId };
    if (listing.autoConfirm) return confirmSubscriptionInTx(tx, now, listing, saved);
    return saved;
  });
}
