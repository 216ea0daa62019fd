import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, pathOf, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
const ADMIN = { username: 'admin', password: 'Admin#2026' };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function apiToken(account: { username: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/trade-api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  return ((await response.json()) as { result: { token: string } }).result.token;
}

/** The total of one of the pages the 待办 links to: the truth the counts must match. */
async function listTotal(token: string, method: 'GET' | 'POST', url: string, body?: object): Promise<number> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'X-Access-Token': token },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { total: number } }).result.total;
}

/** Opens the workspace from the header's 工作台 link, as a user would after signing in. */
async function openWorkspace(page: Page) {
  await page.locator('.coalx-header-link', { hasText: '工作台' }).click();
  await page.waitForURL('**/workbench');
  await page.getByTestId('workbench-summary').waitFor();
}

const count = async (page: Page, key: string) => Number(await page.getByTestId(`todo-${key}`).getByTestId('todo-count').innerText());

describe('工作台首页 (待办)', () => {
  it('the operator lands on its 待办 with the counts of the audit and funds queues, and each card opens its page', async () => {
    const token = await apiToken(OPERATOR);
    const truth = {
      enterpriseAudit: await listTotal(token, 'GET', '/sys/enterprise/audit/list?auditStatus=pending'),
      listingAudit: await listTotal(token, 'POST', '/api/listing/audit/list', { status: 'submitted' }),
      auctionAudit: await listTotal(token, 'POST', '/api/auction/audit/list', { status: 'submitted' }),
      depositIn: await listTotal(token, 'GET', '/api/funds/admin/depositIn/list?status=pending'),
      withdrawal: await listTotal(token, 'GET', '/api/funds/admin/withdraw/list?status=pending'),
    };
    expect(truth.enterpriseAudit).toBeGreaterThanOrEqual(2); // pending01 and pending02 of the demo data

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await openWorkspace(page);
    await page.getByText('当前账号未关联企业').waitFor({ state: 'detached' });
    for (const [key, expected] of Object.entries(truth)) expect(await count(page, key), key).toBe(expected);
    await page.screenshot({ path: 'test-results/e2e/workbench-operator.png' });

    await page.getByTestId('todo-enterpriseAudit').click();
    await page.waitForURL('**/operation/enterpriseAudit?auditStatus=pending');
    expect(pathOf(page)).toBe('/operation/enterpriseAudit?auditStatus=pending');
    await context.close();
  });

  it('a trader lands on its 待办 with its subscriptions, auctions and frozen money; the admin on its own', async () => {
    const token = await apiToken(ACCOUNTS.buyer);
    const funds = await fetch(`${baseUrl}/trade-api/api/fundinfo/getFundInfo`, { headers: { 'X-Access-Token': token } });
    const { frozen, available } = ((await funds.json()) as { result: { frozen: number; available: number } }).result;
    const yuanText = (fen: number) => `¥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.buyer);
    await openWorkspace(page);
    expect(await page.getByTestId('workbench-summary').innerText()).toContain('华东电力燃料有限公司');
    for (const key of ['subscriptionsToConfirm', 'subscriptionsAwaiting', 'auctionsToday', 'depositsPending']) {
      await page.getByTestId(`todo-${key}`).waitFor();
    }
    expect((await page.getByTestId('money-frozen').innerText()).replace(/\s+/g, '')).toContain(yuanText(frozen));
    expect((await page.getByTestId('money-available').innerText()).replace(/\s+/g, '')).toContain(yuanText(available));
    await page.screenshot({ path: 'test-results/e2e/workbench-trader.png' });
    await context.close();

    const admin = await newPage(browser);
    await signIn(admin.page, baseUrl, ADMIN);
    await openWorkspace(admin.page);
    await admin.page.getByTestId('todo-switchesOn').waitFor();
    expect(await admin.page.getByText('当前账号未关联企业').count()).toBe(0);
    await admin.context.close();
  });
});
