import { HealthSchema, ReadySchema, SwitchSchema, SwitchUpdateSchema, UserPermissionSchema, envelopeSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { systemPolicy } from '../modules/system/system.policy';
import { getUserPermission } from '../modules/auth/permissions.service';
import { getAllDictItems, listSwitches, updateSwitch } from '../modules/system/system.service';
import { databaseAnswers, notReadyReasons, readiness } from '../modules/system/readiness';

const DictMapSchema = z.record(safeString(), z.array(z.object({ value: safeString(), text: safeString(), disabled: z.boolean().optional() })));

export default async function systemRoutes(app: ZodApp) {
  app.get(
    '/health',
    { config: { permission: 'public' }, schema: { tags: ['system'], summary: '存活检查 (进程在运行即 200，并报告数据库是否可用)', response: { 200: envelopeSchema(HealthSchema) } } },
    async () => {
      const database = (await databaseAnswers(app.database)) ? ('ok' as const) : ('unavailable' as const);
      return ok({ status: 'ok' as const, database, time: app.clock.now().toISOString() });
    },
  );

  app.get(
    '/ready',
    {
      config: { permission: 'public' },
      schema: { tags: ['system'], summary: '就绪检查 (数据库可用、迁移完成、通知连接正常且未在停止时 200，否则 503)', response: { 200: envelopeSchema(ReadySchema) } },
    },
    async () => {
      const { ready, checks } = await readiness(app.database, app.lifecycle);
      if (!ready) throw appError('unavailable', `服务未就绪：${notReadyReasons(checks).join('、')}`);
      return ok({ status: 'ready' as const, checks });
    },
  );

  app.get(
    '/sys/dict/getAllDictItems',
    { config: { permission: 'public' }, schema: { tags: ['system'], summary: '全部数据字典', response: { 200: envelopeSchema(DictMapSchema) } } },
    async () => ok(await getAllDictItems(app.db)),
  );

  app.get(
    '/sys/switch/list',
    { config: { permission: 'public' }, schema: { tags: ['system'], summary: '系统开关 (PayPassword, UkeySwitch)', response: { 200: envelopeSchema(z.array(SwitchSchema)) } } },
    async () => ok(await listSwitches(app.db)),
  );

  app.get(
    '/sys/permission/getUserPermissionByToken',
    { config: { permission: 'self' }, schema: { tags: ['system'], summary: '当前用户的工作台菜单', response: { 200: envelopeSchema(UserPermissionSchema) } } },
    async (request) => ok(await getUserPermission(app.db, requireActor(request))),
  );

  app.put(
    '/sys/switch/update',
    { config: { audit: '修改系统开关', permission: ['system-switch.edit', 'operation-fundsAudit.edit'] }, schema: { tags: ['system'], summary: '打开或关闭系统开关 (运营、管理员)', body: SwitchUpdateSchema, response: { 200: envelopeSchema(z.array(SwitchSchema)) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'updateSwitch');
      await updateSwitch(app.db, request.body.code, request.body.content);
      return ok(await listSwitches(app.db), '开关已更新');
    },
  );
}
