import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';
import { REPO_ROOT } from './server';

const baseUrl = inject('baseUrl');
const ADMIN = { username: 'admin', password: 'Admin#2026' };
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
const SHOTS = path.join(REPO_ROOT, 'test-results/e2e');
let browser: Browser;
/** The status the refused withdrawal was answered with (422 for a balance too low). */
let refusedStatus = 0;

async function apiToken(account: { username: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  return ((await response.json()) as { result: { token: string } }).result.token;
}

async function api(method: string, url: string, token: string, body?: unknown) {
  return fetch(`${baseUrl}/trade-api${url}`, {
    method,
    headers: { 'X-Access-Token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function openAuditLog(page: Page) {
  await page.goto(`${baseUrl}/system/auditLog`);
  await page.locator('.ant-table-row').first().waitFor();
}

/** Picks an option of the search form's select labelled `label`, typing it first (the lists are long). */
async function choose(page: Page, label: string, option: string) {
  const item = page.locator('.ant-form-item', { hasText: label }).first();
  await item.locator('.ant-select').click();
  if (await item.locator('.ant-select-show-search').count()) await item.locator('.ant-select-selection-search-input').fill(option);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
}

/**
 * The search form's 查询 button, found by its text: antd can leave the spinner of the last load in the button after
 * a quick answer, and the spinner's label ("loading") would then be part of the button's accessible name.
 */
function searchButton(page: Page) {
  return page.locator('.ant-pro-query-filter button', { hasText: /^查\s?询$/ });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  // what the trail is to show: the admin turns the certificate switch on and off again, and a trader's withdrawal
  // larger than any balance is refused
  const admin = await apiToken(ADMIN);
  for (const content of ['1', '0']) expect((await api('PUT', '/sys/switch/update', admin, { code: 'UkeySwitch', content })).status).toBe(200);
  const trader = await apiToken(ACCOUNTS.buyer2);
  const refused = await api('POST', '/api/funds/withdraw/apply', trader, { amount: 9_000_000_000_000, requestId: `e2e-audit-${Date.now()}` });
  refusedStatus = refused.status;
  expect(refusedStatus).toBeGreaterThanOrEqual(400);
});
afterEach(screenshotOnFailure);
afterAll(async () => browser?.close());

describe('操作日志', () => {
  it('the operator finds the admin\'s switch change with its before and after, and a refused withdrawal', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await openAuditLog(page);

    await choose(page, '操作', '修改系统开关');
    await searchButton(page).click();
    const row = page.locator('.ant-table-row', { hasText: '修改系统开关' }).first();
    await row.waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.ant-table-row')].every((r) => r.textContent?.includes('修改系统开关')));
    expect(await row.innerText()).toContain('admin');
    expect(await row.innerText()).toContain('系统管理员');
    expect(await row.innerText()).toContain('系统开关 UkeySwitch');
    await page.screenshot({ path: path.join(SHOTS, 'system-audit-list.png') });

    // the newest row is the switch turned off again: 1 → 0
    await row.getByText('查看').click();
    const drawer = page.locator('.ant-drawer-content', { hasText: '操作详情' });
    await drawer.waitFor();
    const change = drawer.locator('.ant-table-row', { hasText: 'UkeySwitch' });
    expect((await change.innerText()).replace(/\s+/g, ' ')).toBe('UkeySwitch 1 0');
    expect(await drawer.innerText()).toContain('PUT /trade-api/sys/switch/update');
    // the drawer has finished sliding in when its right edge meets the window's
    await page.waitForFunction(() => {
      const panel = document.querySelector('.ant-drawer-content-wrapper');
      return panel !== null && !/motion/.test(panel.className) && Math.abs(panel.getBoundingClientRect().right - window.innerWidth) < 1;
    });
    await page.screenshot({ path: path.join(SHOTS, 'system-audit-detail.png') });
    await drawer.locator('.ant-drawer-close').click();

    // refusals: buyer02's withdrawal, with its code
    await page.getByRole('button', { name: /^重\s?置$/ }).click();
    await choose(page, '结果', '拒绝');
    await page.locator('.ant-form-item', { hasText: '用户' }).first().locator('input').fill('buyer02');
    await searchButton(page).click();
    const refused = page.locator('.ant-table-row', { hasText: '出金申请' }).first();
    await refused.waitFor();
    const text = await refused.innerText();
    expect(text).toContain('津沽能源贸易有限公司');
    expect(text).toContain('拒绝');
    expect(text).toContain(String(refusedStatus));
    await page.screenshot({ path: path.join(SHOTS, 'system-audit-refused.png') });
    await refused.getByText('查看').click();
    const refusedDrawer = page.locator('.ant-drawer-content', { hasText: '操作详情' });
    await refusedDrawer.waitFor();
    expect(await refusedDrawer.innerText()).toMatch(/"requestId": "e2e-audit-\d+"/);
    await refusedDrawer.locator('.ant-drawer-close').click();

    // the export holds what the search shows
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出 Excel' }).click()]);
    expect(download.suggestedFilename()).toBe('操作日志.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('操作日志')!;
    expect(sheet.getRow(2).getCell(6).value).toBe('出金申请');
    expect(sheet.getRow(2).getCell(9).value).toBe('拒绝');
    await context.close();
  });

  it('a trader has no 操作日志: the page is refused and the API answers 403', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.buyer2);
    await page.goto(`${baseUrl}/system/auditLog`);
    await page.getByText('抱歉，您无权访问此页面').waitFor();
    const response = await api('GET', '/sys/auditLog/list', await apiToken(ACCOUNTS.buyer2));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(/操作日志/);
    await context.close();
  });
});
