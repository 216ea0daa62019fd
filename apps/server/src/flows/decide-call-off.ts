import { TradeType, type LongTermDetail } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { createDeal } from '../modules/deal/deal.service';
import { verifyPaymentAuth, type PaymentAuthInput, type UkeyVerifier } from '../modules/funds/pay-auth';
import { acceptCallOff, attachCallOffDeal, callOffToDecide, declineCallOff } from '../modules/long-term/call-offs.service';
import { longTermDetail } from '../modules/long-term/long-term-query.service';

/** The pay-auth action of confirming a call-off (the key signs the call-off id). */
export const CALL_OFF_CONFIRM_ACTION = 'call_off_confirm';

/**
 * The other side confirms or declines a pending call-off. Confirming makes it a deal of kind long-term
 * (`deal.created`: its contract, order, trucks, settlement and invoices follow as for a spot deal) in the same
 * transaction, so it asks the pay password or key first as 摘牌 does (checked once the caller is known to be the
 * side that decides, before the transaction); declining gives its quantity back to the month and asks nothing.
 */
export async function decideCallOff(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier,
  actor: Actor,
  callOffId: number,
  input: { accept: boolean; reason: string } & PaymentAuthInput,
): Promise<LongTermDetail> {
  if (input.accept) {
    await db.transaction((tx) => callOffToDecide(tx, actor, callOffId));
    await verifyPaymentAuth(db, clock, ukey, actor, CALL_OFF_CONFIRM_ACTION, { ...input, callOffId });
  }
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
