import {
  CommonParamQuerySchema,
  CommonParamResultSchema,
  HolidayBatchSchema,
  HolidayDayKeySchema,
  HolidayInputSchema,
  HolidaySchema,
  HolidayYearQuerySchema,
  SYSTEM_PARAMETERS,
  SystemParameterSchema,
  SystemParameterUpdateSchema,
  envelopeSchema,
  formatParameterValue,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { deleteHoliday, listHolidays, listParameters, publicParameters, saveHolidays, updateParameter } from '../modules/system/parameters.service';
import { systemPolicy } from '../modules/system/system.policy';

const tags = ['system'];

/** 系统参数 (spec §7 "common param") and the holiday calendar. */
export default async function parametersRoutes(app: ZodApp) {
  app.get(
    '/sys/common/param',
    {
      config: { permission: 'public' },
      schema: { tags, summary: '公开参数 (价格合理区间、手续费等; codes 逗号分隔)', querystring: CommonParamQuerySchema, response: { 200: envelopeSchema(CommonParamResultSchema) } },
    },
    async (request) => ok(await publicParameters(app.db, request.query.codes.split(',').map((c) => c.trim()))),
  );

  app.get(
    '/sys/param/list',
    { config: { permission: 'system-param.query' }, schema: { tags, summary: '系统参数列表 (管理员)', response: { 200: envelopeSchema(z.array(SystemParameterSchema)) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      return ok(await listParameters(app.db));
    },
  );

  app.put(
    '/sys/param/update',
    { config: { audit: '修改系统参数', permission: 'system-param.edit' }, schema: { tags, summary: '修改一个系统参数 (管理员; 按其范围校验)', body: SystemParameterUpdateSchema, response: { 200: envelopeSchema(z.array(SystemParameterSchema)) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      const { code, value } = request.body;
      await updateParameter(app.db, app.clock, code, value);
      return ok(await listParameters(app.db), `${SYSTEM_PARAMETERS[code].label}已改为 ${formatParameterValue(code, value)}，此后新产生的业务按新值执行`);
    },
  );

  app.get(
    '/sys/holiday/list',
    { config: { permission: 'system-param.query' }, schema: { tags, summary: '某年的节假日与调休上班日 (管理员)', querystring: HolidayYearQuerySchema, response: { 200: envelopeSchema(z.array(HolidaySchema)) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      return ok(await listHolidays(app.db, request.query.year));
    },
  );

  app.post(
    '/sys/holiday/add',
    { config: { audit: '设置节假日', permission: 'system-param.edit' }, schema: { tags, summary: '添加或修改一天 (管理员)', body: HolidayInputSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      await saveHolidays(app.db, [request.body]);
      return ok(null, `已保存 ${request.body.day}（${request.body.workday ? '调休上班' : '放假'}）`);
    },
  );

  app.post(
    '/sys/holiday/batchAdd',
    { config: { audit: '批量添加节假日', permission: 'system-param.edit' }, schema: { tags, summary: '批量添加节假日 (管理员)', body: HolidayBatchSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      await saveHolidays(app.db, request.body.items);
      return ok(null, `已保存 ${request.body.items.length} 天`);
    },
  );

  app.post(
    '/sys/holiday/delete',
    { config: { audit: '删除节假日', permission: 'system-param.edit' }, schema: { tags, summary: '删除一天 (管理员)', body: HolidayDayKeySchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageParameters');
      await deleteHoliday(app.db, request.body.day);
      return ok(null, `已删除 ${request.body.day}`);
    },
  );
}
