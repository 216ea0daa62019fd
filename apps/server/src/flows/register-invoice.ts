import { CONTRACT_VAT_RATE, type InvoiceCreate, type InvoiceView } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError, businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { findStoredFile, ownedFileId } from '../modules/files/files.service';
import { invoicePolicy } from '../modules/invoice/invoice.policy';
import { dateProblem, insertInvoice, invoiceTotals, invoiceView, refuseUsedNumber, requireSettled, withNumber, yuan } from '../modules/invoice/invoice.service';
import { orderForActor, recordOrderEvent } from '../modules/order/order.service';

/**
 * 登记发票: the seller's invoice for a settled order, at its contract's VAT rate; the live invoices (not reversed, not
 * red-letter) may not total a fen more than the settled amount. The order row is locked first, as by every invoice
 * change, so of concurrent registrations each sees the ones before it: a conditional INSERT alone would not do,
 * as two statements running at once do not see each other's rows.
 */
export async function registerInvoice(db: Db, clock: Clock, actor: Actor, orderId: number, input: InvoiceCreate): Promise<InvoiceView> {
  const now = clock.now();
  if (!(await findStoredFile(db, input.file))) throw appError('attachment_invalid', '发票文件无效，请重新上传');
  const id = await withNumber(input.code, input.number, () =>
    db.transaction(async (tx) => {
      const { order } = await orderForActor(tx, actor, orderId, true);
      invoicePolicy.can(actor, 'register', order);
      requireSettled(order, '登记发票');
      const date = dateProblem(input.issuedOn, order, now);
      if (date) throw businessRule(date);
      if (input.rate !== CONTRACT_VAT_RATE) throw businessRule(`发票税率须与合同约定一致：合同价格含 ${CONTRACT_VAT_RATE}% 增值税，本张为 ${input.rate}%`);
      await refuseUsedNumber(tx, input.code, input.number);
      const settled = order.settledFen ?? 0;
      const totals = await invoiceTotals(tx, orderId);
      if (totals.total + input.total > settled) {
        throw businessRule(`发票价税合计超过结算金额：结算金额 ${yuan(settled)}，已登记 ${yuan(totals.total)}，本张最多 ${yuan(Math.max(0, settled - totals.total))}`);
      }
      const fileId = await ownedFileId(tx, input.file, actor.enterpriseId!);
      const rowId = await insertInvoice(tx, {
          orderId,
          orderNo: order.orderNo,
          settlementNo: order.settlementNo ?? '',
          sellerEnterpriseId: order.sellerEnterpriseId,
          buyerEnterpriseId: order.buyerEnterpriseId,
          sellerName: order.sellerName,
          buyerName: order.buyerName,
          kind: input.kind,
          medium: input.medium,
          code: input.code,
          number: input.number,
          issuedOn: input.issuedOn,
          rate: input.rate,
          amountFen: input.amount,
          taxFen: input.tax,
          totalFen: input.total,
          fileId,
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        });
      await publish(tx, 'invoice.registered', { id: rowId });
      await recordOrderEvent(tx, { orderId, action: '登记发票', actor, note: `发票号码 ${input.number}，价税合计 ${yuan(input.total)}`, at: now });
      return rowId;
    }),
  );
  return invoiceView(db, actor, id);
}

