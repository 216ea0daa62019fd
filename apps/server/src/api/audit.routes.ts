import { AuditLogFilterSchema, AuditLogQuerySchema, AuditLogRecordSchema, envelopeSchema, pageSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { auditWorkbook } from '../modules/audit/audit-export';
import { auditPolicy } from '../modules/audit/audit.policy';
import { auditLogsForExport, auditObjectTypes, listAuditLogs } from '../modules/audit/audit.service';

const AuditChoicesSchema = z.object({ actions: z.array(safeString()), objectTypes: z.array(safeString()) });

export default async function auditRoutes(app: ZodApp) {
  const tags = ['system'];

  app.get(
    '/sys/auditLog/list',
    { config: { permission: 'system-auditLog' }, schema: { tags, summary: '操作日志 (运营、管理员)', querystring: AuditLogQuerySchema, response: { 200: envelopeSchema(pageSchema(AuditLogRecordSchema)) } } },
    async (request) => {
      auditPolicy.can(requireActor(request), 'read');
      return ok(await listAuditLogs(app.db, request.query));
    },
  );

  app.get(
    '/sys/auditLog/choices',
    { config: { permission: 'system-auditLog' }, schema: { tags, summary: '操作日志的操作与对象类型 (搜索选项)', response: { 200: envelopeSchema(AuditChoicesSchema) } } },
    async (request) => {
      auditPolicy.can(requireActor(request), 'read');
      const actions = [...app.auditTrail.labels].sort((a, b) => a.localeCompare(b, 'zh-CN'));
      return ok({ actions, objectTypes: auditObjectTypes() });
    },
  );

  app.get(
    '/sys/auditLog/export',
    { config: { permission: 'system-auditLog.export' }, schema: { tags, summary: '导出操作日志 (Excel, 最新的 10000 条)', querystring: AuditLogFilterSchema } },
    async (request, reply) => {
      auditPolicy.can(requireActor(request), 'export');
      const buffer = await auditWorkbook(await auditLogsForExport(app.db, request.query));
      return sendExcel(reply, buffer, '操作日志.xlsx');
    },
  );
}
