import {
  DISPATCH_STATUS,
  DeliveryDailySchema,
  DeliveryOrderPageSchema,
  DeliveryProgressQuerySchema,
  DispatchCancelSchema,
  DispatchCreateSchema,
  DispatchDriverListSchema,
  DispatchNoteSchema,
  DispatchPageSchema,
  DispatchViewSchema,
  DisputeAnswerSchema,
  DisputeRulingSchema,
  DisputeSchema,
  FinishDeliverySchema,
  OrderDeliverySchema,
  QualityReportAnswerSchema,
  QualityReportCreateSchema,
  QualityReportViewSchema,
  SIGNED_HOW,
  SignForQuerySchema,
  SignForSchema,
  TransportQuerySchema,
  WeighTicketSchema,
  envelopeSchema,
  formatTons,
  safeString,
  type DispatchView,
} from '@coalx/shared';
import { z } from 'zod';
import { dispatchDrivers } from '../flows/dispatch-drivers';
import { ok } from '../lib/envelope';
import { fileHeaders } from '../lib/file-reply';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { requireActor } from '../plugins/authenticate';
import { answerDispute } from '../flows/answer-dispute';
import { answerQualityReport } from '../flows/answer-quality-report';
import { cancelTruck } from '../flows/cancel-truck';
import { dispatchTruck } from '../flows/dispatch-truck';
import { disputeTruck } from '../flows/dispute-truck';
import { finishDelivery } from '../flows/finish-delivery';
import { recordArrival } from '../flows/record-arrival';
import { recordLoading } from '../flows/record-loading';
import { ruleDispute } from '../flows/rule-dispute';
import { signFor } from '../flows/sign-for-truck';
import { submitQualityReport } from '../flows/submit-quality-report';
import {
  deliveryDaily,
  deliveryProgress,
  dispatchNote,
  listTrucks,
  orderDelivery,
  orderFile,
  signForQueue,
  truckAtGate,
  trucksForExport,
} from '../modules/delivery/delivery-query.service';

const BASE = '/api/delivery';
const idField = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);
const TruckParams = z.object({ id: idField('派车单编号无效') });
const ReportParams = z.object({ id: idField('化验单编号无效') });
const OrderParams = z.object({ orderId: idField('订单编号无效') });
const FileParams = OrderParams.extend({ fileId: idField('文件编号无效') });
const GateParams = z.object({ token: safeString().regex(/^[A-Za-z0-9_-]{16,64}$/, '派车单二维码无效') });

/** Seen by the order's parties, the trading centre, and the pages that show trucks. */
const TRUCK_READERS = ['order-info', 'logistics-info', 'logistics-transport', 'logistics-dispatchNote', 'settlement-signFor'];

async function truckWorkbook(rows: DispatchView[]): Promise<Buffer> {
  const columns = [
    { header: '派车单号', key: 'dispatchNo', width: 18 },
    { header: '订单编号', key: 'orderNo', width: 18 },
    { header: '卖方', key: 'sellerName', width: 28 },
    { header: '买方', key: 'buyerName', width: 28 },
    { header: '司机', key: 'driverName', width: 10 },
    { header: '身份证号', key: 'driverIdCardNo', width: 22 },
    { header: '车牌号', key: 'plateNo', width: 12 },
    { header: '计划装车日期', key: 'planDate', width: 14 },
    { header: '计划(吨)', key: 'planned', width: 12 },
    { header: '装车磅单号', key: 'loadingNo', width: 18 },
    { header: '装车净重(吨)', key: 'loaded', width: 14 },
    { header: '装车时间', key: 'loadedAt', width: 20 },
    { header: '到货磅单号', key: 'arrivalNo', width: 18 },
    { header: '到货净重(吨)', key: 'arrived', width: 14 },
    { header: '到货时间', key: 'arrivedAt', width: 20 },
    { header: '途损(吨)', key: 'loss', width: 12 },
    { header: '超合理途损', key: 'lossExceeded', width: 12 },
    { header: '签收量(吨)', key: 'signed', width: 12 },
    { header: '签收方式', key: 'signedHow', width: 14 },
    { header: '状态', key: 'status', width: 10 },
    { header: '派车时间', key: 'createdAt', width: 20 },
  ];
  return excelWorkbook(
    '运输记录',
    columns,
    rows.map((r) => {
      const loading = r.tickets.find((t) => t.stage === 'loading');
      const arrival = r.tickets.find((t) => t.stage === 'arrival');
      const tons = (kg: number | null) => (kg === null ? '' : formatTons(kg, false));
      return {
        ...r,
        planned: tons(r.plannedKg),
        loadingNo: loading?.ticketNo ?? '',
        loaded: tons(r.loadedNetKg),
        loadedAt: r.loadedAt ?? '',
        arrivalNo: arrival?.ticketNo ?? '',
        arrived: tons(r.arrivedNetKg),
        arrivedAt: r.arrivedAt ?? '',
        loss: tons(r.lossKg),
        lossExceeded: r.lossExceeded ? '是' : '否',
        signed: tons(r.signedKg),
        signedHow: r.signedHow ? (SIGNED_HOW as Record<string, string>)[r.signedHow] ?? '' : '',
        status: (DISPATCH_STATUS as Record<string, string>)[r.status] ?? r.status,
      };
    }),
  );
}

