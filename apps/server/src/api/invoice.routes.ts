import {
  INVOICE_DIRECTIONS,
  INVOICE_KINDS,
  INVOICE_MEDIA,
  INVOICE_STATUS,
  InvoiceConfirmSchema,
  InvoiceCreateSchema,
  InvoiceDuePageSchema,
  InvoiceDueQuerySchema,
  InvoiceFilterSchema,
  InvoicePageSchema,
  InvoiceQuerySchema,
  InvoiceReverseSchema,
  InvoiceViewSchema,
  OrderInvoicesSchema,
  envelopeSchema,
  formatFen,
  type InvoiceStatus,
  type InvoiceView,
} from '@coalx/shared';
import { z } from 'zod';
import { invoiceDueOrders } from '../queries/invoice-due';
import { ok } from '../lib/envelope';
import { fileHeaders } from '../lib/file-reply';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { confirmInvoice } from '../flows/confirm-invoice';
import { registerInvoice } from '../flows/register-invoice';
import { reverseInvoice } from '../flows/reverse-invoice';
import { invoicePolicy } from '../modules/invoice/invoice.policy';
import { invoiceFile, invoiceView, invoicesForExport, listInvoices, orderInvoices } from '../modules/invoice/invoice.service';

const BASE = '/api/invoice';
const idField = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);
const IdParams = z.object({ id: idField('发票编号无效') });
const OrderParams = z.object({ orderId: idField('订单编号无效') });

function invoiceWorkbook(rows: InvoiceView[]): Promise<Buffer> {
  const columns = [
    { header: '订单编号', key: 'orderNo', width: 20 },
    { header: '结算单号', key: 'settlementNo', width: 20 },
    { header: '卖方(开票方)', key: 'sellerName', width: 30 },
    { header: '买方(受票方)', key: 'buyerName', width: 30 },
    { header: '蓝字/红字', key: 'direction', width: 10 },
    { header: '发票类型', key: 'kind', width: 16 },
    { header: '发票介质', key: 'medium', width: 10 },
    { header: '发票代码', key: 'code', width: 14 },
    { header: '发票号码', key: 'number', width: 24 },
    { header: '开票日期', key: 'issuedOn', width: 12 },
    { header: '不含税金额(元)', key: 'amount', width: 18 },
    { header: '税率', key: 'rate', width: 8 },
    { header: '税额(元)', key: 'tax', width: 16 },
    { header: '价税合计(元)', key: 'total', width: 18 },
    { header: '状态', key: 'status', width: 10 },
    { header: '红冲关联发票', key: 'linked', width: 24 },
    { header: '登记时间', key: 'createdAt', width: 20 },
    { header: '确认时间', key: 'confirmedAt', width: 20 },
  ];
  return excelWorkbook(
    '发票列表',
    columns,
    rows.map((r) => ({
      ...r,
      direction: INVOICE_DIRECTIONS[r.direction],
      kind: INVOICE_KINDS[r.kind],
      medium: INVOICE_MEDIA[r.medium],
      amount: formatFen(r.amount),
      rate: `${r.rate}%`,
      tax: formatFen(r.tax),
      total: formatFen(r.total),
      status: INVOICE_STATUS[r.status as InvoiceStatus] ?? r.status,
      linked: r.reversesNumber ?? r.reversedByNumber ?? '',
      confirmedAt: r.confirmedAt ?? '',
    })),
  );
}

/** 发票管理: the seller registers and reverses VAT invoices of settled orders, the buyer confirms receipt. */
export default async function invoiceRoutes(app: ZodApp) {
  const tags = ['invoice'];

  app.get(
    `${BASE}/list`,
    { config: { permission: 'invoice' }, schema: { tags, summary: '发票列表 (企业: 本企业开出或收到的; 运营: 全部)', querystring: InvoiceQuerySchema, response: { 200: envelopeSchema(InvoicePageSchema) } } },
    async (request) => ok(await listInvoices(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: 'invoice.export' }, schema: { tags, summary: '导出发票列表 (Excel)', querystring: InvoiceFilterSchema } },
    async (request, reply) => sendExcel(reply, await invoiceWorkbook(await invoicesForExport(app.db, requireActor(request), request.query)), '发票列表.xlsx'),
  );

  app.get(
    `${BASE}/due`,
    { config: { permission: 'invoice' }, schema: { tags, summary: '待开票: 已结算而发票尚未开足的订单', querystring: InvoiceDueQuerySchema, response: { 200: envelopeSchema(InvoiceDuePageSchema) } } },
    async (request) => ok(await invoiceDueOrders(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/order/:orderId`,
    { config: { permission: 'invoice' }, schema: { tags, summary: '订单的结算金额、已开票金额与发票', params: OrderParams, response: { 200: envelopeSchema(OrderInvoicesSchema) } } },
    async (request) => ok(await orderInvoices(app.db, requireActor(request), request.params.orderId)),
  );

  app.post(
    `${BASE}/order/:orderId`,
    {
      config: { permission: invoicePolicy.grantOf('register'), audit: '登记发票' },
      schema: { tags, summary: '卖方登记已结算订单的增值税发票 (价税合计不超过结算金额)', params: OrderParams, body: InvoiceCreateSchema, response: { 200: envelopeSchema(InvoiceViewSchema) } },
    },
    async (request) => ok(await registerInvoice(app.db, app.clock, requireActor(request), request.params.orderId, request.body), '发票已登记，待买方确认'),
  );

  app.get(
    `${BASE}/:id`,
    { config: { permission: 'invoice' }, schema: { tags, summary: '发票详情', params: IdParams, response: { 200: envelopeSchema(InvoiceViewSchema) } } },
    async (request) => ok(await invoiceView(app.db, requireActor(request), request.params.id)),
  );

  app.post(
    `${BASE}/:id/confirm`,
    {
      config: { permission: invoicePolicy.grantOf('confirm'), audit: '确认收票' },
      schema: { tags, summary: '买方确认收票 (发票全部确认且开足结算金额时订单完成)', params: IdParams, body: InvoiceConfirmSchema, response: { 200: envelopeSchema(InvoiceViewSchema) } },
    },
    async (request) => ok(await confirmInvoice(app.db, app.clock, requireActor(request), request.params.id, request.body.note), '已确认收票'),
  );

  app.post(
    `${BASE}/:id/reverse`,
    {
      config: { permission: invoicePolicy.grantOf('reverse'), audit: '红冲发票' },
      schema: { tags, summary: '卖方登记红字发票冲销一张发票 (该订单须重新开票)', params: IdParams, body: InvoiceReverseSchema, response: { 200: envelopeSchema(InvoiceViewSchema) } },
    },
    async (request) => ok(await reverseInvoice(app.db, app.clock, requireActor(request), request.params.id, request.body), '已红冲，请重新登记发票'),
  );

  app.get(`${BASE}/:id/file`, { config: { permission: 'invoice' }, schema: { tags, summary: '发票文件 (PDF 或图片)', params: IdParams } }, async (request, reply) => {
    const { file, stream } = await invoiceFile(app.db, app.storage, requireActor(request), request.params.id);
    // a download, sandboxed (lib/file-reply.ts): an uploaded file never runs in the platform's origin
    return fileHeaders(reply, { contentType: file.contentType, fileName: file.originalName, size: file.size }).send(stream);
  });
}
