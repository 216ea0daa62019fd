import {
  ORDER_SIDES,
  ORDER_STATUS,
  OrderDetailSchema,
  OrderFilterSchema,
  OrderPageSchema,
  OrderPaySchema,
  OrderPaymentPageSchema,
  OrderPaymentQuerySchema,
  OrderQuerySchema,
  OrderTerminateSchema,
  envelopeSchema,
  formatFen,
  formatTons,
  type OrderStatus,
  type OrderSummary,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { payOrder } from '../flows/pay-order';
import { orderPolicy } from '../modules/order/order.policy';
import { terminateOrder } from '../flows/terminate-order';
import { listOrderPayments, listOrders, orderDetail, ordersForExport } from '../modules/order/order-query.service';

const BASE = '/api/order';
const IdParams = z.object({ id: z.coerce.number({ error: '订单编号无效' }).int().positive('订单编号无效').max(Number.MAX_SAFE_INTEGER) });

const tons = (kg: number) => formatTons(kg, false);

function orderWorkbook(rows: OrderSummary[]): Promise<Buffer> {
  const columns = [
    { header: '订单编号', key: 'orderNo', width: 20 },
    { header: '合同编号', key: 'contractNo', width: 20 },
    { header: '我方角色', key: 'mySide', width: 10 },
    { header: '卖方', key: 'sellerName', width: 30 },
    { header: '买方', key: 'buyerName', width: 30 },
    { header: '产品', key: 'productName', width: 18 },
    { header: '合同数量(吨)', key: 'quantity', width: 14 },
    { header: '单价(元/吨)', key: 'price', width: 14 },
    { header: '合同金额(元)', key: 'amount', width: 18 },
    { header: '应付预付款(元)', key: 'prepayment', width: 18 },
    { header: '托管金额(元)', key: 'escrow', width: 18 },
    { header: '付款时间', key: 'paidAt', width: 20 },
    { header: '付款截止', key: 'paymentDeadline', width: 20 },
    { header: '状态', key: 'status', width: 10 },
    { header: '已派车(吨)', key: 'plannedKg', width: 12 },
    { header: '已装车(吨)', key: 'loadedKg', width: 12 },
    { header: '已到货(吨)', key: 'arrivedKg', width: 12 },
    { header: '已签收(吨)', key: 'signedKg', width: 12 },
    { header: '生成时间', key: 'createdAt', width: 20 },
  ];
  return excelWorkbook(
    '订单列表',
    columns,
    rows.map((r) => ({
      ...r,
      mySide: r.mySide ? ORDER_SIDES[r.mySide] : '-',
      quantity: tons(r.quantity),
      price: formatFen(r.price),
      amount: formatFen(r.amount),
      prepayment: formatFen(r.prepayment),
      escrow: formatFen(r.escrow),
      paidAt: r.paidAt ?? '',
      status: (ORDER_STATUS[r.status as OrderStatus] ?? r.status) + (r.overdue ? '（逾期）' : ''),
      plannedKg: tons(r.progress.plannedKg),
      loadedKg: tons(r.progress.loadedKg),
      arrivedKg: tons(r.progress.arrivedKg),
      signedKg: tons(r.progress.signedKg),
    })),
  );
}

/** Orders: list, export, detail, goods payment into escrow (货款支付), the operator's termination. */
export default async function orderRoutes(app: ZodApp) {
  const tags = ['order'];

  app.get(
    `${BASE}/list`,
    { config: { permission: 'order' }, schema: { tags, summary: '订单列表 (企业: 本企业的订单; 运营: 全部)，附各状态数量', querystring: OrderQuerySchema, response: { 200: envelopeSchema(OrderPageSchema) } } },
    async (request) => ok(await listOrders(app.db, app.clock, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: 'order.export' }, schema: { tags, summary: '导出订单列表 (Excel)', querystring: OrderFilterSchema } },
    async (request, reply) => sendExcel(reply, await orderWorkbook(await ordersForExport(app.db, app.clock, requireActor(request), request.query)), '订单列表.xlsx'),
  );

  app.get(
    `${BASE}/payments`,
    {
      config: { permission: 'settlement-payment' },
      schema: { tags, summary: '货款支付：待付款订单或付款记录 (买方付款，卖方只读)', querystring: OrderPaymentQuerySchema, response: { 200: envelopeSchema(OrderPaymentPageSchema) } },
    },
    async (request) => ok(await listOrderPayments(app.db, app.clock, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/:id`,
    { config: { permission: 'order-info' }, schema: { tags, summary: '订单详情 (金额、交收进度、条款、订单记录)', params: IdParams, response: { 200: envelopeSchema(OrderDetailSchema) } } },
    async (request) => ok(await orderDetail(app.db, app.clock, requireActor(request), request.params.id)),
  );

  app.post(
    `${BASE}/:id/pay`,
    {
      config: { permission: orderPolicy.grantOf('pay'), audit: '支付货款' },
      schema: { tags, summary: '买方支付货款：预付款从可用资金冻结托管，订单进入待发货', params: IdParams, body: OrderPaySchema, response: { 200: envelopeSchema(OrderDetailSchema) } },
    },
    async (request) => {
      const { detail, replayed } = await payOrder(app.db, app.clock, app.ukeyVerifier, requireActor(request), request.params.id, request.body);
      return ok(detail, replayed ? '订单已付款，无需重复支付' : '付款成功，预付款已冻结托管');
    },
  );

  app.post(
    `${BASE}/:id/terminate`,
    {
      config: { permission: orderPolicy.grantOf('terminate'), audit: '终止订单' },
      schema: { tags, summary: '运营终止订单 (结算前；托管货款解冻退回买方)', params: IdParams, body: OrderTerminateSchema, response: { 200: envelopeSchema(OrderDetailSchema) } },
    },
    async (request) => ok(await terminateOrder(app.db, app.clock, requireActor(request), request.params.id, request.body.reason), '订单已终止'),
  );
}
