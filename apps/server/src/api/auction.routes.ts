import {
  AuctionApplySchema,
  AuctionBidLogSchema,
  AuctionAuditQuerySchema,
  AuctionPageQuerySchema,
  AuctionResultSchema,
  AuctionSnapshotSchema,
  AuctionTradeIdSchema,
  AuctionViewSchema,
  BidHistoryQuerySchema,
  BidSchema,
  BidTradeListSchema,
  DealViewSchema,
  EnrolSchema,
  EnrolmentViewSchema,
  MyAuctionQuerySchema,
  envelopeSchema,
  pageSchema,
  safeString,
  type AuctionEvent,
} from '@coalx/shared';
import { z } from 'zod';
import { enrolAuction } from '../flows/enrol-auction';
import { placeBid } from '../flows/place-bid';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { authTokenOf, type Watcher } from '../plugins/realtime';
import { resolveSession } from '../modules/auth/session.service';
import { myAuctionDeals } from '../modules/auction/auction-deals';
import { cachedParameterIfSet } from '../modules/system/calendar';
import {
  auctionAuditQueue,
  auctionBidLog,
  auctionDetail,
  auctionResult,
  auditAuction,
  bidHistory,
  buildSnapshot,
  findAuction,
  marketAuctions,
  myAuctions,
  myEnrolments,
  personalise,
  saveAuction,
} from '../modules/auction/auction.service';
import { requirePublisherTradingAllowed, requireTradingAllowed } from '../modules/enterprise/trading-rights.service';

const BidHistorySchema = z.object({
  seq: z.number(),
  bidder: safeString(),
  enterpriseName: safeString().nullable(),
  price: z.number(),
  inExtension: z.boolean(),
  time: safeString(),
  at: z.number(),
});

