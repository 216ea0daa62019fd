import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { publish, type EventBus } from '../lib/events';
import { startSweep } from '../lib/sweep';
import { contractForOrder, effectiveContractIds, markContractPerforming } from '../modules/contract/contract.service';
import { hasNoOrder, insertOrder } from '../modules/order/order.service';
import { workingDaysDeadline } from '../modules/system/calendar';

/**
 * Makes the order of an effective contract (DESIGN.md §8): parties, goods and terms copied from the contract, the
 * prepayment due within the contract's payment days (working days from now), and the contract moved to 履行中, in
 * one transaction. Idempotent: a contract that has its order, or is no longer effective, is left alone.
 */
export async function makeOrderForContract(db: Db, clock: Clock, contractId: number) {
  const contract = await contractForOrder(db, contractId);
  // a long-term framework contract (no deal) has no order of its own
  if (!contract || contract.status !== 'effective' || contract.dealId === null) return null;
  const now = clock.now();
  const { context, terms } = contract;
  const paymentDeadline = await workingDaysDeadline(db, now, terms.paymentWorkingDays);
  return db.transaction(async (tx) => {
    const order = await insertOrder(tx, {
      contractId: contract.id,
      contractNo: contract.contractNo,
      dealId: contract.dealId!,
      dealNo: context.dealNo,
      tradeNo: context.tradeNo,
      tradeType: context.tradeType,
      sellerEnterpriseId: contract.sellerEnterpriseId,
      buyerEnterpriseId: contract.buyerEnterpriseId,
      sellerName: context.seller.name,
      buyerName: context.buyer.name,
      transportSide: terms.transportArranger,
      productName: context.productName,
      stockCode: context.stockCode,
      quality: context.quality,
      quantityKg: context.quantityKg,
      priceFen: context.priceFen,
      amountFen: context.amountFen,
      priceType: context.priceType,
      terms,
      paymentDeadline,
      createdAt: now,
    });
    if (order) {
      await markContractPerforming(tx, contract.id, now);
      await publish(tx, 'order.created', { id: order.id });
    }
    return order;
  });
}

export async function makeMissingOrders(db: Db, clock: Clock, onError: (err: unknown, contractId: number) => void) {
  let made = 0;
  for (const contractId of await effectiveContractIds(db, hasNoOrder)) {
    try {
      if (await makeOrderForContract(db, clock, contractId)) made++;
    } catch (err) {
      onError(err, contractId);
    }
  }
  return made;
}

/** An order follows its contract's `contract.effective` at once; a sweep at start-up and every minute catches up. */
export function orderFollowUps(
  bus: EventBus,
  app: { db: Db; clock: Clock; log: { error(obj: object, msg: string): void } },
  sweepEveryMs = 60_000,
): Array<() => void> {
  const onError = (err: unknown, contractId: number) => app.log.error({ err, contractId }, 'order creation failed');
  const sweep = () => makeMissingOrders(app.db, app.clock, onError).catch((err) => app.log.error({ err }, 'order sweep failed'));
  return [
    bus.on('contract.effective', ({ id }) => makeOrderForContract(app.db, app.clock, id).catch((err) => onError(err, id))),
    startSweep(sweep, sweepEveryMs),
  ];
}
