import { DriverDetailSchema, DriverEditSchema, DriverPageSchema, DriverQuerySchema, DriverRegisterSchema, DriverRejectSchema, envelopeSchema } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { auditDriver, disableDriver, driverDetail, editDriver, listDrivers, registerDriver, resubmitDriver } from '../modules/driver/driver.service';

const BASE = '/api/driver';
const IdParams = z.object({ id: z.coerce.number({ error: '司机编号无效' }).int().positive('司机编号无效').max(Number.MAX_SAFE_INTEGER, '司机编号无效') });
const Answer = { 200: envelopeSchema(DriverDetailSchema) };
// the enterprise's drivers live under 运输信息; the trading centre audits them under 司机审核
const MANAGE = 'logistics-transport';
const AUDIT = 'logistics-driverAudit';

/** Drivers and vehicles: the enterprise registers, edits and stops them; the trading centre audits them. */
export default async function driverRoutes(app: ZodApp) {
  const tags = ['driver'];

  app.get(
    `${BASE}/list`,
    { config: { permission: [MANAGE, AUDIT] }, schema: { tags, summary: '司机列表 (企业: 本企业的司机; 运营: 审核队列，待审核在前)', querystring: DriverQuerySchema, response: { 200: envelopeSchema(DriverPageSchema) } } },
    async (request) => ok(await listDrivers(app.db, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/:id`,
    { config: { permission: [MANAGE, AUDIT] }, schema: { tags, summary: '司机详情 (含三张证件照片)', params: IdParams, response: Answer } },
    async (request) => ok(await driverDetail(app.db, requireActor(request), request.params.id)),
  );

  app.post(
    BASE,
    { config: { permission: `${MANAGE}.add`, audit: '登记司机' }, schema: { tags, summary: '登记司机车辆 (提交交易中心审核)', body: DriverRegisterSchema, response: Answer } },
    async (request) => ok(await registerDriver(app.db, app.clock, requireActor(request), request.body), '已登记，等待交易中心审核'),
  );

  app.put(
    `${BASE}/:id`,
    { config: { permission: `${MANAGE}.edit`, audit: '修改司机' }, schema: { tags, summary: '修改司机车辆 (已通过或已驳回的修改后重新审核)', params: IdParams, body: DriverEditSchema, response: Answer } },
    async (request) => {
      const { detail, resubmitted } = await editDriver(app.db, app.clock, requireActor(request), request.params.id, request.body);
      return ok(detail, resubmitted ? '已修改，等待交易中心重新审核' : '已保存');
    },
  );

  app.post(
    `${BASE}/:id/disable`,
    { config: { permission: `${MANAGE}.edit`, audit: '停用司机' }, schema: { tags, summary: '停用司机 (不再派车)', params: IdParams, response: Answer } },
    async (request) => ok(await disableDriver(app.db, app.clock, requireActor(request), request.params.id), '已停用'),
  );

  app.post(
    `${BASE}/:id/resubmit`,
    { config: { permission: `${MANAGE}.edit`, audit: '重新提交司机' }, schema: { tags, summary: '重新提交审核 (已停用或已驳回的司机)', params: IdParams, response: Answer } },
    async (request) => ok(await resubmitDriver(app.db, app.clock, requireActor(request), request.params.id), '已重新提交，等待交易中心审核'),
  );

  app.post(
    `${BASE}/:id/approve`,
    { config: { permission: `${AUDIT}.edit`, audit: '审核通过司机' }, schema: { tags, summary: '司机审核通过', params: IdParams, response: Answer } },
    async (request) => ok(await auditDriver(app.db, app.clock, requireActor(request), request.params.id, { approve: true }), '审核通过'),
  );

  app.post(
    `${BASE}/:id/reject`,
    { config: { permission: `${AUDIT}.edit`, audit: '驳回司机' }, schema: { tags, summary: '驳回司机 (须填写原因)', params: IdParams, body: DriverRejectSchema, response: Answer } },
    async (request) => ok(await auditDriver(app.db, app.clock, requireActor(request), request.params.id, { approve: false, reason: request.body.reason }), '已驳回'),
  );
}
