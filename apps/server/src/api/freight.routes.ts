import {
  FREIGHT_STATUS,
  FreightCarriersSchema,
  FreightConfirmSchema,
  FreightDetailSchema,
  FreightDraftSchema,
  FreightPageSchema,
  FreightPaySchema,
  FreightPreviewSchema,
  FreightQuerySchema,
  FreightSummaryAnswerSchema,
  FreightSummaryQuerySchema,
  envelopeSchema,
  formatFen,
  formatTons,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { freightPolicy } from '../modules/freight/freight.policy';
import { requireActor } from '../plugins/authenticate';
import {
  cancelFreight,
  confirmFreight,
  draftFreight,
  freightCarriers,
  freightDetail,
  freightForExport,
  freightSummary,
  listFreight,
  payFreight,
  previewFreight,
} from '../modules/freight/freight.service';

const BASE = '/api/freight';
const IdParams = z.object({ id: z.coerce.number({ error: '运费结算单编号无效' }).int().positive('运费结算单编号无效').max(Number.MAX_SAFE_INTEGER, '运费结算单编号无效') });
const Answer = { 200: envelopeSchema(FreightDetailSchema) };
const STATEMENTS = 'logistics-freight';
// 物流结算 under 结算管理 shows the same statements (those waiting for payment and paid)
const VIEW = [STATEMENTS, 'settlement-logistics'];
const SUMMARY = 'logistics-freightSummary';

/** Freight statements (运费结算), their summary (运费汇总) and 物流结算's view of them. */
export default async function freightRoutes(app: ZodApp) {
  const tags = ['freight'];

  app.get(
    `${BASE}/list`,
    { config: { permission: VIEW }, schema: { tags, summary: '运费结算单列表 (企业: 本企业的; 运营: 全部)', querystring: FreightQuerySchema, response: { 200: envelopeSchema(FreightPageSchema) } } },
    async (request) => ok(await listFreight(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: VIEW.map((id) => `${id}.export`) }, schema: { tags, summary: '导出运费结算单 (Excel)', querystring: FreightQuerySchema.omit({ pageNo: true, pageSize: true }) } },
    async (request, reply) => {
      const rows = await freightForExport(app.db, requireActor(request), request.query);
      const workbook = await excelWorkbook(
        '运费结算单',
        [
          { header: '结算单号', key: 'statementNo', width: 20 },
          { header: '承运方', key: 'carrierName', width: 24 },
          { header: '结算期间', key: 'period', width: 24 },
          { header: '订单', key: 'orders', width: 36 },
          { header: '车数', key: 'trucks', width: 8 },
          { header: '签收量(吨)', key: 'tons', width: 14 },
          { header: '运费(元)', key: 'freight', width: 16 },
          { header: '途损扣款(元)', key: 'loss', width: 16 },
          { header: '不含税金额(元)', key: 'subtotal', width: 16 },
          { header: '税额 9%(元)', key: 'tax', width: 14 },
          { header: '价税合计(元)', key: 'total', width: 16 },
          { header: '状态', key: 'status', width: 10 },
          { header: '付款时间', key: 'paidAt', width: 20 },
        ],
        rows.map((r) => ({
          statementNo: r.statementNo,
          carrierName: r.carrierName,
          period: `${r.periodFrom} 至 ${r.periodTo}`,
          orders: r.orderNos.join('、'),
          trucks: r.trucks,
          tons: formatTons(r.signedKg, false),
          freight: formatFen(r.freightFen),
          loss: formatFen(r.lossDeductionFen),
          subtotal: formatFen(r.subtotalFen),
          tax: formatFen(r.taxFen),
          total: formatFen(r.totalFen),
          status: FREIGHT_STATUS[r.status],
          paidAt: r.paidAt ?? '',
        })),
      );
      return sendExcel(reply, workbook, '运费结算单.xlsx');
    },
  );

  app.get(
    `${BASE}/carriers`,
    { config: { permission: STATEMENTS }, schema: { tags, summary: '可选承运方: 本企业登记的司机和已用过的承运公司', response: { 200: envelopeSchema(FreightCarriersSchema) } } },
    async (request) => ok(await freightCarriers(app.db, requireActor(request))),
  );

  app.get(
    `${BASE}/summary`,
    { config: { permission: SUMMARY }, schema: { tags, summary: '运费汇总: 按承运方和月份', querystring: FreightSummaryQuerySchema, response: { 200: envelopeSchema(FreightSummaryAnswerSchema) } } },
    async (request) => ok(await freightSummary(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/summary/export`,
    { config: { permission: `${SUMMARY}.export` }, schema: { tags, summary: '导出运费汇总 (Excel)', querystring: FreightSummaryQuerySchema } },
    async (request, reply) => {
      const { rows, total } = await freightSummary(app.db, requireActor(request), request.query);
      const workbook = await excelWorkbook(
        '运费汇总',
        [
          { header: '承运方', key: 'carrierName', width: 24 },
          { header: '月份', key: 'month', width: 10 },
          { header: '车数', key: 'trucks', width: 8 },
          { header: '签收量(吨)', key: 'tons', width: 14 },
          { header: '不含税金额(元)', key: 'subtotal', width: 16 },
          { header: '税额 9%(元)', key: 'tax', width: 14 },
          { header: '价税合计(元)', key: 'total', width: 16 },
          { header: '已付款(元)', key: 'paid', width: 16 },
        ],
        [...rows, { ...total, carrierName: '合计', month: '' }].map((r) => ({
          carrierName: r.carrierName,
          month: r.month,
          trucks: r.trucks,
          tons: formatTons(r.signedKg, false),
          subtotal: formatFen(r.subtotalFen),
          tax: formatFen(r.taxFen),
          total: formatFen(r.totalFen),
          paid: formatFen(r.paidFen),
        })),
      );
      return sendExcel(reply, workbook, '运费汇总.xlsx');
    },
  );

  app.post(
    `${BASE}/preview`,
    { config: { permission: STATEMENTS }, schema: { tags, summary: '运费结算单预览: 可结算车辆及金额 (不保存)', body: FreightDraftSchema, response: { 200: envelopeSchema(FreightPreviewSchema) } } },
    async (request) => ok(await previewFreight(app.db, requireActor(request), request.body)),
  );

  app.get(
    `${BASE}/:id`,
    { config: { permission: VIEW }, schema: { tags, summary: '运费结算单详情 (每车明细)', params: IdParams, response: Answer } },
    async (request) => ok(await freightDetail(app.db, requireActor(request), request.params.id)),
  );

  app.post(
    BASE,
    { config: { permission: freightPolicy.grantOf('manage'), audit: '新建运费结算单' }, schema: { tags, summary: '新建运费结算单 (草稿)', body: FreightDraftSchema, response: Answer } },
    async (request) => ok(await draftFreight(app.db, app.clock, requireActor(request), request.body), '已保存草稿'),
  );

  app.post(
    `${BASE}/:id/confirm`,
    { config: { permission: freightPolicy.grantOf('confirm'), audit: '确认运费结算单' }, schema: { tags, summary: '登记承运方确认 (上传承运方签字件)', params: IdParams, body: FreightConfirmSchema, response: Answer } },
    async (request) => ok(await confirmFreight(app.db, app.clock, requireActor(request), request.params.id, request.body), '已确认'),
  );

  app.post(
    `${BASE}/:id/pay`,
    { config: { permission: freightPolicy.grantOf('pay'), audit: '运费付款' }, schema: { tags, summary: '登记运费付款 (上传付款凭证)', params: IdParams, body: FreightPaySchema, response: Answer } },
    async (request) => ok(await payFreight(app.db, app.clock, requireActor(request), request.params.id, request.body), '已登记付款'),
  );

  app.post(
    `${BASE}/:id/cancel`,
    { config: { permission: freightPolicy.grantOf('cancel'), audit: '作废运费结算单' }, schema: { tags, summary: '作废运费结算单草稿 (车辆可重新结算)', params: IdParams, response: Answer } },
    async (request) => ok(await cancelFreight(app.db, app.clock, requireActor(request), request.params.id), '已作废'),
  );
}
