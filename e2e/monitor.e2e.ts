import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { payPasswordOf, shot } from './api';
import { launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const api = `${baseUrl}/trade-api`;
const SHOTS = 'test-results/e2e/monitor';
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
// the demo bidders (冀东热电 and 苏南港口); their deposits are released again by the cancel at the end
const BIDDER1 = { username: 'bidder01', password: 'Trader#2026' };
const BIDDER2 = { username: 'bidder02', password: 'Trader#2026' };
const BIDDER1_NAME = '冀东热电燃料有限公司';
const BIDDER2_NAME = '苏南港口煤炭贸易有限公司';
const SELLER_NAME = '晋北煤业集团有限公司';
let browser: Browser;

async function call<T>(path: string, init: { token?: string; body?: unknown } = {}): Promise<{ code: number; message: string; result: T }> {
  const response = await fetch(`${api}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await response.json()) as { code: number; message: string; result: T };
}
async function ok<T>(path: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const body = await call<T>(path, init);
  if (body.code !== 0) throw new Error(`${path}: ${body.message}`);
  return body.result;
}
const login = async (account: { username: string; password: string }) => (await ok<{ token: string }>('/sys/login', { body: account })).token;
const iso = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
const hangStateOf = async (tradeId: string) => (await ok<{ hangState: number }>(`/api/bidRecord/snapshot?tradeId=${tradeId}`)).hangState;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

describe('实时监控: the live market board, pause / resume / cancel, the staff view of the room', () => {
  it('a bid reaches the board live; a pause stops the bidder with the reason; resume; staff names; cancel releases deposits', async () => {
    const [seller, bidder1, bidder2] = await Promise.all([login({ username: 'seller01', password: 'Trader#2026' }), login(BIDDER1), login(BIDDER2)]);
    const operator = await login(OPERATOR);
    const now = Date.now();
    const { tradeId } = await ok<{ tradeId: string }>('/api/bidApply', {
      token: seller,
      body: {
        tradeType: 2, stockCode: 'DLM5500', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, quantity: 2_000_000,
        startPrice: 80_000, minStep: 100, maxStep: 1_000, limitPrice: null, deposit: 5_000_000,
        enrolDeadline: iso(now + 7_000), bidStart: iso(now + 8_000), bidEnd: iso(now + 15 * 60_000), extensionSeconds: 60,
        priceType: 'factory_tax', transport: 'road', deliveryProvince: '山西省', deliveryCity: '太原市', deliveryPlace: 'E2E 监控储煤场',
        deliveryDateStart: iso(now + 86_400_000).slice(0, 10), deliveryDateEnd: iso(now + 10 * 86_400_000).slice(0, 10), submit: true,
      },
    });
    await ok('/api/auction/audit/approve', { token: operator, body: { tradeId } });
    const pay = [await payPasswordOf(BIDDER1), await payPasswordOf(BIDDER2)];
    for (const [i, token] of [bidder1, bidder2].entries()) await ok('/api/bidEnroll/add', { token, body: { tradeId, acceptRules: true, requestId: crypto.randomUUID(), payPassword: pay[i] } });

    // the operator's board: today's auction under the seller's real name
    const { page: board } = await newPage(browser);
    await signIn(board, baseUrl, OPERATOR);
    await board.goto(`${baseUrl}/operation/monitor`);
    const row = board.locator('tr', { has: board.getByTestId(`state-${tradeId}`) });
    await row.waitFor();
    await row.getByText(SELLER_NAME).waitFor();
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('2 家');
    await board.getByText('实时更新').waitFor();
    await expect.poll(() => hangStateOf(tradeId), { timeout: 20_000, intervals: [500] }).toBe(2);

    // a bid placed by a bidder arrives on the board by itself (no reload)
    await ok('/api/bidRecord/bidAnswerApply', { token: bidder2, body: { tradeId, price: 80_500 } });
    await expect.poll(() => board.getByTestId(`price-${tradeId}`).innerText(), { timeout: 5_000 }).toBe('¥805.00');
    expect(await board.getByTestId(`bids-${tradeId}`).innerText()).toBe('1 次');
    expect(await row.innerText()).toContain('溢价 ¥5.00（0.63%）');
    await board.screenshot({ path: `${SHOTS}/board-live.png` });

    // the bidder watches the room
    const { page: room } = await newPage(browser);
    await signIn(room, baseUrl, BIDDER1);
    await room.goto(`${baseUrl}/deal/bidding?tradeId=${tradeId}`);
    await room.getByText('我的代号').waitFor();
    await room.getByText('距竞价结束').waitFor();

    // 暂停 with a reason: the board and the bidder's room show it, with the frozen time left; a bid is refused
    await row.getByTestId(`pause-${tradeId}`).click();
    const dialog = board.locator('.ant-modal-content');
    await dialog.getByText(`暂停竞价 ${tradeId}`).waitFor();
    await dialog.getByTestId('operate-reason').fill('行情异常波动，核查中');
    await shot(SHOTS, board, 'pause-dialog');
    await dialog.getByRole('button', { name: '确认暂停' }).click();
    await expect.poll(() => board.getByTestId(`state-${tradeId}`).innerText(), { timeout: 5_000 }).toBe('暂停');
    const banner = room.getByTestId('paused-banner');
    await banner.waitFor({ timeout: 5_000 });
    expect(await banner.innerText()).toContain('竞价已暂停：行情异常波动，核查中');
    await room.getByText('竞价已暂停 · 剩余时间').waitFor();
    const frozen = await room.getByTestId('countdown').innerText();
    await room.waitForTimeout(1_500);
    expect(await room.getByTestId('countdown').innerText()).toBe(frozen); // the clock does not run while paused
    const refused = await call('/api/bidRecord/bidAnswerApply', { token: bidder1, body: { tradeId, price: 80_600 } });
    expect(refused.code).not.toBe(0);
    expect(refused.message).toBe('竞价已暂停：行情异常波动，核查中，恢复后可继续出价');
    await room.screenshot({ path: `${SHOTS}/room-paused.png` });
    await board.screenshot({ path: `${SHOTS}/board-paused.png` });

    // 恢复: the countdown runs again from the time left, and bids are accepted
    await row.getByTestId(`resume-${tradeId}`).click();
    await dialog.getByRole('button', { name: '确认恢复' }).click();
    await banner.waitFor({ state: 'detached', timeout: 5_000 });
    await room.getByText('距竞价结束').waitFor();
    await expect.poll(() => board.getByTestId(`state-${tradeId}`).innerText(), { timeout: 5_000 }).toBe('竞价中');
    await ok('/api/bidRecord/bidAnswerApply', { token: bidder1, body: { tradeId, price: 80_600 } });
    await expect.poll(() => board.getByTestId(`price-${tradeId}`).innerText(), { timeout: 5_000 }).toBe('¥806.00');
    await room.screenshot({ path: `${SHOTS}/room-resumed.png` });

    // 进入竞价室 from the board: the staff view names every bidder, has no bid panel and carries the controls
    await row.getByTestId(`room-${tradeId}`).click();
    await board.getByTestId('staff-view').waitFor();
    await board.getByText(BIDDER1_NAME).first().waitFor();
    await board.getByText(BIDDER2_NAME).first().waitFor();
    const staffText = await board.locator('.coalx-bidding').innerText();
    expect(staffText).not.toContain('本企业未报名此竞价');
    expect(staffText).toContain('交易中心操作');
    expect(await board.locator('.coalx-bidding').getByRole('button', { name: '暂停' }).count()).toBe(1);
    // the bidder's own room never names them
    const bidderText = await room.locator('.coalx-bidding').innerText();
    for (const name of [BIDDER1_NAME, BIDDER2_NAME]) expect(bidderText).not.toContain(name);
    await board.screenshot({ path: `${SHOTS}/room-staff.png` });

    // 撤销 from the staff room: the confirmation shows the deposits it releases, then the room shows 已撤销
    await board.getByTestId(`cancel-${tradeId}`).click();
    await expect.poll(() => board.getByTestId('cancel-deposits').innerText(), { timeout: 5_000 }).toContain('将释放 2 家报名企业的保证金，共 ¥100,000.00');
    await board.getByTestId('operate-reason').fill('发布信息有误，撤销重发');
    await shot(SHOTS, board, 'cancel-dialog');
    await board.locator('.ant-modal-content').getByRole('button', { name: '确认撤销' }).click();
    await board.getByTestId('cancelled-banner').waitFor({ timeout: 5_000 });
    await room.getByTestId('cancelled-banner').waitFor({ timeout: 5_000 });
    expect(await hangStateOf(tradeId)).toBe(5);
    await room.screenshot({ path: `${SHOTS}/room-cancelled.png` });
    await board.goto(`${baseUrl}/operation/monitor`);
    await expect.poll(() => board.getByTestId(`state-${tradeId}`).innerText(), { timeout: 5_000 }).toBe('已撤销');
    await board.screenshot({ path: `${SHOTS}/board-cancelled.png`, fullPage: true });
  });
});
