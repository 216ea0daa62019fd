import { IndexTermSamplesSchema, MarketIndexProposalSchema, MarketIndexPublishSchema, MarketIndexSchema, MarketIndexTermQuerySchema, envelopeSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { marketIndexPolicy } from '../modules/market-index/market-index.policy';
import { indexHistory, indexTermSamples, latestIndex, proposeIndex, publishIndex } from '../modules/market-index/market-index.service';

export default async function marketIndexRoutes(app: ZodApp) {
  const tags = ['market-index'];
  const base = '/api/commoditymarketindex/commodityMarketIndex';

  app.get(`${base}/info`, { config: { permission: 'public' }, schema: { tags, summary: '最新一期动力煤指数', querystring: z.object({ _t: safeString().max(20).optional() }), response: { 200: envelopeSchema(MarketIndexSchema.nullable()) } } }, async () =>
    ok(await app.publicCache.get('index:latest', () => latestIndex(app.db))),
  );

  app.get(`${base}/history`, { config: { permission: 'public' }, schema: { tags, summary: '历史指数 (按期升序)', querystring: z.object({ limit: z.coerce.number().int().min(1).transform((n) => Math.min(n, 260)).default(52) }), response: { 200: envelopeSchema(z.array(MarketIndexSchema)) } } }, async (request) =>
    ok(await app.publicCache.get(`index:history:${request.query.limit}`, () => indexHistory(app.db, request.query.limit))),
  );

  app.get(`${base}/samples`, { config: { permission: 'public' }, schema: { tags, summary: '一期指数的样本成交与剔除原因 (指数编制方法页，成交编号部分隐藏)', querystring: MarketIndexTermQuerySchema, response: { 200: envelopeSchema(IndexTermSamplesSchema.nullable()) } } }, async (request) => {
    const { year, term } = request.query;
    return ok(await app.publicCache.get(`index:samples:${year}:${term}`, () => indexTermSamples(app.db, year, term)));
  });

  app.get(`${base}/proposal`, { config: { permission: 'operation-marketIndex' }, schema: { tags, summary: '按本平台成交计算的建议指数 (运营)', querystring: MarketIndexTermQuerySchema, response: { 200: envelopeSchema(MarketIndexProposalSchema) } } }, async (request) => {
    marketIndexPolicy.can(requireActor(request), 'publish');
    const { samples: _samples, ...proposal } = await proposeIndex(app.db, request.query.year, request.query.term);
    return ok(proposal);
  });

  app.post(`${base}/publish`, { config: { permission: 'operation-marketIndex.add', audit: '发布价格指数' }, schema: { tags, summary: '发布或更正一期指数 (运营)', body: MarketIndexPublishSchema, response: { 200: envelopeSchema(MarketIndexSchema) } } }, async (request) => {
    const actor = requireActor(request);
    marketIndexPolicy.can(actor, 'publish');
    const published = await publishIndex(app.db, actor.userId, request.body);
    return ok(published, '指数已发布');
  });
}
