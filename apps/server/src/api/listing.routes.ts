import {
  AnswerDealSchema,
  DealIdSchema,
  DealQuerySchema,
  DealViewSchema,
  ListedTradeListSchema,
  ListingApplySchema,
  ListingAuditQuerySchema,
  ListingRejectSchema,
  ListingResultQuerySchema,
  ListingResultSchema,
  ListingViewSchema,
  MyListingQuerySchema,
  OppositeCompanySchema,
  SubscribeSchema,
  SubscriptionQuerySchema,
  SubscriptionViewSchema,
  TradeIdSchema,
  envelopeSchema,
  pageSchema,
  safeString,
} from '@coalx/shared';
import { z } from 'zod';
import { answerSubscription } from '../flows/answer-subscription';
import { subscribeListing, subscriptionsIdle } from '../flows/subscribe-listing';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import {
  auditListing,
  auditQueue,
  listingDetail,
  listingResult,
  marketListings,
  myDeals,
  myListings,
  mySubscriptions,
  oppositeCompanyInfo,
  saveListing,
  listingPublisherId,
  subscriptionsOfListing,
  subscriptionsToMyListings,
} from '../modules/listing/listing.service';
import { requirePublisherTradingAllowed, requireTradingAllowed } from '../modules/enterprise/trading-rights.service';

const SubscriptionResultSchema = z.object({ id: z.number(), status: safeString(), quantity: z.number(), deposit: z.number() });

