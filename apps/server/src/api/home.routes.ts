import { MarketDataQuerySchema, MarketDataSchema, RecommendMarkSchema, RecommendQuerySchema, RecommendRecordSchema, TradeSummarySchema, envelopeSchema, pageSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { marketData } from '../queries/market-data';
import { markRecommended, recommendedTradeIds, recommendedTrades, tradeSummary } from '../queries/trade-home';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { homePolicy } from '../modules/home/home.policy';

export default async function homeRoutes(app: ZodApp) {
  const tags = ['home'];
  app.post('/api/tradeHome/recommend/list', { config: { permission: 'public' }, schema: { tags, summary: '推荐交易 (首页 4 条、推荐列表 10 条)', body: RecommendQuerySchema, response: { 200: envelopeSchema(pageSchema(RecommendRecordSchema)) } } }, async (request) => {
    // states move with the clock: a short cache only
    const key = `recommend:${JSON.stringify(request.body)}`;
    return ok(await app.publicCache.get(key, () => recommendedTrades(app.db, app.clock.now(), request.body)));
  });
  app.post('/api/tradeHome/recommend/mark', { config: { permission: 'operation-tradeAudit.edit', audit: '设置推荐交易' }, schema: { tags, summary: '设为或取消推荐 (运营)', body: RecommendMarkSchema, response: { 200: envelopeSchema(z.null()) } } }, async (request) => {
    const actor = requireActor(request);
    homePolicy.can(actor, 'recommend');
    await markRecommended(app.db, actor.userId, request.body.tradeId, request.body.recommended);
    return ok(null, request.body.recommended ? '已设为推荐' : '已取消推荐');
  });
  app.get('/api/tradeHome/recommend/ids', { config: { permission: 'operation-tradeAudit' }, schema: { tags, summary: '已推荐的交易编号 (运营)', response: { 200: envelopeSchema(z.array(safeString())) } } }, async (request) => {
    homePolicy.can(requireActor(request), 'recommend');
    return ok(await recommendedTradeIds(app.db));
  });
  app.get('/api/tradeHome/market/daily', { config: { permission: 'public' }, schema: { tags, summary: '行情: 产品每日成交均价、最高、最低、开收盘价与成交量 (按交收省份筛选；仅已记录的挂牌与竞价成交)', querystring: MarketDataQuerySchema, response: { 200: envelopeSchema(MarketDataSchema) } } }, async (request) =>
    // the day moves with the clock and deals invalidate it (public-cache.ts): the short cache only
    ok(await app.publicCache.get(`marketdata:${JSON.stringify(request.query)}`, () => marketData(app.db, app.clock.now(), request.query))),
  );
  app.post('/api/tradeHome/tradeSummary/list', { config: { permission: 'public' }, schema: { tags, summary: '成交汇总 (最新成交，名称部分隐藏)', body: z.object({ pageNo: z.number().int().min(1).max(100000).default(1), pageSize: z.number().int().min(1).transform((n) => Math.min(n, 50)).default(10) }), response: { 200: envelopeSchema(pageSchema(TradeSummarySchema)) } } }, async (request) =>
    ok(await app.publicCache.get(`summary:${request.body.pageNo}:${request.body.pageSize}`, () => tradeSummary(app.db, request.body))),
  );
}
