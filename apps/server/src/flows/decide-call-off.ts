import { TradeType, type LongTermDetail } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { createDeal } from '../modules/deal/deal.service';
import { acceptCallOff, attachCallOffDeal, callOffToDecide, declineCallOff } from '../modules/long-term/call-offs.service';
import { longTermDetail } from '../modules/long-term/long-term-query.service';

/**
 * The other side confirms or declines a pending call-off. Confirming makes it a deal of kind long-term
 * (`deal.created`: its contract, order, trucks, settlement and invoices follow as for a spot deal) in the same
 * transaction; declining gives its quantity back to the month.
 */
export async function decideCallOff(db: Db, clock: Clock, actor: Actor, callOffId: number, input: { accept: boolean; reason: string }): Promise<LongTermDetail> {
  const now = clock.now();
  const longTermId = await db.transaction(async (tx) => {
    const { callOff, deal } = await callOffToDecide(tx, actor, callOffId);
    if (!input.accept) {
      await declineCallOff(tx, actor, callOff, input.reason, now);
      return deal.id;
    }
    const moved = await acceptCallOff(tx, actor, deal, callOff, now);
    const made = await createDeal(tx, now, {
      tradeKind: 'long_term',
      tradeNo: deal.longTermNo,
      tradeType: TradeType.listingSale,
      sourceId: moved.id,
      publisherEnterpriseId: deal.sellerEnterpriseId,
      counterpartyEnterpriseId: deal.buyerEnterpriseId!,
      stockCode: deal.stockCode,
      productName: deal.productName,
      quantityKg: moved.quantityKg,
      priceFen: moved.priceFen,
      depositFen: 0,
    });
    await attachCallOffDeal(tx, callOffId, made);
    return deal.id;
  });
  return longTermDetail(db, clock, actor, longTermId);
}
