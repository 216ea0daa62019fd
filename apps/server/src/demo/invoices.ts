import { amountFen, CONTRACT_VAT_RATE, formatFen, invoiceSplitOf, INVOICE_KINDS, type InvoiceKind } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, type Order } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { renderDocumentPdf } from '../lib/pdf/document-pdf';
import { shanghaiDate } from '../lib/shanghai-time';
import { saveUpload } from '../modules/files/files.service';
import type { FileStorage } from '../modules/files/storage';
import { confirmInvoice } from '../flows/confirm-invoice';
import { registerInvoice } from '../flows/register-invoice';
import { reverseInvoice } from '../flows/reverse-invoice';
import { invoiceTotals } from '../modules/invoice/invoice.service';
import { actorOf, at } from './listings';

const DAY = 24 * 3600_000;

/** amount and tax at the contract's 13 % that make exactly the given total */
function split(totalFen: number) {
  return { ...invoiceSplitOf(totalFen, CONTRACT_VAT_RATE), total: totalFen, rate: CONTRACT_VAT_RATE };
}

/**
 * Invoices on the demo's settled order (晋北煤业 sells to 华东电力): a paper 专票 for about 60 % of the settled
 * amount, confirmed by the buyer; a 数电 专票 for the rest, reversed by a red-letter invoice. The order stays 已结算
 * with the remainder still to invoice (the invoice e2e registers it and the buyer's confirmation completes it).
 * The order is settled by demo/settlement.ts (a statement issued and confirmed, the money moved).
 */
export async function loadDemoInvoices(db: Db, storage: FileStorage, now: Date) {
  const t = now.getTime();
  const seller = await actorOf(db, 'seller01');
  const buyer = await actorOf(db, 'buyer01');
  const pair = and(eq(orders.sellerEnterpriseId, seller.enterpriseId!), eq(orders.buyerEnterpriseId, buyer.enterpriseId!));

  const settled = await db.select().from(orders).where(and(pair, eq(orders.status, 'settled')));
  let order: Order | undefined;
  for (const candidate of settled) if ((await invoiceTotals(db, candidate.id)).count === 0) order = candidate;
  if (!order) return;
  const settledFen = order.settledFen!;

  const invoiceFile = async (who: Actor, time: number, title: string, lines: string[]) => {
    const pdf = await renderDocumentPdf({ title, header: `订单 ${order.orderNo}`, paragraphs: [`# ${title}`, ...lines, '（演示数据：此文件由平台生成，仅用于演示）'], createdAt: new Date(time) });
    return (await saveUpload(db, storage, at(time), who, { filename: `${title}.pdf`, data: Buffer.from(pdf), visibility: 'private' })).url;
  };
  const lines = (kind: InvoiceKind, number: string, issuedOn: string, money: ReturnType<typeof split>, sign = 1) => [
    `发票类型：${INVOICE_KINDS[kind]}`,
    `发票号码：${number}`,
    `开票日期：${issuedOn}`,
    `购买方：${order.buyerName}`,
    `销售方：${order.sellerName}`,
    `货物名称：${order.productName}`,
    `不含税金额：${formatFen(sign * money.amount)} 元；税率：${money.rate}%；税额：${formatFen(sign * money.tax)} 元`,
    `价税合计：${formatFen(sign * money.total)} 元`,
  ];

  // about 60 % on paper, confirmed
  const first = split(Math.round(settledFen * 0.6));
  const firstAt = t - 4 * DAY;
  const firstOn = shanghaiDate(firstAt);
  const paper = await registerInvoice(db, at(firstAt), seller, order.id, {
    kind: 'special',
    medium: 'paper',
    code: '1400261130',
    number: '08612345',
    issuedOn: firstOn,
    ...first,
    file: await invoiceFile(seller, firstAt, '增值税专用发票 08612345', lines('special', '08612345', firstOn, first)),
  });
  await confirmInvoice(db, at(t - 3 * DAY), buyer, paper.id, '发票已收到，与结算单一致');

  // the rest as 数电, reversed: the buyer's name was wrong; the seller has still to issue the replacement
  const rest = split(settledFen - first.total);
  const restAt = firstAt + 2 * 3600_000;
  const restNo = `26142000000${String(order.id).padStart(4, '0')}12345`;
  const digital = await registerInvoice(db, at(restAt), seller, order.id, {
    kind: 'special',
    medium: 'digital',
    code: '',
    number: restNo,
    issuedOn: shanghaiDate(restAt),
    ...rest,
    file: await invoiceFile(seller, restAt, `数电发票 ${restNo}`, lines('special', restNo, shanghaiDate(restAt), rest)),
  });
  const redAt = t - 2 * DAY;
  const redNo = `26142000000${String(order.id).padStart(4, '0')}54321`;
  await reverseInvoice(db, at(redAt), seller, digital.id, {
    medium: 'digital',
    code: '',
    number: redNo,
    issuedOn: shanghaiDate(redAt),
    reason: '购买方开户行信息有误，红冲后重新开具',
    file: await invoiceFile(seller, redAt, `红字发票 ${redNo}`, lines('special', redNo, shanghaiDate(redAt), rest, -1)),
  });
}