/** Delivery by truck: dispatch, weigh tickets, sign-for and disputes, lab reports, lists. */
export default async function deliveryRoutes(app: ZodApp) {
  const tags = ['delivery'];
  const truckAnswer = { 200: envelopeSchema(DispatchViewSchema) };

  app.post(
    `${BASE}/dispatch`,
    { config: { permission: deliveryPolicy.grantOf('dispatch'), audit: '派车' }, schema: { tags, summary: '派车 (运输方: 选择已审核司机，计划装车量)', body: DispatchCreateSchema, response: truckAnswer } },
    async (request) => ok(await dispatchTruck(app.db, app.clock, requireActor(request), request.body), '派车成功'),
  );

  app.get(
    `${BASE}/order/:orderId/drivers`,
    { config: { permission: 'logistics-transport' }, schema: { tags, summary: '派车可选的已审核司机', params: OrderParams, response: { 200: envelopeSchema(DispatchDriverListSchema) } } },
    async (request) => ok(await dispatchDrivers(app.db, requireActor(request), request.params.orderId)),
  );

  app.post(
    `${BASE}/dispatch/:id/cancel`,
    { config: { permission: deliveryPolicy.grantOf('cancelTruck'), audit: '取消派车' }, schema: { tags, summary: '取消派车 (派车方, 仅已派车未装车)', params: TruckParams, body: DispatchCancelSchema, response: truckAnswer } },
    async (request) => ok(await cancelTruck(app.db, app.clock, requireActor(request), request.params.id, request.body), '已取消派车'),
  );

  app.get(
    `${BASE}/dispatch/:id`,
    { config: { permission: TRUCK_READERS }, schema: { tags, summary: '派车单 (打印)', params: TruckParams, response: { 200: envelopeSchema(DispatchNoteSchema) } } },
    async (request) => ok(await dispatchNote(app.db, requireActor(request), request.params.id)),
  );

  app.get(
    `${BASE}/gate/:token`,
    { config: { permission: 'logistics-gate' }, schema: { tags, summary: '装车过磅: 扫派车单二维码打开装车记录 (卖方)', params: GateParams, response: { 200: envelopeSchema(DispatchNoteSchema) } } },
    async (request) => ok(await truckAtGate(app.db, requireActor(request), request.params.token)),
  );

  app.post(
    `${BASE}/dispatch/:id/loading`,
    { config: { permission: deliveryPolicy.grantOf('load'), audit: '录入装车磅单' }, schema: { tags, summary: '装车磅单 (卖方)', params: TruckParams, body: WeighTicketSchema, response: truckAnswer } },
    async (request) => ok(await recordLoading(app.db, app.clock, requireActor(request), request.params.id, request.body), '装车磅单已录入'),
  );

  app.post(
    `${BASE}/dispatch/:id/arrival`,
    { config: { permission: deliveryPolicy.grantOf('arrive'), audit: '录入到货磅单' }, schema: { tags, summary: '到货磅单 (买方)', params: TruckParams, body: WeighTicketSchema, response: truckAnswer } },
    async (request) => ok(await recordArrival(app.db, app.clock, requireActor(request), request.params.id, request.body), '到货磅单已录入'),
  );

  app.post(
    `${BASE}/dispatch/:id/sign`,
    { config: { permission: deliveryPolicy.grantOf('signFor'), audit: '收货签收' }, schema: { tags, summary: '签收 (买方)', params: TruckParams, body: SignForSchema, response: truckAnswer } },
    async (request) => ok(await signFor(app.db, app.clock, requireActor(request), request.params.id, request.body), '已签收'),
  );

  app.post(
    `${BASE}/dispatch/:id/dispute`,
    { config: { permission: deliveryPolicy.grantOf('signFor'), audit: '提出签收异议' }, schema: { tags, summary: '提出签收异议 (买方: 原因与照片)', params: TruckParams, body: DisputeSchema, response: truckAnswer } },
    async (request) => ok(await disputeTruck(app.db, app.clock, requireActor(request), request.params.id, request.body), '异议已提交'),
  );

  app.post(
    `${BASE}/dispatch/:id/answer`,
    { config: { permission: deliveryPolicy.grantOf('answerDispute'), audit: '答复签收异议' }, schema: { tags, summary: '答复签收异议 (卖方)', params: TruckParams, body: DisputeAnswerSchema, response: truckAnswer } },
    async (request) => ok(await answerDispute(app.db, app.clock, requireActor(request), request.params.id, request.body), '答复已提交'),
  );

  app.post(
    `${BASE}/dispatch/:id/rule`,
    { config: { permission: deliveryPolicy.grantOf('ruleDispute'), audit: '裁定签收异议' }, schema: { tags, summary: '裁定签收异议 (交易中心: 按裁定量签收或拒收)', params: TruckParams, body: DisputeRulingSchema, response: truckAnswer } },
    async (request) => ok(await ruleDispute(app.db, app.clock, requireActor(request), request.params.id, request.body), '已裁定'),
  );

  app.post(
    `${BASE}/order/:orderId/finish`,
    { config: { permission: deliveryPolicy.grantOf('finish'), audit: '确认交货完毕' }, schema: { tags, summary: '交货完毕 (卖方: 订单进入待结算)', params: OrderParams, body: FinishDeliverySchema, response: { 200: envelopeSchema(OrderDeliverySchema) } } },
    async (request) => ok(await finishDelivery(app.db, app.clock, requireActor(request), request.params.orderId, request.body), '已确认交货完毕'),
  );

  app.post(
    `${BASE}/order/:orderId/quality-report`,
    { config: { permission: deliveryPolicy.grantOf('submitReport'), audit: '上传化验单' }, schema: { tags, summary: '上传化验单 (合同约定的化验方)', params: OrderParams, body: QualityReportCreateSchema, response: { 200: envelopeSchema(QualityReportViewSchema) } } },
    async (request) => ok(await submitQualityReport(app.db, app.clock, requireActor(request), request.params.orderId, request.body), '化验单已上传'),
  );

  app.post(
    `${BASE}/quality-report/:id/answer`,
    { config: { permission: deliveryPolicy.grantOf('answerReport'), audit: '答复化验单' }, schema: { tags, summary: '确认化验单或提出异议 (另一方)', params: ReportParams, body: QualityReportAnswerSchema, response: { 200: envelopeSchema(QualityReportViewSchema) } } },
    async (request) => {
      const view = await answerQualityReport(app.db, app.clock, requireActor(request), request.params.id, request.body);
      return ok(view, request.body.accept ? '已确认化验单' : '异议已提交');
    },
  );

  app.get(
    `${BASE}/order/:orderId`,
    { config: { permission: TRUCK_READERS }, schema: { tags, summary: '订单的物流: 进度、车辆与磅单、化验单', params: OrderParams, response: { 200: envelopeSchema(OrderDeliverySchema) } } },
    async (request) => ok(await orderDelivery(app.db, requireActor(request), request.params.orderId)),
  );

  app.get(
    `${BASE}/order/:orderId/daily`,
    { config: { permission: TRUCK_READERS }, schema: { tags, summary: '订单每日装车、到货、签收吨数 (图表)', params: OrderParams, response: { 200: envelopeSchema(DeliveryDailySchema) } } },
    async (request) => ok(await deliveryDaily(app.db, requireActor(request), request.params.orderId)),
  );

  app.get(`${BASE}/order/:orderId/files/:fileId`, { config: { permission: TRUCK_READERS }, schema: { tags, summary: '磅单照片、异议照片、化验单文件', params: FileParams } }, async (request, reply) => {
    const { file, stream } = await orderFile(app.db, app.storage, requireActor(request), request.params.orderId, request.params.fileId);
    // a download, sandboxed (lib/file-reply.ts): an uploaded file never runs in the platform's origin
    return fileHeaders(reply, { contentType: file.contentType, fileName: file.originalName, size: file.size }).send(stream);
  });

  app.get(
    `${BASE}/progress`,
    { config: { permission: 'logistics-info' }, schema: { tags, summary: '物流信息: 订单发运进度', querystring: DeliveryProgressQuerySchema, response: { 200: envelopeSchema(DeliveryOrderPageSchema) } } },
    async (request) => ok(await deliveryProgress(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/transport`,
    { config: { permission: 'logistics-transport' }, schema: { tags, summary: '运输信息: 本企业订单的全部车辆与磅单 (运营: 全部)', querystring: TransportQuerySchema, response: { 200: envelopeSchema(DispatchPageSchema) } } },
    async (request) => ok(await listTrucks(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/transport/export`,
    { config: { permission: 'logistics-transport.export' }, schema: { tags, summary: '导出运输记录 (Excel)', querystring: TransportQuerySchema.omit({ pageNo: true, pageSize: true }) } },
    async (request, reply) => sendExcel(reply, await truckWorkbook(await trucksForExport(app.db, requireActor(request), request.query)), '运输记录.xlsx'),
  );

  app.get(
    `${BASE}/sign-for`,
    { config: { permission: 'settlement-signFor' }, schema: { tags, summary: '收货签收: 待签收与有异议的车辆', querystring: SignForQuerySchema, response: { 200: envelopeSchema(DispatchPageSchema) } } },
    async (request) => ok(await signForQueue(app.db, requireActor(request), request.query)),
  );
}
