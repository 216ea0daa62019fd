import { envelopeSchema, FundsFlowDaySchema, FundsFlowQuerySchema, FundsOverviewSchema, PageQuerySchema, pageSchema, ReconciliationSchema } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { fundsPolicy } from '../modules/funds/funds.policy';
import { fundsFlows, fundsOverview, reconcileFunds, reconciliationHistory } from '../modules/funds/reconciliation.service';

/** 资金总览 and the daily funds reconciliation (资金对账): the trading centre's. */
export default async function operationFundsRoutes(app: ZodApp) {
  const tags = ['funds'];

  app.get(
    '/api/operation/funds/overview',
    { config: { permission: 'operation-fundsOverview.query' }, schema: { tags, summary: '资金总览：客户资金、保证金、货款托管、平台账户', response: { 200: envelopeSchema(FundsOverviewSchema) } } },
    async (request) => {
      fundsPolicy.can(requireActor(request), 'overview');
      return ok(await fundsOverview(app.db, app.clock.now()));
    },
  );

  app.get(
    '/api/operation/funds/flows',
    { config: { permission: 'operation-fundsOverview.query' }, schema: { tags, summary: '每日入金、出金 (按北京时间)', querystring: FundsFlowQuerySchema, response: { 200: envelopeSchema(z.array(FundsFlowDaySchema)) } } },
    async (request) => {
      fundsPolicy.can(requireActor(request), 'overview');
      return ok(await fundsFlows(app.db, request.query));
    },
  );

  app.get(
    '/api/operation/funds/reconciliations',
    { config: { permission: 'operation-fundsOverview.query' }, schema: { tags, summary: '资金对账记录 (每日一条)', querystring: PageQuerySchema, response: { 200: envelopeSchema(pageSchema(ReconciliationSchema)) } } },
    async (request) => {
      fundsPolicy.can(requireActor(request), 'overview');
      return ok(await reconciliationHistory(app.db, request.query));
    },
  );

  app.post(
    '/api/operation/funds/reconcile',
    { config: { permission: 'operation-fundsOverview.edit', audit: '立即对账' }, schema: { tags, summary: '立即对账 (当日已有记录则更新)', response: { 200: envelopeSchema(ReconciliationSchema) } } },
    async (request) => {
      fundsPolicy.can(requireActor(request), 'overview');
      const result = await reconcileFunds(app.db, app.clock.now());
      request.auditObject = { id: result.id };
      return ok(result, result.balanced ? '对账完成：无差异' : '对账完成：发现差异');
    },
  );
}
