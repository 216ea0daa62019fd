import { type InvoiceView } from '@coalx/shared';
import type { Db } from '../db/client';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { invoicePolicy } from '../modules/invoice/invoice.policy';
import { invoicesComplete, invoiceTotals, invoiceView, lockedInvoice, moveInvoice, yuan } from '../modules/invoice/invoice.service';
import { recordOrderEvent } from '../modules/order/order.service';
import { completeOrder } from './complete-order';

/**
 * 确认收票: the buyer received the invoice. When every live invoice is confirmed and they total the settled amount,
 * the order (and its contract) is 已完成 in the same transaction.
 */
export async function confirmInvoice(db: Db, clock: Clock, actor: Actor, id: number, note: string): Promise<InvoiceView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { invoice, order } = await lockedInvoice(tx, actor, id);
    invoicePolicy.can(actor, 'confirm', invoice);
    if (invoice.direction !== 'blue') throw businessRule('红字发票无需确认');
    await moveInvoice(tx, id, 'confirm', { confirmedAt: now, confirmedBy: actor.userId, confirmNote: note, updatedAt: now });
    await recordOrderEvent(tx, { orderId: order.id, action: '确认收票', actor, note: `发票号码 ${invoice.number}`, at: now });
    const totals = await invoiceTotals(tx, order.id);
    if (order.status === 'settled' && totals.confirmedCount === totals.count && invoicesComplete(order.settledFen ?? 0, totals)) {
      await completeOrder(tx, order.id, { at: now, actor, note: `发票 ${totals.count} 张已全部确认，价税合计 ${yuan(totals.total)}` });
    }
  });
  return invoiceView(db, actor, id);
}

