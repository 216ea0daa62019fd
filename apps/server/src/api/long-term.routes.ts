import { requireTradingAllowed } from '../modules/enterprise/trading-rights.service';
import {
  CallOffCreateSchema,
  CallOffDecideSchema,
  LongTermAcceptSchema,
  LongTermApplySchema,
  LongTermDetailSchema,
  LongTermOfferSchema,
  LongTermPageSchema,
  LongTermQuerySchema,
  LongTermTerminateSchema,
  MonthPriceSchema,
  PricePreviewQuerySchema,
  envelopeSchema,
  formatFen,
  formatTons,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import { excelWorkbook, sendExcel } from '../lib/excel';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { decideCallOff } from '../flows/decide-call-off';
import { terminateLongTerm } from '../flows/terminate-long-term';
import { createCallOff, withdrawCallOff } from '../modules/long-term/call-offs.service';
import { longTermPolicy } from '../modules/long-term/long-term.policy';
import { listLongTerm, longTermDetail, longTermForExport } from '../modules/long-term/long-term-query.service';
import { acceptApplication, applyToOffer, publishOffer, saveOffer, withdrawApplication, withdrawOffer } from '../modules/long-term/offers.service';
import { pricePreview } from '../modules/long-term/pricing.service';

const BASE = '/api/longTerm';
const idOf = (label: string) => z.coerce.number({ error: `${label}编号无效` }).int(`${label}编号无效`).positive(`${label}编号无效`).max(Number.MAX_SAFE_INTEGER, `${label}编号无效`);
const IdParams = z.object({ id: idOf('长协') });
const CallOffParams = z.object({ callOffId: idOf('月度调运') });
const Answer = { 200: envelopeSchema(LongTermDetailSchema) };
const MENU = 'longTermDeal';
const perTon = (fen: number | null) => (fen === null ? '' : formatFen(fen));

/** 长协交易: offers, applications, framework contracts' execution, monthly call-offs and fulfilment. */
export default async function longTermRoutes(app: ZodApp) {
  const tags = ['longTerm'];

  app.get(
    `${BASE}/list`,
    { config: { permission: MENU }, schema: { tags, summary: '长协列表 (mine: 本企业的; market: 可申请的长协; 运营: 全部)', querystring: LongTermQuerySchema, response: { 200: envelopeSchema(LongTermPageSchema) } } },
    async (request) => ok(await listLongTerm(app.db, app.clock, requireActor(request), request.query)),
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: `${MENU}.export` }, schema: { tags, summary: '导出长协 (Excel)', querystring: LongTermQuerySchema.omit({ pageNo: true, pageSize: true }) } },
    async (request, reply) => {
      const rows = await longTermForExport(app.db, app.clock, requireActor(request), request.query);
      const workbook = await excelWorkbook(
        '长协',
        [
          { header: '长协编号', key: 'no', width: 20 },
          { header: '状态', key: 'status', width: 10 },
          { header: '卖方', key: 'seller', width: 28 },
          { header: '买方', key: 'buyer', width: 28 },
          { header: '产品', key: 'product', width: 16 },
          { header: '合同期', key: 'period', width: 20 },
          { header: '计划总量(吨)', key: 'planned', width: 16 },
          { header: '定价方式', key: 'pricing', width: 40 },
          { header: '本月价格(元/吨)', key: 'price', width: 16 },
          { header: '累计签收(吨)', key: 'delivered', width: 16 },
          { header: '履约率(%)', key: 'rate', width: 10 },
          { header: '履约预警', key: 'flag', width: 10 },
          { header: '框架合同', key: 'contract', width: 22 },
        ],
        rows.map((r) => ({
          no: r.dealNo,
          status: r.statusText,
          seller: r.sellerName,
          buyer: r.buyerName ?? '',
          product: r.productName,
          period: `${r.periodStart} 至 ${r.periodEnd}`,
          planned: formatTons(r.plannedKg),
          pricing: r.pricingText,
          price: perTon(r.currentPriceFen),
          delivered: formatTons(r.fulfilment.deliveredKg),
          rate: r.fulfilment.rate ?? '',
          flag: r.fulfilment.flagged ? '低于预警线' : '',
          contract: r.contractNo ?? '',
        })),
      );
      return sendExcel(reply, workbook, '长协.xlsx');
    },
  );

  app.get(
    `${BASE}/detail`,
    { config: { permission: MENU }, schema: { tags, summary: '长协详情: 定价、逐月计划与价格、月度调运、履约', querystring: IdParams, response: Answer } },
    async (request) => ok(await longTermDetail(app.db, app.clock, requireActor(request), request.query.id)),
  );

  app.get(
    `${BASE}/pricePreview`,
    { config: { permission: MENU }, schema: { tags, summary: '按现有指数试算某月价格 (发布表单预览)', querystring: PricePreviewQuerySchema, response: { 200: envelopeSchema(MonthPriceSchema) } } },
    async (request) => ok(await pricePreview(app.db, request.query)),
  );

  app.post(
    `${BASE}/offer`,
    { config: { permission: longTermPolicy.grantOf('offer'), audit: '保存长协' }, schema: { tags, summary: '保存长协草稿或发布 (submit)', body: LongTermOfferSchema, response: Answer } },
    async (request) => {
      const actor = requireActor(request);
      // a suspended enterprise keeps its drafts but publishes no new long-term deal (暂停交易)
      if (request.body.submit) await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
      return ok(await saveOffer(app.db, app.clock, actor, request.body), request.body.submit ? '已发布' : '已保存草稿');
    },
  );

  app.post(
    `${BASE}/:id/publish`,
    { config: { permission: longTermPolicy.grantOf('actAsSeller'), audit: '发布长协' }, schema: { tags, summary: '发布长协草稿', params: IdParams, response: Answer } },
    async (request) => {
      const actor = requireActor(request);
      await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
      return ok(await publishOffer(app.db, app.clock, actor, request.params.id), '已发布');
    },
  );

  app.post(
    `${BASE}/:id/withdraw`,
    { config: { permission: longTermPolicy.grantOf('actAsSeller'), audit: '撤回长协' }, schema: { tags, summary: '撤回长协 (草稿或征集中)', params: IdParams, response: Answer } },
    async (request) => ok(await withdrawOffer(app.db, app.clock, requireActor(request), request.params.id), '已撤回'),
  );

  app.post(
    `${BASE}/:id/apply`,
    { config: { permission: longTermPolicy.grantOf('apply'), audit: '申请长协' }, schema: { tags, summary: '买方申请长协', params: IdParams, body: LongTermApplySchema, response: Answer } },
    async (request) => {
      const actor = requireActor(request);
      await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
      return ok(await applyToOffer(app.db, app.clock, actor, request.params.id, request.body.note), '已提交申请');
    },
  );

  app.post(
    `${BASE}/:id/application/withdraw`,
    { config: { permission: longTermPolicy.grantOf('apply'), audit: '撤回长协申请' }, schema: { tags, summary: '买方撤回待处理的申请', params: IdParams, response: Answer } },
    async (request) => ok(await withdrawApplication(app.db, app.clock, requireActor(request), request.params.id), '已撤回申请'),
  );

  app.post(
    `${BASE}/:id/accept`,
    { config: { permission: longTermPolicy.grantOf('actAsSeller'), audit: '接受长协申请' }, schema: { tags, summary: '卖方接受一家的申请, 生成框架合同', params: IdParams, body: LongTermAcceptSchema, response: Answer } },
    async (request) => {
      const actor = requireActor(request);
      // accepting makes a new framework deal; the call-offs of one in execution go on (what is under way continues)
      await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
      return ok(await acceptApplication(app.db, app.clock, actor, request.params.id, request.body.applicationId), '已接受申请，框架合同生成后请双方签署');
    },
  );

  app.post(
    `${BASE}/:id/terminate`,
    { config: { permission: longTermPolicy.grantOf('operate'), audit: '终止长协' }, schema: { tags, summary: '交易中心终止执行中的长协', params: IdParams, body: LongTermTerminateSchema, response: Answer } },
    async (request) => ok(await terminateLongTerm(app.db, app.clock, requireActor(request), request.params.id, request.body.reason), '已终止'),
  );

  app.post(
    `${BASE}/:id/callOff`,
    { config: { permission: longTermPolicy.grantOf('callOff'), audit: '发起月度调运' }, schema: { tags, summary: '发起本月调运 (卖方) 或申请调运 (买方)', params: IdParams, body: CallOffCreateSchema, response: Answer } },
    async (request) => ok(await createCallOff(app.db, app.clock, requireActor(request), request.params.id, request.body), '已发起，等待对方确认'),
  );

  app.post(
    `${BASE}/callOff/:callOffId/decide`,
    { config: { permission: longTermPolicy.grantOf('decideCallOff'), audit: '确认月度调运' }, schema: { tags, summary: '对方确认 (生成成交与月度合同) 或拒绝月度调运', params: CallOffParams, body: CallOffDecideSchema, response: Answer } },
    async (request) =>
      ok(await decideCallOff(app.db, app.clock, app.ukeyVerifier, requireActor(request), request.params.callOffId, request.body), request.body.accept ? '已确认，月度合同生成后请双方签署' : '已拒绝'),
  );

  app.post(
    `${BASE}/callOff/:callOffId/withdraw`,
    { config: { permission: longTermPolicy.grantOf('withdrawCallOff'), audit: '撤回月度调运' }, schema: { tags, summary: '发起方撤回待确认的月度调运', params: CallOffParams, response: Answer } },
    async (request) => ok(await withdrawCallOff(app.db, app.clock, requireActor(request), request.params.callOffId), '已撤回'),
  );
}
