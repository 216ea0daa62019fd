import {
  DirectoryDetailSchema,
  DirectoryEntrySchema,
  EnterpriseDirectoryQuerySchema,
  EnterpriseIdParamsSchema,
  envelopeSchema,
  LiftTradingSchema,
  pageSchema,
  SuspendTradingSchema,
} from '@coalx/shared';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { enterprisePolicy } from '../modules/enterprise/enterprise.policy';
import { liftSuspension, suspendTrading } from '../modules/enterprise/trading-rights.service';
import { enterpriseDirectory, enterpriseDirectoryDetail } from '../queries/enterprise-directory';

/** 企业名录 and trading rights (暂停交易 / 恢复交易): the trading centre's. */
export default async function operationEnterprisesRoutes(app: ZodApp) {
  const tags = ['enterprise'];

  app.get(
    '/api/operation/enterprises/list',
    {
      config: { permission: 'operation-enterprises.query' },
      schema: { tags, summary: '企业名录 (交易中心运营)', querystring: EnterpriseDirectoryQuerySchema, response: { 200: envelopeSchema(pageSchema(DirectoryEntrySchema)) } },
    },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'directory');
      return ok(await enterpriseDirectory(app.db, app.clock.now(), request.query));
    },
  );

  app.get(
    '/api/operation/enterprises/:id',
    {
      config: { permission: 'operation-enterprises.query' },
      schema: { tags, summary: '企业名录详情：成员、审核记录、暂停交易记录', params: EnterpriseIdParamsSchema, response: { 200: envelopeSchema(DirectoryDetailSchema) } },
    },
    async (request) => {
      enterprisePolicy.can(requireActor(request), 'directory');
      return ok(await enterpriseDirectoryDetail(app.db, app.clock.now(), request.params.id));
    },
  );

  app.post(
    '/api/operation/enterprises/suspend',
    {
      config: { permission: 'operation-enterprises.edit', audit: '暂停企业交易' },
      schema: { tags, summary: '暂停企业交易 (须填写原因；可设截止时间，不设则至恢复交易)', body: SuspendTradingSchema, response: { 200: envelopeSchema(DirectoryDetailSchema) } },
    },
    async (request) => {
      const actor = requireActor(request);
      enterprisePolicy.can(actor, 'suspendTrading');
      const { id, reason, endsAt } = request.body;
      await suspendTrading(app.db, app.clock, actor.userId, { enterpriseId: id, reason, endsAt });
      return ok(await enterpriseDirectoryDetail(app.db, app.clock.now(), id), '已暂停该企业交易');
    },
  );

  app.post(
    '/api/operation/enterprises/lift',
    {
      config: { permission: 'operation-enterprises.edit', audit: '恢复企业交易' },
      schema: { tags, summary: '恢复企业交易 (提前解除暂停，须填写原因)', body: LiftTradingSchema, response: { 200: envelopeSchema(DirectoryDetailSchema) } },
    },
    async (request) => {
      const actor = requireActor(request);
      enterprisePolicy.can(actor, 'suspendTrading');
      await liftSuspension(app.db, app.clock, actor.userId, { enterpriseId: request.body.id, reason: request.body.reason });
      return ok(await enterpriseDirectoryDetail(app.db, app.clock.now(), request.body.id), '已恢复该企业交易');
    },
  );
}
