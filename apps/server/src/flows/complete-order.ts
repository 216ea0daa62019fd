import type { Tx } from '../db/client';
import type { Actor } from '../lib/actor';
import { markContractCompleted } from '../modules/contract/contract.service';
import { moveOrder, recordOrderEvent } from '../modules/order/order.service';

/** The invoices of a settled order are confirmed: the order is 已完成 and its contract too. */
export async function completeOrder(tx: Tx, orderId: number, input: { at: Date; actor: Pick<Actor, 'userId' | 'username'> | null; note?: string }) {
  const order = await moveOrder(tx, orderId, 'complete', { completedAt: input.at });
  await recordOrderEvent(tx, { orderId, action: '订单完成', actor: input.actor, note: input.note ?? '发票已确认', at: input.at });
  await markContractCompleted(tx, order.contractId, input.at);
  return order;
}

