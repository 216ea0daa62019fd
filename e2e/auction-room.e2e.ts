import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { payPasswordOf } from './api';
import { launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const api = `${baseUrl}/trade-api`;
// the demo bidders' own accounts: no other spec reads their balances
const BIDDER1 = { username: 'bidder01', password: 'Trader#2026' };
const BIDDER2 = { username: 'bidder02', password: 'Trader#2026' };
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
const login = async (account: { username: string; password: string }) => (await call<{ token: string }>('/sys/login', { body: account })).token;
/** Shanghai wall-clock `YYYY-MM-DD HH:mm:ss` of an instant. */
const shanghai = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
const iso = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
const seconds = (text: string) => text.split(':').map(Number).reduce((acc, n) => acc * 60 + n, 0);

interface Snapshot {
  hangState: number;
  bidEnd: number;
  currentEnd: number;
  serverTime: number;
  bestPrice: number | null;
}
const snapshotOf = (tradeId: string) => call<Snapshot>(`/api/bidRecord/snapshot?tradeId=${tradeId}`);

/** The deadline the room prints equals the server's current end, and the countdown runs to it. */
async function expectDeadlineIsServers(page: Page, tradeId: string) {
  const s = await snapshotOf(tradeId);
  // the push of the server's change reaches the page within moments; then both printed deadlines are the server's
  await expect.poll(async () => shanghai(s.currentEnd).endsWith(await page.getByTestId('board-deadline').innerText()), { timeout: 5_000 }).toBe(true);
  expect(shanghai(s.currentEnd).endsWith(await page.getByTestId('current-end').innerText().then((t) => t.replace('（延时中）', '')))).toBe(true);
  const fresh = await snapshotOf(tradeId);
  const left = seconds(await page.getByTestId('countdown').innerText());
  expect(Math.abs(left - (fresh.currentEnd - fresh.serverTime) / 1000)).toBeLessThanOrEqual(2);
  return fresh;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

describe('auction room: one truth about time, and the result once ended', () => {
  it('prints the regular window and the server’s current deadline side by side, marks the extension, then shows the result', async () => {
    const [seller, operator, bidder1, bidder2] = await Promise.all([
      login({ username: 'seller01', password: 'Trader#2026' }),
      login({ username: 'operator', password: 'Operator#2026' }),
      login(BIDDER1),
      login(BIDDER2),
    ]);
    const now = Date.now();
    const { tradeId } = await call<{ tradeId: string }>('/api/bidApply', {
      token: seller,
      body: {
        tradeType: 2, stockCode: 'DLM5500', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, quantity: 1_000_000,
        startPrice: 80_000, minStep: 100, maxStep: 1_000, limitPrice: null, deposit: 5_000_000,
        enrolDeadline: iso(now + 7_000), bidStart: iso(now + 8_000), bidEnd: iso(now + 20_000), extensionSeconds: 30,
        priceType: 'factory_tax', transport: 'road', deliveryProvince: '山西省', deliveryCity: '太原市', deliveryPlace: 'E2E 竞价时间储煤场',
        deliveryDateStart: iso(now + 86_400_000).slice(0, 10), deliveryDateEnd: iso(now + 10 * 86_400_000).slice(0, 10), submit: true,
      },
    });
    await call('/api/auction/audit/approve', { token: operator, body: { tradeId } });
    const pay = [await payPasswordOf(BIDDER1), await payPasswordOf(BIDDER2)];
    for (const [i, token] of [bidder1, bidder2].entries()) await call('/api/bidEnroll/add', { token, body: { tradeId, acceptRules: true, requestId: crypto.randomUUID(), payPassword: pay[i] } });

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, BIDDER1);
    // the live socket: no token in its address, the sign-in is its first message
    const sockets: { url: string; sent: string[]; received: string[] }[] = [];
    page.on('websocket', (ws) => {
      const seen = { url: ws.url(), sent: [] as string[], received: [] as string[] };
      sockets.push(seen);
      ws.on('framesent', (frame) => seen.sent.push(String(frame.payload)));
      ws.on('framereceived', (frame) => seen.received.push(String(frame.payload)));
    });
    await page.goto(`${baseUrl}/deal/bidding?tradeId=${tradeId}`);
    await page.getByText('我的代号').waitFor();
    await expect.poll(() => sockets[0]?.received.some((m) => m.includes('"type":"auth"')) ?? false).toBe(true);
    expect(sockets[0]!.url).not.toContain('token');
    expect(JSON.parse(sockets[0]!.sent[0]!)).toMatchObject({ type: 'auth', token: expect.any(String) });
    expect(sockets[0]!.received.find((m) => m.includes('"type":"auth"'))).toBe('{"type":"auth","ok":true}');
    await expect.poll(async () => (await snapshotOf(tradeId)).hangState, { timeout: 20_000, intervals: [500] }).toBe(2);
    await page.getByText('距竞价结束').waitFor();

    // before any bid the deadline is the regular end, and the rules box prints the same window
    const first = await expectDeadlineIsServers(page, tradeId);
    expect(first.currentEnd).toBe(first.bidEnd);
    const regular = await page.getByTestId('regular-window').innerText();
    expect(regular.endsWith(shanghai(first.bidEnd).slice(11, 16))).toBe(true);
    expect(await page.getByTestId('current-end').innerText()).not.toContain('延时中');

    // a bid moves the deadline past the regular end: both are shown, marked 延时中, and the countdown follows
    await call('/api/bidRecord/bidAnswerApply', { token: bidder2, body: { tradeId, price: 80_000 } });
    await page.getByTestId('current-end').getByText('延时中').waitFor();
    const extended = await expectDeadlineIsServers(page, tradeId);
    expect(extended.currentEnd).toBeGreaterThan(extended.bidEnd);
    expect(await page.getByTestId('regular-window').innerText()).toBe(regular);
    await page.screenshot({ path: 'test-results/e2e/auction-room-extended.png' });

    // a bid after the regular end restarts the period: the printed deadline is the server's new one
    await expect.poll(() => Date.now() > extended.bidEnd + 1_500, { timeout: 20_000, intervals: [500] }).toBe(true);
    await call('/api/bidRecord/bidAnswerApply', { token: bidder1, body: { tradeId, price: 80_500 } });
    await expect.poll(async () => (await snapshotOf(tradeId)).currentEnd, { timeout: 5_000 }).toBeGreaterThan(extended.currentEnd);
    await expectDeadlineIsServers(page, tradeId);

    // bidder02 outbids; nobody answers within 30 s: the server ends it and the room shows the result, not the race
    await call('/api/bidRecord/bidAnswerApply', { token: bidder2, body: { tradeId, price: 81_000 } });
    await expect.poll(() => page.getByTestId('countdown').innerText(), { timeout: 60_000, intervals: [1_000] }).toBe('成交');
    const outcome = page.getByTestId('auction-outcome');
    await outcome.getByText('成交价').waitFor();
    expect((await page.getByTestId('deal-price').innerText()).replace(/\s+/g, '')).toBe('810.00元/吨');
    const result = await call<{ winner: string }>('/api/bidResult', { token: bidder1, body: { tradeId } });
    await outcome.getByText(`中标企业 ${result.winner}`).waitFor();
    expect(result.winner).toContain('*'); // masked
    await page.getByText('未中标 · 保证金已释放').waitFor();
    const text = await page.locator('.coalx-bidding').innerText();
    for (const stale of ['当前最高价', '领先', '被超越', '下一有效出价', '延时中']) expect(text, stale).not.toContain(stale);
    expect(await page.getByTestId('current-end').innerText()).toBe(await page.getByTestId('board-deadline').innerText());
    await page.screenshot({ path: 'test-results/e2e/auction-room-ended.png' });

    // the result notice's headline says 成交价
    await page.goto(`${baseUrl}/biddingResults?tradeId=${tradeId}`);
    await page.getByTestId('auction-result').waitFor();
    const notice = await page.locator('.coalx-auction-headline').innerText();
    expect(notice).toContain('成交价');
    expect(notice).not.toContain('当前最优价');
    await context.close();
  });

  it('the home page’s live auction card shows the current price beside the start price', async () => {
    const list = await call<{ records: { tradeId: string; tradeType: number; hangState: number; bestPrice: number | null; startPrice: number | null }[] }>(
      '/api/tradeHome/recommend/list',
      { body: { pageNo: 1, pageSize: 50 } },
    );
    const live = list.records.find((r) => r.tradeType === 2 && r.hangState === 2 && r.bestPrice !== null);
    expect(live, 'the demo market recommends a live auction with bids').toBeDefined();
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    const card = page.locator(`[data-testid="recommend-card"][data-trade-id="${live!.tradeId}"]`);
    await card.waitFor();
    const current = card.getByTestId('recommend-current-price');
    expect(await current.innerText()).toMatch(/^当前价\s*[\d,]+\.\d{2} 元\/吨$/);
    expect(await card.innerText()).toContain('起拍价');
    await card.screenshot({ path: 'test-results/e2e/home-live-auction-card.png' });
    await context.close();
  });
});