export default async function auctionRoutes(app: ZodApp) {
  const tags = ['auction'];

  app.post('/api/bidApply', { config: { audit: '发布竞价', permission: 'auctionTrade-start.add' }, schema: { tags, summary: '发布竞价 (草稿或提交审核)；带 tradeId 时修改草稿/被驳回的竞价', body: AuctionApplySchema, response: { 200: envelopeSchema(AuctionViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    // a suspended enterprise may keep drafts but publishes nothing new (暂停交易)
    if (request.body.submit) await requireTradingAllowed(app.db, app.clock, actor.enterpriseId);
    const saved = await saveAuction(app.db, app.clock, actor, request.body);
    return ok(await auctionDetail(app.db, app.clock, actor, saved.tradeNo), saved.status === 'draft' ? '草稿已保存' : '已提交，等待交易中心审核');
  });

  app.post('/api/bidApplyDetail', { config: { permission: 'public' }, schema: { tags, summary: '竞价详情', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(AuctionViewSchema) } } }, async (request) =>
    ok(await auctionDetail(app.db, app.clock, request.actor, request.body.tradeId)),
  );

  app.post('/api/tradeHome/bidTrade/list', { config: { permission: 'public' }, schema: { tags, summary: '竞价交易大厅 (首页表格 pageSize 5、更多竞价; 公共缓存 2 秒)', body: BidTradeListSchema, response: { 200: envelopeSchema(pageSchema(AuctionViewSchema)) } } }, async (request) =>
    ok(await app.publicCache.get(`market:auction:${JSON.stringify(request.body)}`, () => marketAuctions(app.db, app.clock, request.body))),
  );

  app.post('/api/myBidTradeList', { config: { permission: 'auctionTrade' }, schema: { tags, summary: '我的竞价 (本企业发布)', body: MyAuctionQuerySchema, response: { 200: envelopeSchema(pageSchema(AuctionViewSchema)) } } }, async (request) =>
    ok(await myAuctions(app.db, app.clock, requireActor(request), request.body)),
  );

  app.post('/api/bidEnroll/add', { config: { audit: '竞价报名', permission: 'auctionTrade-sign.add' }, schema: { tags, summary: '竞价报名 (冻结保证金)', body: EnrolSchema, response: { 200: envelopeSchema(z.object({ id: z.number(), bidderNo: z.number(), status: safeString() })) } } }, async (request) => {
    const enrolment = await enrolAuction(app.db, app.clock, app.ukeyVerifier, requireActor(request), request.body);
    return ok({ id: enrolment.id, bidderNo: enrolment.bidderNo, status: enrolment.status }, '报名成功，保证金已冻结');
  });

  app.post('/api/bidEnroll/myList', { config: { permission: 'auctionTrade' }, schema: { tags, summary: '本企业的竞价报名', body: AuctionPageQuerySchema, response: { 200: envelopeSchema(pageSchema(EnrolmentViewSchema)) } } }, async (request) =>
    ok(await myEnrolments(app.db, app.clock, requireActor(request), request.body)),
  );

  app.post('/api/bidRecord/bidAnswerApply', {
    // the admin's 系统参数 bid_rate_limit_per_second, when set, wins over the configured default (BID_RATE_LIMIT)
    config: { audit: '出价', permission: 'auctionTrade-sign.add', rateLimit: { max: async () => (await cachedParameterIfSet(app.db, 'bid_rate_limit_per_second')) ?? app.config.bidRateLimit, timeWindow: '1 second', keyGenerator: (request) => (request.actor ? `user:${request.actor.userId}` : `ip:${request.ip}`), errorResponseBuilder: () => appError('too_many_requests', '出价过于频繁，请稍后再试') } },
    schema: { tags, summary: '出价', body: BidSchema, response: { 200: envelopeSchema(z.object({ seq: z.number(), price: z.number(), currentEnd: z.number() })) } },
  }, async (request) => {
    const bid = await placeBid(app.db, app.clock, requireActor(request), request.body);
    return ok({ seq: bid.seq, price: bid.price, currentEnd: bid.currentEnd.getTime() }, '出价成功');
  });

  app.post('/api/bidRecord/list', { config: { permission: 'public' }, schema: { tags, summary: '出价记录 (交易中心可见企业名称)', body: BidHistoryQuerySchema, response: { 200: envelopeSchema(pageSchema(BidHistorySchema)) } } }, async (request) =>
    ok(await bidHistory(app.db, request.actor, request.body)),
  );

  app.get('/api/bidRecord/snapshot', { config: { permission: 'public' }, schema: { tags, summary: '竞价实时状态 (断线重连后用它追上)', querystring: z.object({ tradeId: safeString().min(1).max(20) }), response: { 200: envelopeSchema(AuctionSnapshotSchema) } } }, async (request) => {
    const base = await buildSnapshot(app.db, app.clock, request.query.tradeId);
    return ok(personalise(base, request.actor?.enterpriseId));
  });

  app.get('/api/bidRecord/log', { config: { permission: 'public' }, schema: { tags, summary: '公开出价记录 (竞价结束后): 代号、出价、服务器时间、哈希链与最终哈希，任何人可重新计算验证', querystring: z.object({ tradeId: safeString().min(1).max(20) }), response: { 200: envelopeSchema(AuctionBidLogSchema) } } }, async (request) =>
    ok(await auctionBidLog(app.db, request.query.tradeId)),
  );

  app.post('/api/bidResult', { config: { permission: 'public' }, schema: { tags, summary: '竞价结果公告', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(AuctionResultSchema) } } }, async (request) =>
    ok(await auctionResult(app.db, app.clock, request.body.tradeId)),
  );

  app.post('/api/myDealBidTradeList', { config: { permission: 'auctionTrade' }, schema: { tags, summary: '本企业竞价成交 (买卖双方)', body: AuctionPageQuerySchema, response: { 200: envelopeSchema(pageSchema(DealViewSchema)) } } }, async (request) =>
    ok(await myAuctionDeals(app.db, requireActor(request), request.body)),
  );

  app.post('/api/auction/audit/list', { config: { permission: 'operation-tradeAudit' }, schema: { tags, summary: '竞价审核与监控 (运营)', body: AuctionAuditQuerySchema, response: { 200: envelopeSchema(pageSchema(AuctionViewSchema)) } } }, async (request) =>
    ok(await auctionAuditQueue(app.db, app.clock, requireActor(request), request.body)),
  );

  app.post('/api/auction/audit/approve', { config: { audit: '竞价审核通过', permission: 'operation-tradeAudit.edit' }, schema: { tags, summary: '审核通过竞价 (运营)', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(AuctionViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    await requirePublisherTradingAllowed(app.db, app.clock, (await findAuction(app.db, request.body.tradeId)).auction.enterpriseId);
    const auction = await auditAuction(app.db, app.clock, actor, request.body.tradeId, { approve: true });
    return ok(await auctionDetail(app.db, app.clock, actor, auction.tradeNo), '审核通过');
  });

  app.post('/api/auction/audit/reject', { config: { audit: '竞价审核驳回', permission: 'operation-tradeAudit.edit' }, schema: { tags, summary: '驳回竞价 (运营)', body: AuctionTradeIdSchema.extend({ reason: safeString().trim().min(2, '请填写驳回原因').max(200, '驳回原因不超过 200 字') }), response: { 200: envelopeSchema(AuctionViewSchema) } } }, async (request) => {
    const actor = requireActor(request);
    const auction = await auditAuction(app.db, app.clock, actor, request.body.tradeId, { approve: false, reason: request.body.reason });
    return ok(await auctionDetail(app.db, app.clock, actor, auction.tradeNo), '已驳回');
  });

  // Live bidding: a snapshot on connect, then every accepted bid, state change and the end (spec §4 countdown).
  app.get('/ws/auction', {
    websocket: true,
    config: { permission: 'public' },
    schema: { tags, summary: 'WebSocket: 竞价实时推送 (?tradeId=; 登录用户连接后第一条消息发送 {"type":"auth","token":"…"}，此前及未认证的连接以游客身份观看)', querystring: z.object({ tradeId: safeString().min(1).max(20) }) },
  }, async (socket, request) => {
    const { tradeId } = request.query as { tradeId: string };
    const watcher: Watcher = { socket, enterpriseId: request.actor?.enterpriseId ?? null };
    // the first message may sign the socket in (never a token in the address); listened to before anything is awaited
    socket.once('message', (data, isBinary) => {
      const token = authTokenOf(data, isBinary);
      if (!token) return;
      resolveSession(app.db, app.clock, token)
        .then((actor) => {
          // a member who must still change the password watches as a visitor, as on every public route
          const ok = actor !== null && !actor.mustChangePassword;
          if (socket.readyState !== socket.OPEN) return;
          socket.send(JSON.stringify({ type: 'auth', ok } satisfies AuctionEvent));
          if (ok) app.auctionRooms.identify(tradeId, watcher, actor.enterpriseId);
        })
        .catch((err: unknown) => app.log.warn({ err, tradeId }, 'auction socket sign-in failed'));
    });
    // the room sends the snapshot on connect from its cached state, then every event (plugins/realtime.ts)
    socket.on('close', () => app.auctionRooms.leave(tradeId, watcher));
    try {
      await app.auctionRooms.join(tradeId, watcher);
    } catch {
      socket.send(JSON.stringify({ type: 'error', message: '竞价不存在' }));
      socket.close(4404, 'not found');
    }
  });
}
