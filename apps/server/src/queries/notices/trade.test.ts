import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { auctions, contracts, deals, messageDeliveries, messageEvents, messages, webhookDeliveries, webhookEndpoints } from '../../db/schema/index';
import { auctionInput } from '../../modules/auction/auction.test-helpers';
import { newRequestId } from '../../modules/funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../../modules/listing/listing.test-helpers';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const MINUTE = 60_000;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 3)]);

describe.each(testDatabaseKinds())('trading notices on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  let operator: { token: string; user: { id: number } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    operator = await signedIn(t.app, t.database.db, { role: 'operator' });
  }, 120_000);
  afterAll(async () => t?.close());

  /** A user's messages of one kind, oldest first (read from the table: clocks moved by hours end sessions). */
  const messagesOf = (userId: number, kind: string) =>
    t.database.db.select().from(messages).where(and(eq(messages.userId, userId), eq(messages.kind, kind))).orderBy(asc(messages.id));
  const textsOf = async (messageIds: number[]) =>
    messageIds.length ? t.database.db.select().from(messageDeliveries).where(and(inArray(messageDeliveries.messageId, messageIds), eq(messageDeliveries.channel, 'sms'))) : [];
  /** The reader's own list through the API. */
  const listOf = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/trade-api/api/message/list?pageSize=100', headers: { 'x-access-token': token } })).json().result.records as {
      kind: string;
      title: string;
      content: string;
      link: string | null;
      urgent: boolean;
      category: string;
    }[];
  const round = async () => {
    await runScheduledJobs(t.app);
    await t.app.notifications.settled();
  };
  const settled = () => t.app.notifications.settled();

  it('a submitted listing is in the trading centre\'s queue; approved or rejected, its publisher is told', async () => {
    const seller = await tradingParty(t);
    const created = await post(t.app, '/api/addListedApply', seller.traderToken, listingInput(stockCode, t.clock.now()));
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    await settled();
    const [todo] = await messagesOf(operator.user.id, 'todo.listing_audit');
    expect(todo).toMatchObject({ category: 'todo', title: '待审核挂牌', link: '/operation/tradeAudit', urgent: false });
    expect(todo!.content).toContain(tradeId);
    expect(todo!.content).toContain(seller.enterprise.organName);
    // a trader of the enterprise is not staff: no queue item
    expect(await messagesOf(seller.trader.id, 'todo.listing_audit')).toHaveLength(0);

    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    await settled();
    const approved = (await listOf(seller.adminToken)).find((m) => m.kind === 'listing.approved');
    expect(approved).toMatchObject({ title: '挂牌审核通过', link: '/listingTrade/query', category: 'trade', urgent: false });
    expect(approved!.content).toContain(tradeId);
    expect(approved!.content).toContain('10,000.00 吨');
    expect(approved!.content).toContain('850.00 元/吨');
    // the trader who may publish hears it too
    expect(await messagesOf(seller.trader.id, 'listing.approved')).toHaveLength(1);

    const other = (await post(t.app, '/api/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now()))).json().result.tradeId as string;
    const rejected = await post(t.app, '/api/listing/audit/reject', operator.token, { tradeId: other, reason: '交收地点不详' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await settled();
    const [message] = await messagesOf(seller.admin.id, 'listing.rejected');
    expect(message!.title).toBe('挂牌审核驳回');
    expect(message!.content).toContain(other);
    expect(message!.content).toContain('原因：交收地点不详');
  });

  it('a subscription waiting for the publisher is its to-do; declined or confirmed, the subscriber is told', async () => {
    const seller = await tradingParty(t);
    const buyer = await tradingParty(t);
    const tradeId = (await post(t.app, '/api/addListedApply', seller.adminToken, listingInput(stockCode, t.clock.now(), { price: 84_550 }))).json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await round();

    const first = await post(t.app, '/api/listedAnswerApply', buyer.traderToken, { tradeId, quantity: 500_000, requestId: newRequestId() });
    expect(first.statusCode, first.body).toBe(200);
    await settled();
    const [toConfirm] = await messagesOf(seller.admin.id, 'subscription.to_confirm');
    expect(toConfirm).toMatchObject({ title: '待确认摘牌', link: '/listingTrade/confirm' });
    expect(toConfirm!.content).toContain(buyer.enterprise.organName);
    expect(toConfirm!.content).toContain('500.00 吨');
    expect(toConfirm!.content).toContain('422,750.00 元');
    expect(await messagesOf(seller.trader.id, 'subscription.to_confirm')).toHaveLength(1);
    // the subscriber is not asked to confirm its own subscription
    expect(await messagesOf(buyer.admin.id, 'subscription.to_confirm')).toHaveLength(0);

    const declined = await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.adminToken, { id: first.json().result.id, action: 'decline', reason: '库存不足' });
    expect(declined.statusCode, declined.body).toBe(200);
    await settled();
    const [no] = await messagesOf(buyer.admin.id, 'subscription.declined');
    expect(no!.content).toContain('原因：库存不足');
    expect(no!.content).toContain('保证金 10,000.00 元已释放');
    expect(no!.link).toBe('/listingTrade/subscribe');

    const second = await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: 200_000, requestId: newRequestId() });
    expect(second.statusCode, second.body).toBe(200);
    expect((await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.adminToken, { id: second.json().result.id, action: 'confirm' })).statusCode).toBe(200);
    await settled();
    const [deal] = await t.database.db.select().from(deals).where(and(eq(deals.tradeNo, tradeId), eq(deals.sourceId, second.json().result.id)));
    const [yes] = await messagesOf(buyer.trader.id, 'subscription.confirmed');
    expect(yes).toMatchObject({ title: '摘牌已成交', link: `/listingTrade/deal?tradeId=${tradeId}` });
    expect(yes!.content).toContain(deal!.dealNo);
    expect(await messagesOf(seller.admin.id, 'subscription.to_confirm')).toHaveLength(2);
  });

  it('an auction: approved, enrolled, reminded 30 and 5 minutes before (once, also after a restart), outbid at most once a minute, won and lost', async () => {
    const db = t.database.db;
    const seller = await tradingParty(t);
    const [a, b] = [await tradingParty(t), await tradingParty(t)];
    const now = t.clock.now().getTime();
    const input = auctionInput(stockCode, t.clock.now(), {
      enrolDeadline: new Date(now + 20 * MINUTE).toISOString(),
      bidStart: new Date(now + 40 * MINUTE).toISOString(),
      bidEnd: new Date(now + 50 * MINUTE).toISOString(),
    });
    const created = await post(t.app, '/api/bidApply', seller.adminToken, input);
    expect(created.statusCode, created.body).toBe(200);
    const tradeId = created.json().result.tradeId as string;
    await settled();
    expect((await messagesOf(operator.user.id, 'todo.auction_audit')).some((m) => m.content.includes(tradeId))).toBe(true);
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    await settled();
    const [approved] = await messagesOf(seller.admin.id, 'auction.approved');
    expect(approved!.content).toContain(tradeId);
    expect(approved!.link).toBe('/auctionTrade/query');

    for (const p of [a, b]) expect((await post(t.app, '/api/bidEnroll/add', p.traderToken, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
    await settled();
    const [enrolledA] = await messagesOf(a.admin.id, 'auction.enrolled');
    expect(enrolledA).toMatchObject({ title: '竞价报名成功', link: `/deal/bidding?tradeId=${tradeId}` });
    expect(enrolledA!.content).toContain('竞买人代号 1');
    expect(enrolledA!.content).toContain('保证金 200,000.00 元已冻结');
    expect((await messagesOf(b.trader.id, 'auction.enrolled'))[0]!.content).toContain('竞买人代号 2');
    // each enterprise hears its own enrolment only; the publisher none
    expect(await messagesOf(a.admin.id, 'auction.enrolled')).toHaveLength(1);
    expect(await messagesOf(seller.admin.id, 'auction.enrolled')).toHaveLength(0);

    const [row] = await db.select().from(auctions).where(eq(auctions.tradeNo, tradeId));
    const bidStart = row!.bidStart.getTime();
    const told = async (kind: string) => [...(await messagesOf(a.admin.id, kind)), ...(await messagesOf(b.trader.id, kind)), ...(await messagesOf(seller.admin.id, kind))];

    // 31 minutes before: nothing yet; 29 minutes before: the 30-minute reminder, to the enrolled and the publisher
    t.clock.advance(bidStart - 31 * MINUTE - t.clock.now().getTime());
    await round();
    expect(await told('auction.starting_30')).toHaveLength(0);
    t.clock.advance(2 * MINUTE);
    await round();
    const starting = await told('auction.starting_30');
    expect(starting).toHaveLength(3);
    for (const m of starting) {
      expect(m).toMatchObject({ title: '竞价即将开始', urgent: true, link: `/deal/bidding?tradeId=${tradeId}` });
      expect(m.dueAt!.getTime()).toBe(bidStart);
    }
    expect((await textsOf(starting.map((m) => m.id))).length).toBe(3);
    for (const text of await textsOf(starting.map((m) => m.id))) expect(Array.from(text.body).length).toBeLessThanOrEqual(70);
    // the next rounds and a new app on the same database make nothing more
    t.clock.advance(MINUTE);
    await round();
    await round();
    const again = await buildApp({ config: t.config, database: t.database, clock: t.clock });
    await again.ready();
    try {
      await runScheduledJobs(again);
      await again.notifications.settled();
    } finally {
      await again.close();
    }
    expect(await told('auction.starting_30')).toHaveLength(3);
    expect(await db.select().from(messageEvents).where(like(messageEvents.eventKey, `auction.starting_30:${row!.id}:%`))).toHaveLength(1);

    // 4 minutes before: the 5-minute reminder, once
    t.clock.advance(bidStart - 4 * MINUTE - t.clock.now().getTime());
    await round();
    await round();
    expect(await told('auction.starting_5')).toHaveLength(3);
    expect(await told('auction.starting_30')).toHaveLength(3);

    // bidding: A is overtaken by B, and told once. The clock is set to 50 s past a minute, so that the two notices
    // below fall in two calendar minutes: the 60 s window, not only the minute in the key, holds the second back
    t.clock.advance(bidStart - t.clock.now().getTime());
    await round();
    t.clock.advance(Math.ceil(t.clock.now().getTime() / MINUTE) * MINUTE + 50_000 - t.clock.now().getTime());
    const bid = async (p: TradingParty, price: number) => {
      const r = await post(t.app, '/api/bidRecord/bidAnswerApply', p.traderToken, { tradeId, price });
      expect(r.statusCode, r.body).toBe(200);
    };
    await bid(a, 80_000);
    await round();
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(0);
    t.clock.advance(5_000);
    await bid(b, 80_100);
    t.clock.advance(1_000);
    await round();
    await round();
    const [outbid] = await messagesOf(a.admin.id, 'auction.outbid');
    expect(outbid).toMatchObject({ title: '您的出价已被超过', link: `/deal/bidding?tradeId=${tradeId}`, urgent: false });
    expect(outbid!.content).toContain('当前最优价 801.00 元/吨');
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(1);
    expect(await messagesOf(b.admin.id, 'auction.outbid')).toHaveLength(0);
    // overtaken again 10 s later (in the next calendar minute): held back, then told once 60 s have passed
    t.clock.advance(10_000);
    await bid(a, 80_200);
    await bid(b, 80_300);
    t.clock.advance(1_000);
    await round();
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(1);
    t.clock.advance(50_000);
    await round();
    const later = await messagesOf(a.admin.id, 'auction.outbid');
    expect(later).toHaveLength(2);
    expect(later[1]!.content).toContain('当前最优价 803.00 元/吨');
    await round();
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(2);
    // a minute more without a new overtaking: nothing new to tell
    t.clock.advance(61_000);
    await round();
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(2);
    // B overtaken for the first time is told at once; A leading is not
    await bid(a, 80_400);
    t.clock.advance(1_000);
    await round();
    expect(await messagesOf(b.trader.id, 'auction.outbid')).toHaveLength(1);
    expect(await messagesOf(a.admin.id, 'auction.outbid')).toHaveLength(2);

    // the award: A wins, B loses, the publisher hears the result; the members' systems of A and the publisher by webhook
    const endpoints = new Map<number, number>();
    for (const p of [seller, a, b]) {
      const [endpoint] = await db
        .insert(webhookEndpoints)
        .values({ enterpriseId: p.enterprise.id, url: 'http://127.0.0.1:9/hook', eventTypes: ['auction.ended'], secret: `whsec_${randomBytes(24).toString('base64')}` })
        .returning();
      endpoints.set(p.enterprise.id, endpoint!.id);
    }
    const [live] = await db.select().from(auctions).where(eq(auctions.tradeNo, tradeId));
    t.clock.advance(live!.currentEnd.getTime() - t.clock.now().getTime() + 1_000);
    await round();
    const [deal] = await db.select().from(deals).where(eq(deals.tradeNo, tradeId));
    expect(deal).toBeTruthy();
    const won = await messagesOf(a.admin.id, 'auction.won');
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ title: '竞价成交', urgent: true, link: `/auctionTrade/deal?tradeId=${tradeId}` });
    expect(won[0]!.content).toContain('以 804.00 元/吨 中标');
    expect(won[0]!.content).toContain(deal!.dealNo);
    expect(won[0]!.content).toContain('1 个工作日内');
    const [lost] = await messagesOf(b.trader.id, 'auction.lost');
    expect(lost).toMatchObject({ title: '竞价未中标', urgent: true });
    expect(lost!.content).toContain('保证金 200,000.00 元已释放');
    expect(await messagesOf(b.admin.id, 'auction.won')).toHaveLength(0);
    const [result] = await messagesOf(seller.admin.id, 'auction.result');
    expect(result!.content).toContain(a.enterprise.organName);
    expect(result!.content).toContain('804.00 元/吨');
    expect((await textsOf([won[0]!.id, lost!.id])).length).toBe(2);
    // no outbid notice once the auction is over
    expect(await messagesOf(b.trader.id, 'auction.outbid')).toHaveLength(1);

    const hooks = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, 'auction.ended'));
    const mine = hooks.filter((h) => [...endpoints.values()].includes(h.endpointId));
    expect(mine.map((h) => h.endpointId).sort()).toEqual([endpoints.get(seller.enterprise.id)!, endpoints.get(a.enterprise.id)!].sort());
    const body = JSON.parse(mine[0]!.body);
    expect(body).toMatchObject({ type: 'auction.ended', data: { tradeNo: tradeId, result: 'deal', dealNo: deal!.dealNo, priceFen: 80_400 } });
  }, 120_000);

  it('an auction without bids: 流拍 for the publisher and the enrolled, who get their deposits back', async () => {
    const seller = await tradingParty(t);
    const bidder = await tradingParty(t);
    const tradeId = (await post(t.app, '/api/bidApply', seller.adminToken, auctionInput(stockCode, t.clock.now()))).json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    expect((await post(t.app, '/api/bidEnroll/add', bidder.adminToken, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
    t.clock.advance(13 * MINUTE);
    await round();
    const [failed] = await messagesOf(seller.admin.id, 'auction.failed');
    expect(failed!.title).toBe('竞价流拍');
    expect(failed!.content).toContain(tradeId);
    const [theirs] = await messagesOf(bidder.admin.id, 'auction.failed');
    expect(theirs!.content).toContain('保证金 200,000.00 元已释放');
    expect(await messagesOf(bidder.admin.id, 'auction.lost')).toHaveLength(0);
  });

  it('a paper contract is in the trading centre\'s queue; rejected or accepted, the uploading party is told', async () => {
    const db = t.database.db;
    const seller = await tradingParty(t);
    const buyer = await tradingParty(t);
    const listing = listingInput(stockCode, t.clock.now(), { autoConfirm: true, price: 84_550 });
    const tradeId = (await post(t.app, '/api/addListedApply', seller.adminToken, listing)).json().result.tradeId as string;
    await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId });
    t.clock.advance(61_000);
    await round();
    expect((await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity: 500_000, requestId: newRequestId() })).statusCode).toBe(200);
    await settled();
    const [contract] = await db.select().from(contracts).innerJoin(deals, eq(deals.id, contracts.dealId)).where(eq(deals.tradeNo, tradeId));
    const contractId = contract!.contract.id;
    const upload = async () => {
      const { payload, headers } = multipart({ name: '纸质合同.png', data: PNG });
      const r = await t.app.inject({ method: 'POST', url: `/trade-api/api/contract/${contractId}/upload`, payload, headers: { ...headers, 'x-access-token': buyer.adminToken } });
      expect(r.statusCode, r.body).toBe(200);
      return (r.json().result.uploads as { id: number; status: string }[]).find((u) => u.status === 'submitted')!.id;
    };
    const review = (uploadId: number, body: object) =>
      t.app.inject({ method: 'POST', url: `/trade-api/api/contract/${contractId}/uploads/${uploadId}/review`, headers: { 'x-access-token': operator.token }, payload: body });

    const first = await upload();
    await settled();
    const queued = (await messagesOf(operator.user.id, 'todo.paper_contract')).find((m) => m.content.includes(contract!.contract.contractNo));
    expect(queued).toMatchObject({ title: '待审核纸质合同', link: `/contract/info?id=${contractId}` });
    expect(queued!.content).toContain(`买方${buyer.enterprise.organName}`);
    expect((await review(first, { accept: false, note: '缺少卖方盖章' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(buyer.admin.id, 'contractupload.rejected');
    expect(rejected!.content).toContain('缺少卖方盖章');
    expect(rejected!.category).toBe('contract');
    // the other party did not upload: it is not told of the review
    expect(await messagesOf(seller.admin.id, 'contractupload.rejected')).toHaveLength(0);

    const second = await upload();
    expect((await review(second, { accept: true, note: '与平台文本一致' })).statusCode).toBe(200);
    await settled();
    const [accepted] = await messagesOf(buyer.trader.id, 'contractupload.accepted');
    expect(accepted!.title).toBe('纸质合同已确认');
    expect(accepted!.content).toContain(contract!.contract.contractNo);
  });
});
