import { AuctionTradeIdSchema, MarketBoardSchema, MovedAuctionSchema, OperatorReasonSchema, envelopeSchema, safeString } from '@coalx/shared';
import { z } from 'zod';
import { cancelAuction, cancelPreview, pauseAuction, resumeAuction } from '../flows/operate-auction';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { auctionPolicy } from '../modules/auction/auction.policy';
import { requireActor } from '../plugins/authenticate';
import { marketBoard, roomBidders } from '../queries/market-board';

/** The trading centre's live market board (实时监控) and its hand on running auctions: pause, resume, cancel. */
export default async function monitorRoutes(app: ZodApp) {
  const tags = ['monitor'];
  const moved = (a: { tradeNo: string; hangState: number; currentEnd: Date; pausedRemainingMs: number | null }) => ({
    tradeId: a.tradeNo,
    hangState: a.hangState,
    currentEnd: a.currentEnd.getTime(),
    pausedRemainingMs: a.pausedRemainingMs,
  });

  app.post('/api/monitor/board', { config: { permission: 'operation-monitor.query' }, schema: { tags, summary: '实时监控：今日挂牌与竞价 (企业名称、报名数、出价数、当前价与溢价、剩余时间)', response: { 200: envelopeSchema(MarketBoardSchema) } } }, async (request) => {
    auctionPolicy.can(requireActor(request), 'seeAllBidders');
    return ok(await marketBoard(app.db, app.clock.now()));
  });

  app.post('/api/monitor/auction/bidders', { config: { permission: 'operation-monitor.query' }, schema: { tags, summary: '竞价室交易中心视图：竞买人代号对应的企业名称', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(z.array(z.object({ bidder: safeString(), enterpriseName: safeString(), status: safeString() }))) } } }, async (request) => {
    auctionPolicy.can(requireActor(request), 'seeAllBidders');
    return ok(await roomBidders(app.db, request.body.tradeId));
  });

  app.post('/api/monitor/auction/cancelPreview', { config: { permission: 'operation-monitor.query' }, schema: { tags, summary: '撤销竞价前确认：将释放的保证金笔数与金额', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(z.object({ depositCount: z.number(), depositTotal: z.number() })) } } }, async (request) => {
    auctionPolicy.can(requireActor(request), 'operate');
    return ok(await cancelPreview(app.db, request.body.tradeId));
  });

  app.post('/api/monitor/auction/pause', { config: { audit: '暂停竞价', permission: 'operation-monitor.edit' }, schema: { tags, summary: '暂停竞价 (保留剩余竞价时间)', body: OperatorReasonSchema, response: { 200: envelopeSchema(MovedAuctionSchema) } } }, async (request) =>
    ok(moved(await pauseAuction(app.db, app.clock, requireActor(request), request.body)), '竞价已暂停'),
  );

  app.post('/api/monitor/auction/resume', { config: { audit: '恢复竞价', permission: 'operation-monitor.edit' }, schema: { tags, summary: '恢复竞价 (按暂停时的剩余时间继续计时)', body: AuctionTradeIdSchema, response: { 200: envelopeSchema(MovedAuctionSchema) } } }, async (request) =>
    ok(moved(await resumeAuction(app.db, app.clock, requireActor(request), request.body)), '竞价已恢复'),
  );

  app.post('/api/monitor/auction/cancel', { config: { audit: '撤销竞价', permission: 'operation-monitor.edit' }, schema: { tags, summary: '撤销竞价 (不成交，释放全部报名保证金)', body: OperatorReasonSchema, response: { 200: envelopeSchema(MovedAuctionSchema.extend({ releasedDeposit: z.number() })) } } }, async (request) => {
    const { auction, releasedDepositFen } = await cancelAuction(app.db, app.clock, requireActor(request), request.body);
    return ok({ ...moved(auction), releasedDeposit: releasedDepositFen }, '竞价已撤销，报名保证金已释放');
  });

  // the board's live feed: which trades changed, a few times a second at most (plugins/realtime.ts BoardFeed)
  app.get('/ws/monitor', {
    websocket: true,
    config: { permission: 'public' },
    schema: { tags, summary: 'WebSocket: 实时监控变动通知 (只含变动的交易编号，看板据此重新读取 /api/monitor/board)' },
  }, async (socket) => {
    app.boardFeed.join(socket);
    socket.on('close', () => app.boardFeed.leave(socket));
  });
}
