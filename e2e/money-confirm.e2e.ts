import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { enterPayPassword } from './api';
import { launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const api = `${baseUrl}/trade-api`;
// the demo bidders' own accounts: no other spec reads their balances
const BIDDER1 = { username: 'bidder01', password: 'Trader#2026' };
const BIDDER2 = { username: 'bidder02', password: 'Trader#2026' };
let browser: Browser;

async function call<T>(path: string, init: { token?: string; body?: unknown; method?: string } = {}): Promise<T> {
  const response = await fetch(`${api}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (body.code !== 0) throw new Error(`${path}: ${body.message}`);
  return body.result;
}
const login = async (account: { username: string; password: string }) => (await call<{ token: string }>('/sys/login', { body: account })).token;
/** The trade deposits frozen for one trade (read by trade, so other specs' movements cannot blur it). */
const depositsOf = async (token: string, tradeId: string) =>
  (await call<{ records: { tradeId: string; amount: number }[] }>('/api/deposit/getDepositBalance?pageSize=100', { token })).records
    .filter((d) => d.tradeId === tradeId)
    .map((d) => d.amount);
const withdrawalsOf = async (token: string, amount: number) =>
  (await call<{ records: { amount: number; status: string }[] }>('/api/funds/withdraw/list?pageSize=100', { token })).records.filter((w) => w.amount === amount).length;
const yuan = (fen: number) => `¥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The confirmation shows every figure; cancelling it moves nothing; confirming it moves the money. */
const cancel = (page: Page) => page.locator('.coalx-money-confirm').getByRole('button', { name: /取\s?消/ }).click();
async function confirmation(page: Page, figures: string[]) {
  const dialog = page.getByTestId('money-confirm');
  await dialog.waitFor();
  const text = await dialog.innerText();
  for (const figure of figures) expect(text, figure).toContain(figure);
  return dialog;
}

beforeAll(async () => {
  browser = await launchBrowser();
  // the confirmation comes first, whether or not the pay password is on; here it is on, as a fresh installation has it
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

describe('a confirmation with the amount comes before any money moves', () => {
  it('摘牌: amount, deposit and quantity are confirmed; cancel moves nothing, confirm freezes the deposit', async () => {
    const token = await login(BIDDER1);
    const hall = await call<{ records: { tradeId: string; enterpriseName: string; minSubscribe: number; price: number }[] }>('/api/tradeHome/listedTrade/list', {
      body: { pageNo: 1, pageSize: 50, tradeType: 0, hangState: 1 },
    });
    const listing = hall.records[0]!;

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, BIDDER1);
    await page.goto(`${baseUrl}/hang/hangSale?tradeId=${listing.tradeId}`);
    await page.getByLabel('摘牌数量').fill(String(listing.minSubscribe / 1000));
    const amount = await page.getByTestId('subscribe-amount').innerText();
    const deposit = await page.getByTestId('subscribe-deposit').innerText();
    await page.getByRole('button', { name: '确认摘牌' }).click();
    await confirmation(page, [amount, deposit, listing.tradeId, '吨', '冻结保证金']);
    await page.screenshot({ path: 'test-results/e2e/money-confirm-subscribe.png' });
    await cancel(page);
    await page.getByTestId('money-confirm').waitFor({ state: 'detached' });
    expect(await depositsOf(token, listing.tradeId)).toEqual([]);

    await page.getByRole('button', { name: '确认摘牌' }).click();
    await confirmation(page, [amount, deposit]);
    await page.getByRole('button', { name: '确定摘牌' }).click();
    // then the pay password: cancelling the confirmation never asked it
    await enterPayPassword(page, '摘牌确认：请输入支付密码');
    await page.getByText(/摘牌成功/).waitFor();
    expect((await depositsOf(token, listing.tradeId)).map(yuan)).toEqual([deposit]);
    await context.close();
  });

  it('报名: the deposit is confirmed before it is frozen', async () => {
    const token = await login(BIDDER2);
    const hall = await call<{ records: { tradeId: string; deposit: number }[] }>('/api/tradeHome/bidTrade/list', { body: { pageNo: 1, pageSize: 50, tradeType: 2, hangState: 0 } });
    const auction = hall.records[0]!;

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, BIDDER2);
    await page.goto(`${baseUrl}/deal/biddRegistration?tradeId=${auction.tradeId}`);
    await page.getByText('我已阅读并同意《竞价交易规则》').click();
    await page.getByRole('button', { name: '确认报名并冻结保证金' }).click();
    await confirmation(page, [yuan(auction.deposit), auction.tradeId, '冻结保证金']);
    await cancel(page);
    await page.getByTestId('money-confirm').waitFor({ state: 'detached' });
    expect(await depositsOf(token, auction.tradeId)).toEqual([]);

    await page.getByRole('button', { name: '确认报名并冻结保证金' }).click();
    await confirmation(page, [yuan(auction.deposit)]);
    await page.getByRole('button', { name: '确定报名' }).click();
    await enterPayPassword(page, '竞价报名：请输入支付密码');
    await page.getByText('报名成功，保证金已冻结').waitFor();
    expect(await depositsOf(token, auction.tradeId)).toEqual([auction.deposit]);
    await context.close();
  });

  it('出金: the amount and the receiving account are confirmed; cancelling keeps the form and its values', async () => {
    const token = await login(BIDDER2);
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, BIDDER2);
    await page.goto(`${baseUrl}/financial/application?tab=withdraw&apply=1`);
    const form = page.locator('.ant-modal', { hasText: '申请出金' });
    await form.getByText('银行账号').waitFor();
    await form.getByPlaceholder('请输入出金金额').fill('1234.5');
    await form.getByRole('button', { name: '提交' }).click();
    await confirmation(page, ['¥1,234.50', '尾号', '出金后可用资金']);
    await page.screenshot({ path: 'test-results/e2e/money-confirm-withdraw.png' });
    await cancel(page);
    await page.getByTestId('money-confirm').waitFor({ state: 'detached' });
    expect((await form.getByPlaceholder('请输入出金金额').inputValue()).replace(/,/g, '')).toBe('1234.5');
    expect(await withdrawalsOf(token, 123_450)).toBe(0);

    await form.getByRole('button', { name: '提交' }).click();
    await confirmation(page, ['¥1,234.50']);
    await page.getByRole('button', { name: '确定出金' }).click();
    await enterPayPassword(page, '出金 · 请输入支付密码');
    await page.locator('.ant-message-notice', { hasText: '出金申请已提交，金额已冻结' }).first().waitFor();
    expect(await withdrawalsOf(token, 123_450)).toBe(1);
    await context.close();
  });
});
