import { invoiceNumberProblem, type InvoiceKind, type InvoiceReverse, type InvoiceView } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError, businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { findStoredFile, ownedFileId } from '../modules/files/files.service';
import { invoicePolicy } from '../modules/invoice/invoice.policy';
import { dateProblem, insertInvoice, invoiceView, lockedInvoice, moveInvoice, refuseUsedNumber, requireSettled, withNumber } from '../modules/invoice/invoice.service';
import { recordOrderEvent } from '../modules/order/order.service';

/**
 * 红冲: the seller registers the red-letter invoice that reverses one (same amounts, negative). The reversed
 * invoice no longer counts, so the order again waits for invoices up to its settled amount.
 */
export async function reverseInvoice(db: Db, clock: Clock, actor: Actor, id: number, input: InvoiceReverse): Promise<InvoiceView> {
  const now = clock.now();
  if (!(await findStoredFile(db, input.file))) throw appError('attachment_invalid', '红字发票文件无效，请重新上传');
  const reversedId = await withNumber(input.code, input.number, () =>
    db.transaction(async (tx) => {
      const { invoice, order } = await lockedInvoice(tx, actor, id);
      invoicePolicy.can(actor, 'reverse', invoice);
      if (invoice.direction !== 'blue') throw businessRule('红字发票不能再红冲');
      // the red-letter invoice is of the reversed one's kind, which the form could not know
      const numberProblem = invoiceNumberProblem(input.medium, input.code, input.number, invoice.kind as InvoiceKind);
      if (numberProblem) throw businessRule(numberProblem.message);
      requireSettled(order, '红冲发票');
      const date = dateProblem(input.issuedOn, order, now);
      if (date) throw businessRule(date);
      if (input.issuedOn < invoice.issuedOn) throw businessRule(`红字发票开票日期不能早于原发票（${invoice.issuedOn}）`);
      await refuseUsedNumber(tx, input.code, input.number);
      const fileId = await ownedFileId(tx, input.file, actor.enterpriseId!);
      await moveInvoice(tx, id, 'reverse', { reversedAt: now, reverseReason: input.reason, updatedAt: now });
      const redId = await insertInvoice(tx, {
          orderId: invoice.orderId,
          orderNo: invoice.orderNo,
          settlementNo: invoice.settlementNo,
          sellerEnterpriseId: invoice.sellerEnterpriseId,
          buyerEnterpriseId: invoice.buyerEnterpriseId,
          sellerName: invoice.sellerName,
          buyerName: invoice.buyerName,
          direction: 'red',
          kind: invoice.kind,
          medium: input.medium,
          code: input.code,
          number: input.number,
          issuedOn: input.issuedOn,
          rate: invoice.rate,
          amountFen: -invoice.amountFen,
          taxFen: -invoice.taxFen,
          totalFen: -invoice.totalFen,
          fileId,
          status: 'red',
          reversesId: invoice.id,
          reverseReason: input.reason,
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        });
      await recordOrderEvent(tx, { orderId: order.id, action: '红冲发票', actor, note: `发票号码 ${invoice.number} 由红字发票 ${input.number} 冲销：${input.reason}`, at: now });
      return redId;
    }),
  );
  return invoiceView(db, actor, reversedId);
}

