import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const ADMIN = { username: 'admin', password: 'Admin#2026' };
/** Set SYSTEM_SHOTS to a folder to keep screenshots of the pages at 1440×900. */
const SHOTS = process.env.SYSTEM_SHOTS;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  // the server is shared by every spec: put back what this one changed
  const token = await apiToken();
  await api(token, 'POST', '/sys/dict/item/edit', { dictCode: 'enterprise_type', value: 'mine', text: '煤矿', sort: 0, enabled: true });
  await api(token, 'PUT', '/sys/param/update', { code: 'auto_sign_for_days', value: 3 });
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const messageNotice = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

async function apiToken(): Promise<string> {
  const login = await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  return ((await login.json()) as { result: { token: string } }).result.token;
}

async function api(token: string, method: string, url: string, body?: object) {
  const res = await fetch(`${baseUrl}/trade-api${url}`, {
    method,
    headers: { 'X-Access-Token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { result: unknown; message: string };
}

/** The 企业类型 cell of the trader's 企业信息 page. */
const enterpriseTypeCell = (page: Page) => page.locator('.ant-descriptions-item', { hasText: '企业类型' }).locator('.ant-descriptions-item-content').first();

describe('数据字典', () => {
  it('the admin renames a dictionary text; the trader sees it after a reload; a value in use cannot be deleted', async () => {
    // the trader's page with the dictionaries cached at the current version
    const trader = await newPage(browser);
    await signIn(trader.page, baseUrl, ACCOUNTS.seller);
    await trader.page.goto(`${baseUrl}/companyInfo`);
    await expect.poll(() => enterpriseTypeCell(trader.page).innerText(), { timeout: 20_000 }).toBe('煤矿');
    const cachedVersion = await trader.page.evaluate(() => localStorage.getItem('all_dict_version'));
    expect(cachedVersion).not.toBeNull();

    const admin = await newPage(browser);
    await signIn(admin.page, baseUrl, ADMIN);
    await admin.page.goto(`${baseUrl}/system/dict`);
    const { page } = admin;
    await page.getByRole('menuitem', { name: /企业类型/ }).click();
    const row = page.locator('tr', { has: page.locator('code', { hasText: /^mine$/ }) });
    await row.getByText('煤矿', { exact: true }).waitFor();
    // the demo enterprises hold 'mine': deletion is offered only as disabled, with the reason on hover
    await expect.poll(() => row.getByRole('button', { name: '删除' }).isDisabled()).toBe(true);
    await row.getByText(/\d+ 条/).waitFor();
    await shot(page, 'dict-list');

    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '编辑字典项：煤矿' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('字典值').isDisabled()).toBe(true);
    await dialog.getByLabel('显示文字').fill('');
    await dialog.getByRole('button', { name: '保 存' }).or(dialog.getByRole('button', { name: '保存' })).click();
    await dialog.getByText('请输入显示文字').waitFor();
    await dialog.getByLabel('显示文字').fill('煤矿企业');
    await shot(page, 'dict-edit');
    await dialog.getByRole('button', { name: /保\s?存/ }).click();
    await messageNotice(page, '已保存字典项「煤矿企业」').waitFor();
    await row.getByText('煤矿企业', { exact: true }).waitFor();
    await shot(page, 'dict-saved');

    // the trader's page still has the old text until it loads again; after a reload the user info's version differs
    // from the cached one and the dictionaries are fetched again
    await trader.page.reload();
    await expect.poll(() => enterpriseTypeCell(trader.page).innerText(), { timeout: 20_000 }).toBe('煤矿企业');
    await expect.poll(() => trader.page.evaluate(() => localStorage.getItem('all_dict_version'))).not.toBe(cachedVersion);
    await shot(trader.page, 'dict-trader-after-reload');
    await trader.context.close();
    await admin.context.close();
  });
});

describe('系统参数', () => {
  it('the admin is refused a value out of range, saves one in range, and sees the 2026 holidays', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ADMIN);
    await page.goto(`${baseUrl}/system/param`);
    const row = page.locator('tr', { hasText: '自动签收期限' });
    await row.getByText('3 个工作日', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.locator('tr', { hasText: '合理价格下限（5500 大卡）' }).getByText('570.00 元/吨').first().waitFor();
    await shot(page, 'param-list');

    await row.getByRole('button', { name: '修改自动签收期限' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '修改自动签收期限' });
    const input = dialog.getByRole('spinbutton');
    await input.fill('31');
    await dialog.getByRole('button', { name: /保\s?存/ }).click();
    await dialog.getByText('自动签收期限须在 1 个工作日 至 30 个工作日 之间').waitFor();
    await shot(page, 'param-refused');
    await input.fill('5');
    await dialog.getByRole('button', { name: /保\s?存/ }).click();
    await messageNotice(page, '自动签收期限已改为 5 个工作日，此后新产生的业务按新值执行').waitFor();
    await row.getByText('已修改').waitFor();
    await row.getByText('5 个工作日', { exact: true }).first().waitFor();

    await page.getByRole('tab', { name: '节假日' }).click();
    await page.getByText('2026 年', { exact: true }).click();
    await page.locator('tr', { hasText: '2026-10-01' }).getByText('国庆节').waitFor();
    await page.locator('tr', { hasText: '2026-10-10' }).locator('.ant-tag', { hasText: '调休上班' }).waitFor();
    await shot(page, 'param-holidays');
    await context.close();
  });
});
