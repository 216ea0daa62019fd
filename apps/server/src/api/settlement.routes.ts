import {
  SettleableOrderListSchema,
  StatementConfirmSchema,
  StatementDisputeSchema,
  StatementFiguresSchema,
  StatementIssueSchema,
  StatementPreviewQuerySchema,
  StatementPageSchema,
  StatementQuerySchema,
  StatementRuleSchema,
  StatementViewSchema,
  envelopeSchema,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { fileHeaders } from '../lib/file-reply';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { disputeStatement } from '../flows/dispute-statement';
import { issueStatement } from '../flows/issue-statement';
import { confirmStatement, ruleStatement } from '../flows/settle-statement';
import { settlementPolicy } from '../modules/settlement/settlement.policy';
import { listStatements, previewStatement, settleableOrders, statementDetail, statementPdf } from '../modules/settlement/settlement.service';

const BASE = '/api/settlement';
const IdParams = z.object({ id: z.coerce.number({ error: '结算单编号无效' }).int().positive('结算单编号无效').max(Number.MAX_SAFE_INTEGER) });

/** 余额结算: settlement statements (结算单), their preview, PDF, confirmation with the money, disputes and rulings. */
export default async function settlementRoutes(app: ZodApp) {
  const tags = ['settlement'];
  const view = { 200: envelopeSchema(StatementViewSchema) };

  app.get(
    `${BASE}/statements`,
    { config: { permission: 'settlement-balance' }, schema: { tags, summary: '结算单列表 (企业: 本企业为买方或卖方的; 运营: 全部)', querystring: StatementQuerySchema, response: { 200: envelopeSchema(StatementPageSchema) } } },
    async (request) => ok(await listStatements(app.db, requireActor(request), request.query)),
  );
  app.get(
    `${BASE}/orders`,
    { config: { permission: 'settlement-balance' }, schema: { tags, summary: '卖方待开具结算单的订单 (待结算)', response: { 200: envelopeSchema(SettleableOrderListSchema) } } },
    async (request) => ok(await settleableOrders(app.db, requireActor(request))),
  );
  app.get(
    `${BASE}/preview`,
    { config: { permission: 'settlement-balance' }, schema: { tags, summary: '结算单预览 (不保存)', querystring: StatementPreviewQuerySchema, response: { 200: envelopeSchema(StatementFiguresSchema) } } },
    async (request) => ok(await previewStatement(app.db, requireActor(request), request.query.orderId)),
  );
  app.post(
    `${BASE}/statements`,
    { config: { permission: settlementPolicy.grantOf('issue'), audit: '开具结算单' }, schema: { tags, summary: '卖方开具结算单', body: StatementIssueSchema, response: view } },
    async (request) => ok(await issueStatement(app.db, app.clock, requireActor(request), request.body.orderId), '结算单已开具，等待买方确认'),
  );
  app.get(
    `${BASE}/statements/:id`,
    { config: { permission: 'settlement-info' }, schema: { tags, summary: '结算单详情', params: IdParams, response: view } },
    async (request) => ok(await statementDetail(app.db, requireActor(request), request.params.id)),
  );
  app.get(`${BASE}/statements/:id/pdf`, { config: { permission: 'settlement-info' }, schema: { tags, summary: '结算单 PDF', params: IdParams } }, async (request, reply) => {
    const { pdf, fileName } = await statementPdf(app.db, requireActor(request), request.params.id);
    return fileHeaders(reply, { contentType: 'application/pdf', fileName }).send(Buffer.from(pdf));
  });
  app.post(
    `${BASE}/statements/:id/confirm`,
    { config: { permission: settlementPolicy.grantOf('answer'), audit: '确认结算单' }, schema: { tags, summary: '买方确认结算单：托管货款支付卖方，余款退回或补付，订单已结算', params: IdParams, body: StatementConfirmSchema, response: view } },
    async (request) => ok(await confirmStatement(app.db, app.clock, app.ukeyVerifier, requireActor(request), request.params.id, request.body), '结算完成'),
  );
  app.post(
    `${BASE}/statements/:id/dispute`,
    { config: { permission: settlementPolicy.grantOf('answer'), audit: '结算单异议' }, schema: { tags, summary: '买方对结算单提出异议', params: IdParams, body: StatementDisputeSchema, response: view } },
    async (request) => ok(await disputeStatement(app.db, app.clock, requireActor(request), request.params.id, request.body), '异议已提交，等待交易中心裁定'),
  );
  app.post(
    `${BASE}/statements/:id/rule`,
    { config: { permission: settlementPolicy.grantOf('rule'), audit: '裁定结算异议' }, schema: { tags, summary: '运营裁定结算单异议 (维持并结算, 或退回卖方重开)', params: IdParams, body: StatementRuleSchema, response: view } },
    async (request) => ok(await ruleStatement(app.db, app.clock, requireActor(request), request.params.id, request.body), '裁定已保存'),
  );
}
