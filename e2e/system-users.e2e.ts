import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const ADMIN = { username: 'admin', password: 'Admin#2026' };
/** Set USERS_SHOTS to a folder to keep screenshots of the page at 1440×900. */
const SHOTS = process.env.USERS_SHOTS;
const STAFF = 'ops_e2e';
let browser: Browser;

async function api(method: string, url: string, token: string, body?: object) {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method,
    headers: { 'X-Access-Token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { result: unknown; message: string } };
}

async function tokenOf(account: { username: string; password: string }) {
  const response = await fetch(`${baseUrl}/trade-api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  return ((await response.json()) as { result: { token: string } }).result.token;
}

/** buyer02 is a demo account other specs sign in with: whatever happens here, it is enabled again. */
async function enableBuyer02() {
  const token = await tokenOf(ADMIN);
  const list = await api('GET', `/sys/user/admin/list?username=${ACCOUNTS.buyer2.username}`, token);
  const row = (list.body.result as { records: { id: number; username: string }[] }).records.find((r) => r.username === ACCOUNTS.buyer2.username);
  if (row) await api('PUT', `/sys/user/admin/${row.id}/disabled`, token, { disabled: false });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await enableBuyer02().catch(() => undefined);
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const messageNotice = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();
const rowOf = (page: Page, username: string) => page.locator('tr.ant-table-row', { has: page.getByText(username, { exact: true }) });

async function search(page: Page, field: string, value: string) {
  const form = page.locator('.ant-pro-query-filter');
  await form.getByLabel(field).fill(value);
  await form.getByRole('button', { name: /查\s*询/ }).click();
}

/** The first-login password the dialog shows once; the dialog is closed after. */
async function readPasswordDialog(page: Page, title: string): Promise<string> {
  const dialog = page.locator('.ant-modal-confirm', { hasText: title });
  await dialog.getByText('该密码只显示这一次', { exact: false }).waitFor();
  const password = (await dialog.locator('code').innerText()).trim();
  expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12}$/);
  return password;
}

describe('用户管理', () => {
  it('the admin lists and searches accounts, creates a staff account, unlocks and resets it, and disabling signs a trader out', async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, ADMIN);
    await page.goto(`${baseUrl}/system/user`);
    await rowOf(page, 'admin').waitFor({ timeout: 20_000 });
    await expect.poll(() => rowOf(page, 'operator').innerText()).toContain('交易中心');
    await shot(page, 'users-list');

    // search by username, then by that account's enterprise: only that enterprise's members
    await search(page, '用户名', 'seller01');
    await expect.poll(() => page.locator('tr.ant-table-row').count()).toBe(1);
    const sellerEnterprise = (await rowOf(page, 'seller01').locator('td').nth(3).innerText()).trim();
    expect(sellerEnterprise.length).toBeGreaterThan(4);
    await page.locator('.ant-pro-query-filter').getByRole('button', { name: /重\s*置/ }).click();
    await search(page, '所属企业', sellerEnterprise.slice(0, 6));
    await rowOf(page, 'seller01').waitFor();
    await expect.poll(() => rowOf(page, 'admin').count()).toBe(0);
    await page.locator('.ant-pro-query-filter').getByRole('button', { name: /重\s*置/ }).click();
    await rowOf(page, 'admin').waitFor();

    // a staff account: its first-login password is shown once
    await page.getByRole('button', { name: '新建账号' }).click();
    const form = page.locator('.ant-modal', { hasText: '新建交易中心账号' });
    await form.getByLabel('用户名').fill(STAFF);
    await form.getByLabel('姓名').fill('周运营');
    await form.getByLabel('手机号码').fill('13912345678');
    await form.getByLabel('角色').click();
    await page.locator('.ant-select-dropdown:visible').getByText('交易中心运营', { exact: true }).click();
    await form.getByRole('button', { name: /创\s*建/ }).click();
    const initial = await readPasswordDialog(page, '账号已创建');
    await shot(page, 'users-created');
    await page.getByRole('button', { name: '我已记下' }).click();
    await search(page, '用户名', STAFF);
    const staffRow = rowOf(page, STAFF);
    await staffRow.waitFor();
    await expect.poll(() => staffRow.innerText()).toContain('未改初始密码');
    await expect.poll(() => staffRow.innerText()).toContain('从未登录');

    // five wrong passwords lock it; the admin unlocks it and the initial password works again
    for (let i = 0; i < 5; i++) {
      await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: STAFF, password: 'wrong1234' }) });
    }
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => staffRow.innerText()).toContain('已锁定');
    await expect.poll(() => staffRow.innerText()).toContain('锁定至');
    await shot(page, 'users-locked');
    await staffRow.getByRole('button', { name: /解\s*锁/ }).click();
    await messageNotice(page, `账号 ${STAFF} 已解锁，可以立即登录`).waitFor();
    await expect.poll(() => staffRow.innerText()).toContain('正常');
    const staffToken = await tokenOf({ username: STAFF, password: initial });
    expect(staffToken).toBeTruthy();

    // reset: a new first-login password, the old one and the session stop working
    await staffRow.getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:visible').getByText('重置密码').click();
    await page.locator('.ant-modal-confirm', { hasText: `重置 ${STAFF} 的密码` }).getByRole('button', { name: '重置密码' }).click();
    const reset = await readPasswordDialog(page, '密码已重置');
    expect(reset).not.toBe(initial);
    await page.getByRole('button', { name: '我已记下' }).click();
    expect((await api('GET', '/sys/user/info', staffToken)).status).toBe(401);
    const again = await tokenOf({ username: STAFF, password: reset });
    expect(((await api('GET', '/sys/user/info', again)).body.result as { isFirstLogin: string }).isFirstLogin).toBe('1');

    // its role: only trading-centre roles are offered to a staff account
    await staffRow.getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:visible').getByText('修改角色').click();
    const roleForm = page.locator('.ant-modal', { hasText: `修改角色：${STAFF}` });
    await roleForm.locator('.ant-select').click();
    const choices = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => choices.allInnerTexts()).toEqual(['交易中心运营', '系统管理员']);
    await choices.filter({ hasText: '系统管理员' }).click();
    await shot(page, 'users-role');
    await roleForm.getByRole('button', { name: /保\s*存/ }).click();
    await messageNotice(page, `账号 ${STAFF} 的角色已改为「系统管理员」`).waitFor();
    await expect.poll(() => staffRow.innerText()).toContain('系统管理员');

    // buyer02 is signed in elsewhere; disabling ends that session at once
    const trader = await newPage(browser);
    await signIn(trader.page, baseUrl, ACCOUNTS.buyer2);
    await page.locator('.ant-pro-query-filter').getByRole('button', { name: /重\s*置/ }).click();
    await search(page, '用户名', ACCOUNTS.buyer2.username);
    const buyerRow = rowOf(page, ACCOUNTS.buyer2.username);
    const sessionsLink = buyerRow.getByText(/^[1-9]\d* 个$/);
    await sessionsLink.waitFor();

    // its sessions, with address and browser
    await sessionsLink.click();
    const drawer = page.locator('.ant-drawer', { hasText: `登录会话：${ACCOUNTS.buyer2.username}` });
    await drawer.locator('tr.ant-table-row').first().waitFor();
    await expect.poll(() => drawer.innerText()).toContain('127.0.0.1');
    await expect.poll(() => drawer.innerText()).toContain('Mozilla');
    // the screenshot once the drawer has slid in (860 px from the right edge)
    await expect.poll(async () => Math.round((await drawer.locator('.ant-drawer-content-wrapper').boundingBox())?.x ?? 0)).toBe(1440 - 860);
    await shot(page, 'users-sessions');
    await drawer.locator('.ant-drawer-close').click();

    await buyerRow.getByRole('button', { name: /停\s*用/ }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /停\s*用/ }).click();
    await messageNotice(page, `账号 ${ACCOUNTS.buyer2.username} 已停用`).waitFor();
    await expect.poll(() => buyerRow.innerText()).toContain('已停用');
    await shot(page, 'users-disabled');
    await trader.page.goto(`${baseUrl}/workbench`);
    await trader.page.waitForURL((url) => url.pathname.startsWith('/user/login'), { timeout: 20_000 });

    // enabled again, it may sign in
    await buyerRow.getByRole('button', { name: /启\s*用/ }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /启\s*用/ }).click();
    await messageNotice(page, `账号 ${ACCOUNTS.buyer2.username} 已启用`).waitFor();
    expect(await tokenOf(ACCOUNTS.buyer2)).toBeTruthy();

    // the admin cannot disable themselves: the server's words
    await page.locator('.ant-pro-query-filter').getByRole('button', { name: /重\s*置/ }).click();
    await search(page, '用户名', 'admin');
    const adminRow = rowOf(page, 'admin');
    await adminRow.getByRole('button', { name: /停\s*用/ }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /停\s*用/ }).click();
    await page.locator('.ant-message-notice', { hasText: '不能停用自己的账号' }).waitFor();
    await shot(page, 'users-self-refused');
  });
});