export default async function listingRoutes(app: ZodApp) {
  // a subscription group still committing is answered before the database closes
  app.addHook('onClose', () => subscriptionsIdle(app.db));
  const tags = ['listing'];

  app.post('/api/addListedApply', { config: { audit: '发布挂牌', permission: 'listingTrade-start.add' }, schema: { tags, summary: '发布挂牌 (草稿或提交审核)；带 tradeId 时修改草稿/被驳回的挂牌', body: ListingApplySchema, response: { 200: envelopeSchema(ListingViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    // a suspended enterprise may keep drafts but publishes nothing new (暂停交易)
    if (request.body.submit) await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
    const saved = await saveListing(app.db, app.clock, actor, request.body);
    const view = await listingDetail(app.db, app.clock, actor, saved.tradeNo);
    return ok(view, saved.status === 'draft' ? '草稿已保存' : '已提交，等待交易中心审核');
  });

  app.post('/api/listedApplyDetail', { config: { permission: 'public' }, schema: { tags, summary: '挂牌详情', body: TradeIdSchema, response: { 200: envelopeSchema(ListingViewSchema) } } }, async (request) =>
    ok(await listingDetail(app.db, app.clock, request.actor, request.body.tradeId)),
  );

  app.post('/api/tradeHome/listedTrade/list', { config: { permission: 'public' }, schema: { tags, summary: '挂牌交易大厅 (首页表格 pageSize 5、更多挂牌; 公共缓存 2 秒)', body: ListedTradeListSchema, response: { 200: envelopeSchema(pageSchema(ListingViewSchema)) } } }, async (request) =>
    ok(await app.publicCache.get(`market:listing:${JSON.stringify(request.body)}`, () => marketListings(app.db, app.clock, request.body))),
  );

  app.post('/api/myListedTradeList', { config: { permission: 'listingTrade' }, schema: { tags, summary: '我的挂牌', body: MyListingQuerySchema, response: { 200: envelopeSchema(pageSchema(ListingViewSchema)) } } }, async (request) =>
    ok(await myListings(app.db, app.clock, requireActor(request), request.body)),
  );

  app.post('/api/listedAnswerApply', { config: { audit: '摘牌', permission: 'listingTrade-subscribe.add' }, schema: { tags, summary: '摘牌 (冻结保证金并占用数量)', body: SubscribeSchema, response: { 200: envelopeSchema(SubscriptionResultSchema) } } }, async (request) => {
    const sub = await subscribeListing(app.db, app.clock, app.ukeyVerifier, requireActor(request), request.body);
    return ok({ id: sub.id, status: sub.status, quantity: sub.quantityKg, deposit: sub.depositFen }, sub.status === 'confirmed' ? '摘牌成功，已自动成交' : '摘牌成功，等待挂牌方确认');
  });

  app.post('/api/listedRecord/listQuery', { config: { permission: 'listingTrade' }, schema: { tags, summary: '挂牌的摘牌记录 (挂牌方看全部，其他企业看自己的)', body: SubscriptionQuerySchema.extend({ tradeId: safeString().min(1).max(20) }), response: { 200: envelopeSchema(pageSchema(SubscriptionViewSchema)) } } }, async (request) =>
    ok(await subscriptionsOfListing(app.db, requireActor(request), request.body)),
  );

  app.post('/api/listedRecord/myListedApplyList', { config: { permission: 'listingTrade' }, schema: { tags, summary: '本企业挂牌收到的摘牌 (确认页)', body: SubscriptionQuerySchema, response: { 200: envelopeSchema(pageSchema(SubscriptionViewSchema)) } } }, async (request) =>
    ok(await subscriptionsToMyListings(app.db, requireActor(request), request.body)),
  );

  app.post('/api/listedRecord/myDealListedApplyList', { config: { permission: 'listingTrade' }, schema: { tags, summary: '本企业的摘牌', body: SubscriptionQuerySchema, response: { 200: envelopeSchema(pageSchema(SubscriptionViewSchema)) } } }, async (request) =>
    ok(await mySubscriptions(app.db, requireActor(request), request.body)),
  );

  app.post('/api/listedRecord/answerOrdersDeal', { config: { audit: '确认或拒绝摘牌', permission: 'listingTrade-confirm.edit' }, schema: { tags, summary: '挂牌方确认或拒绝摘牌', body: AnswerDealSchema, response: { 200: envelopeSchema(z.object({ id: z.number(), status: safeString() })) } } }, async (request) => {
    const sub = await answerSubscription(app.db, app.clock, requireActor(request), request.body);
    return ok({ id: sub.id, status: sub.status }, sub.status === 'confirmed' ? '已确认成交' : '已拒绝，数量和保证金已释放');
  });

  app.post('/api/mydealListedTradeList', { config: { permission: 'listingTrade' }, schema: { tags, summary: '本企业挂牌成交 (买卖双方)', body: DealQuerySchema, response: { 200: envelopeSchema(pageSchema(DealViewSchema)) } } }, async (request) =>
    ok(await myDeals(app.db, requireActor(request), request.body)),
  );

  app.post('/api/listedRecord/listSuccessQuery', { config: { permission: 'public' }, schema: { tags, summary: '挂牌结果公告 (成交方名称部分隐藏)', body: ListingResultQuerySchema, response: { 200: envelopeSchema(ListingResultSchema) } } }, async (request) =>
    ok(await listingResult(app.db, app.clock, request.body.tradeId, request.body)),
  );

  app.post('/api/listedRecord/queryOppositeCompanyInfo', { config: { permission: ['listingTrade', 'auctionTrade'] }, schema: { tags, summary: '成交对方联系方式 (仅成交双方)', body: DealIdSchema, response: { 200: envelopeSchema(OppositeCompanySchema) } } }, async (request) =>
    ok(await oppositeCompanyInfo(app.db, requireActor(request), request.body.id)),
  );

  app.post('/api/listing/audit/list', { config: { permission: 'operation-tradeAudit' }, schema: { tags, summary: '挂牌审核队列 (运营)', body: ListingAuditQuerySchema, response: { 200: envelopeSchema(pageSchema(ListingViewSchema)) } } }, async (request) =>
    ok(await auditQueue(app.db, app.clock, requireActor(request), request.body)),
  );

  app.post('/api/listing/audit/approve', { config: { audit: '挂牌审核通过', permission: 'operation-tradeAudit.edit' }, schema: { tags, summary: '审核通过挂牌 (运营)', body: TradeIdSchema, response: { 200: envelopeSchema(ListingViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    await requirePublisherTradingAllowed(app.db, app.clock, await listingPublisherId(app.db, request.body.tradeId));
    const listing = await auditListing(app.db, app.clock, actor, request.body.tradeId, { approve: true });
    return ok(await listingDetail(app.db, app.clock, actor, listing.tradeNo), '审核通过');
  });

  app.post('/api/listing/audit/reject', { config: { audit: '挂牌审核驳回', permission: 'operation-tradeAudit.edit' }, schema: { tags, summary: '驳回挂牌 (运营)', body: ListingRejectSchema, response: { 200: envelopeSchema(ListingViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    const listing = await auditListing(app.db, app.clock, actor, request.body.tradeId, { approve: false, reason: request.body.reason });
    return ok(await listingDetail(app.db, app.clock, actor, listing.tradeNo), '已驳回');
  });

}
