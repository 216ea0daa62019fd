import { randomUUID } from 'node:crypto';
import type { Workbench } from '@coalx/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileObjects } from '../../db/schema/index';
import { shanghaiDayStart } from '../../lib/shanghai-time';
import { createEnterprise, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { auctionInput } from '../auction/auction.test-helpers';
import { applyDepositIn } from '../funds/funds.service';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../listing/listing.test-helpers';
import { runScheduledJobs } from '../../plugins/scheduler';

describe.each(testDatabaseKinds())('工作台首页 on %s', (kind) => {
  let t: TestApp;
  let stockCode: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    stockCode = await createProduct(t.database.db);
    // 10:00 of the next Shanghai day, so trades made now + a few minutes start "today" whatever the hour the test runs
    t.clock.advance(shanghaiDayStart(t.clock.now(), 1).getTime() + 10 * 3600_000 - t.clock.now().getTime());
  });
  afterAll(async () => t?.close());

  const workbench = async (token: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/api/workbench/todo', headers: { 'x-access-token': token } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as Workbench;
  };
  const counts = (w: Workbench) => Object.fromEntries(w.todos.map((todo) => [todo.key, todo.count]));
  const money = (w: Workbench) => Object.fromEntries(w.money.map((m) => [m.key, m.amount]));

  async function pendingDepositIn(party: Awaited<ReturnType<typeof fundedEnterprise>>, amount: number) {
    const key = `2026/01/01/${randomUUID()}.png`;
    await t.database.db.insert(fileObjects).values({
      storageKey: key, originalName: 'voucher.png', contentType: 'image/png', size: 1, sha256: 'x',
      visibility: 'private', ownerEnterpriseId: party.enterprise.id, uploadedBy: party.user.id,
    });
    await applyDepositIn(t.database.db, party.actor, {
      amount, bankName: '中国银行', payerAccountNo: '62170000111122223', transferDate: '2026-11-20', voucherUrl: key, remark: '', requestId: newRequestId(),
    });
  }

  it('the operator sees each waiting registration, trade audit, 入金 and 出金 counted once, with its page', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const before = await workbench(operator.token);
    expect(before.heading).toBe('交易中心运营');
    expect(before.todos.find((todo) => todo.key === 'enterpriseAudit')?.path).toBe('/operation/enterpriseAudit?auditStatus=pending');
    expect(before.todos.find((todo) => todo.key === 'listingAudit')?.path).toBe('/operation/tradeAudit?tab=listing&status=submitted');
    expect(before.todos.find((todo) => todo.key === 'withdrawal')?.path).toBe('/operation/fundsAudit?tab=withdraw&status=pending');

    await createEnterprise(t.database.db, { auditStatus: 'pending' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    expect((await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now()))).statusCode).toBe(200);
    expect((await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now(), { submit: false }))).statusCode).toBe(200); // a draft waits for no one
    expect((await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()))).statusCode).toBe(200);
    await creditThroughDepositIn(t.database.db, t.clock, seller.actor, await operatorActor(t.database.db), 100_000);
    await pendingDepositIn(seller, 50_000);
    const withdrawal = await post(t.app, '/api/funds/withdraw/apply', seller.token, { amount: 30_000, requestId: newRequestId() });
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);

    const after = counts(await workbench(operator.token));
    const was = counts(before);
    expect(after).toEqual({
      ...was,
      enterpriseAudit: was.enterpriseAudit! + 1,
      listingAudit: was.listingAudit! + 1,
      auctionAudit: was.auctionAudit! + 1,
      depositIn: was.depositIn! + 1,
      withdrawal: was.withdrawal! + 1,
    });
  });

  it('an enterprise sees its own subscriptions to answer, its auctions starting today and its frozen money, never another\'s', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const buyer = await fundedEnterprise(t.app, t.database.db);
    const bystander = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, buyer.actor, await operatorActor(t.database.db), 100_000_000);
    expect(counts(await workbench(buyer.token))).toMatchObject({ subscriptionsToConfirm: 0, subscriptionsAwaiting: 0, auctionsToday: 0, myAuctionsToday: 0, depositsPending: 0, withdrawalsPending: 0 });

    const listing = await post(t.app, '/api/addListedApply', seller.token, listingInput(stockCode, t.clock.now()));
    const listingId = listing.json().result.tradeId as string;
    expect((await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId: listingId })).statusCode).toBe(200);
    const auction = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()));
    const auctionId = auction.json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId: auctionId })).statusCode).toBe(200);
    const enrolled = await post(t.app, '/api/bidEnroll/add', buyer.token, { tradeId: auctionId, acceptRules: true, requestId: newRequestId() });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    t.clock.advance(61_000);
    await runScheduledJobs(t.app);
    const subscribed = await post(t.app, '/api/listedAnswerApply', buyer.token, { tradeId: listingId, quantity: 500_000, requestId: newRequestId() });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    await pendingDepositIn(buyer, 10_000);

    const sellerView = await workbench(seller.token);
    expect(sellerView.heading).toBe(seller.enterprise.organName);
    expect(counts(sellerView)).toMatchObject({ subscriptionsToConfirm: 1, subscriptionsAwaiting: 0, auctionsToday: 0, myAuctionsToday: 1 });
    const buyerView = await workbench(buyer.token);
    expect(counts(buyerView)).toMatchObject({ subscriptionsToConfirm: 0, subscriptionsAwaiting: 1, auctionsToday: 1, myAuctionsToday: 0, depositsPending: 1 });
    // ¥200,000 auction deposit + 500 t × ¥20 subscription deposit, out of ¥1,000,000
    expect(money(buyerView)).toEqual({ frozen: 21_000_000, available: 79_000_000 });
    expect(counts(await workbench(bystander.token))).toEqual({ subscriptionsToConfirm: 0, subscriptionsAwaiting: 0, contractsToSign: 0, ordersToPay: 0, trucksToSign: 0, disputesToAnswer: 0, auctionsToday: 0, myAuctionsToday: 0, statementsToConfirm: 0, invoicesToConfirm: 0, labReportsToConfirm: 0, depositsPending: 0, withdrawalsPending: 0 });
    expect(money(await workbench(bystander.token))).toEqual({ frozen: 0, available: 0 });

    // answered, it is no longer waiting for either side
    const confirmed = await post(t.app, '/api/listedRecord/answerOrdersDeal', seller.token, { id: subscribed.json().result.id, action: 'confirm' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(counts(await workbench(seller.token)).subscriptionsToConfirm).toBe(0);
    expect(counts(await workbench(buyer.token)).subscriptionsAwaiting).toBe(0);
  });

  it('the admin sees locked accounts and the switches; a visitor is refused', async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const view = await workbench(admin.token);
    expect(view.heading).toBe('系统管理员');
    expect(view.todos.map((todo) => todo.key)).toEqual(['lockedAccounts', 'disabledAccounts', 'switchesOn']);
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/api/workbench/todo' });
    expect(response.statusCode).toBe(401);
  });
});
