import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { payPasswordOf } from './api';
import { ACCOUNTS, launchBrowser, newPage, signIn } from './browser';

const baseUrl = inject('baseUrl');
const api = `${baseUrl}/trade-api`;
let browser: Browser;

async function call<T>(path: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${api}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (body.code !== 0) throw new Error(`${path}: ${body.message}`);
  return body.result;
}
const login = async (username: string, password: string) => (await call<{ token: string }>('/sys/login', { body: { username, password } })).token;
const iso = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
const day = (ms: number) => iso(ms).slice(0, 10);
const frozen = async (token: string) => (await call<{ frozen: number }>('/api/fundinfo/getFundInfo', { token })).frozen;

/** The three figures every screen must agree on: best price, countdown text, bid count of the history. */
async function board(page: Page) {
  return {
    price: (await page.getByTestId('best-price').innerText()).replace(/\s+/g, ''),
    countdown: (await page.getByTestId('countdown').innerText()).trim(),
  };
}
const seconds = (text: string) => {
  const parts = text.split(':').map(Number);
  return parts.some(Number.isNaN) ? NaN : parts.reduce((acc, n) => acc * 60 + n, 0);
};

async function bidThroughPage(page: Page, yuan: string) {
  await page.getByTestId('bid-input').fill(yuan);
  await page.getByTestId('bid-submit').click();
  const confirm = page.locator('.ant-modal-confirm');
  await confirm.getByTestId('confirm-price').getByText(`${Number(yuan).toLocaleString('en-US', { minimumFractionDigits: 2 })} 元/吨`).waitFor();
  await confirm.getByRole('button', { name: '确认出价' }).click();
  await page.locator('.ant-message-notice', { hasText: '出价成功' }).first().waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('auction trading (竞价)', () => {
  it('two buyers bid against each other while seller01 watches: same price and countdown on all three screens; the loser’s deposit is released', async () => {
    const [seller, buyer1, buyer2, operator] = await Promise.all([
      login(ACCOUNTS.seller.username, ACCOUNTS.seller.password),
      login(ACCOUNTS.buyer.username, ACCOUNTS.buyer.password),
      login(ACCOUNTS.buyer2.username, ACCOUNTS.buyer2.password),
      login('operator', 'Operator#2026'),
    ]);
    // 1. a short auction sale through the API: enrolment closes in a few seconds, 20 s of bidding, 30 s extension
    const now = Date.now();
    const auction = await call<{ tradeId: string }>('/api/bidApply', {
      token: seller,
      body: {
        tradeType: 2,
        stockCode: 'DLM5500',
        quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 },
        quantity: 1_000_000,
        startPrice: 80_000,
        minStep: 100,
        maxStep: 1_000,
        limitPrice: null,
        deposit: 5_000_000,
        enrolDeadline: iso(now + 9_000),
        bidStart: iso(now + 10_000),
        bidEnd: iso(now + 30_000),
        extensionSeconds: 30,
        priceType: 'factory_tax',
        transport: 'road',
        deliveryProvince: '山西省',
        deliveryCity: '太原市',
        deliveryPlace: 'E2E 竞价储煤场',
        deliveryDateStart: day(now + 86_400_000),
        deliveryDateEnd: day(now + 10 * 86_400_000),
        submit: true,
      },
    });
    const tradeId = auction.tradeId;
    await call('/api/auction/audit/approve', { token: operator, body: { tradeId } });
    const before1 = await frozen(buyer1);
    const before2 = await frozen(buyer2);
    // each with its enterprise's pay password (a fresh installation asks it)
    const pay = [await payPasswordOf(ACCOUNTS.buyer), await payPasswordOf(ACCOUNTS.buyer2)];
    for (const [i, token] of [buyer1, buyer2].entries()) await call('/api/bidEnroll/add', { token, body: { tradeId, acceptRules: true, requestId: crypto.randomUUID(), payPassword: pay[i] } });
    expect(await frozen(buyer1)).toBe(before1 + 5_000_000);

    // 2. three screens in the bidding room
    const [b1, b2, watcher] = await Promise.all([newPage(browser), newPage(browser), newPage(browser)]);
    await signIn(b1.page, baseUrl, ACCOUNTS.buyer);
    await signIn(b2.page, baseUrl, ACCOUNTS.buyer2);
    await signIn(watcher.page, baseUrl, ACCOUNTS.seller);
    const screens = [b1.page, b2.page, watcher.page];
    for (const page of screens) await page.goto(`${baseUrl}/deal/bidding?tradeId=${tradeId}`);
    await b1.page.getByText('我的代号').waitFor();
    await watcher.page.getByText('本企业未报名此竞价，仅可观看。').waitFor();

    const allAgree = async (price: string) => {
      await expect.poll(async () => Promise.all(screens.map(async (p) => (await board(p)).price)), { timeout: 5_000 }).toEqual([price, price, price]);
      // polled: a screen that loaded just before enrolment closed shows the old countdown until the move reaches it
      const spread = async () => {
        const counts = (await Promise.all(screens.map(board))).map((b) => seconds(b.countdown));
        return Math.max(...counts) - Math.min(...counts);
      };
      await expect.poll(spread, { timeout: 5_000 }).toBeLessThanOrEqual(1);
    };

    // before the start every screen counts down to the same start
    await allAgree('800.00元/吨');
    await expect.poll(async () => (await call<{ hangState: number }>(`/api/bidRecord/snapshot?tradeId=${tradeId}`)).hangState, { timeout: 30_000, intervals: [500] }).toBe(2);
    await expect.poll(() => b1.page.getByTestId('bid-submit').isEnabled(), { timeout: 5_000 }).toBe(true);

    // 3. bids through the page: the input proposes the next valid price
    expect(await b1.page.getByTestId('bid-input').inputValue()).toBe('800');
    await bidThroughPage(b1.page, '800');
    await allAgree('800.00元/吨');
    await b1.page.getByTestId('my-rank').getByText('第 1 名').waitFor();
    await b1.page.getByText('领先').waitFor();

    await bidThroughPage(b2.page, '805.50');
    await allAgree('805.50元/吨');
    await b1.page.getByText(/被超越/).waitFor();
    await b2.page.getByText('领先').waitFor();

    // a refusal shows the server's message (too big a step), the price stays
    await b1.page.getByTestId('bid-input').fill('830');
    expect(await b1.page.getByTestId('bid-submit').isDisabled()).toBe(true);
    await b1.page.getByText('出价不能高于当前价加最大加价幅度 (815.50 元/吨)').waitFor();

    // a quick bid (+2 min steps)
    await b1.page.locator('.coalx-bid-quick button').nth(1).click();
    await b1.page.locator('.ant-modal-confirm').getByRole('button', { name: '确认出价' }).click();
    await b1.page.locator('.ant-message-notice', { hasText: '出价成功' }).first().waitFor();
    await allAgree('807.50元/吨');

    // 4. the regular end passes: the server extends, then ends (no bid for 30 s); the page never decides by itself
    await expect.poll(() => watcher.page.getByTestId('countdown').innerText(), { timeout: 90_000, intervals: [1_000] }).toBe('成交');
    for (const page of screens) await expect.poll(() => page.getByTestId('countdown').innerText(), { timeout: 10_000 }).toBe('成交');

    // 5. the result notice, and the loser's (buyer02) deposit released while the winner's stays frozen
    await watcher.page.goto(`${baseUrl}/biddingResults?tradeId=${tradeId}`);
    const result = watcher.page.getByTestId('auction-result');
    await result.waitFor();
    expect(await result.innerText()).toContain('807.50');
    await expect.poll(() => frozen(buyer2), { timeout: 10_000 }).toBe(before2);
    expect(await frozen(buyer1)).toBe(before1 + 5_000_000);
    for (const s of [b1, b2, watcher]) await s.context.close();
  }, 240_000);
});
