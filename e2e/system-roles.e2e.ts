import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';
import { startServer, type RunningServer } from './server';

const ADMIN = { username: 'admin', password: 'Admin#2026' };
const ROLE_NAME = '现货交易员（无竞价）';
/** Set ROLE_SHOTS to a folder to keep screenshots of the pages at 1440×900. */
const SHOTS = process.env.ROLE_SHOTS;

/*
 * This spec runs a server of its own on a folder it keeps: giving a user a role is part A's (用户管理), so until
 * that lands the role is set in the database between two runs of the server (PGlite allows one process at a time).
 */
let browser: Browser;
let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'coalx-e2e-roles-'));
  server = await startServer({ dataDir });
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function apiLogin(account: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${server.baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  return ((await res.json()) as { result: { token: string } }).result.token;
}

const api = (token: string, url: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${server.baseUrl}/trade-api${url}`, {
    method: init.method ?? 'GET',
    headers: { 'X-Access-Token': token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });

const sider = (page: Page) => page.locator('.ant-pro-sider');

describe('角色管理', () => {
  it('the admin creates a trader role without 竞价交易; a trader given it has no such menu and gets 403 from the auction endpoints', { timeout: 420_000 }, async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.baseUrl, ADMIN);
    await page.goto(`${server.baseUrl}/system/role`);
    const table = page.locator('.ant-pro-table');
    // the four built-in roles, each with its base role and users
    for (const name of ['交易员', '企业管理员', '交易中心运营', '系统管理员']) await table.getByRole('cell', { name, exact: true }).first().waitFor();
    await expect.poll(() => table.locator('.ant-tag', { hasText: '内置' }).count()).toBe(4);
    await shot(page, 'role-list');

    await page.getByRole('button', { name: '新增角色' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '新增角色' });
    await dialog.getByPlaceholder('如：现货交易员（无竞价）').fill(ROLE_NAME);
    await dialog.getByPlaceholder('这个角色做什么、给谁用').fill('只做挂牌交易，不参加竞价');
    // a new trader role starts with the whole trader menu; untick 竞价交易 (its pages go with it)
    const auctionNode = dialog.locator('.ant-tree-treenode', { hasText: '竞价交易' }).first();
    await auctionNode.waitFor();
    await auctionNode.locator('.ant-tree-checkbox').first().click();
    await expect.poll(() => dialog.locator('.ant-tree-treenode', { hasText: '竞价报名' }).locator('.ant-tree-checkbox-checked').count()).toBe(0);
    // and 导出 of 支付记录查询: its action boxes sit on the item's row
    const payRecord = dialog.locator('.ant-tree-treenode', { hasText: '支付记录查询' });
    await payRecord.getByRole('checkbox', { name: '导出' }).uncheck();
    await shot(page, 'role-editor');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.locator('.ant-message-notice', { hasText: `角色「${ROLE_NAME}」已创建` }).waitFor();
    const row = table.locator('tr', { hasText: ROLE_NAME });
    await row.getByText('自定义').waitFor();
    await expect.poll(() => row.innerText()).toContain('交易员');
    await shot(page, 'role-list-created');

    // built-in roles offer no delete
    await expect.poll(() => table.locator('tr', { hasText: '系统管理员' }).getByRole('button', { name: /删\s*除/ }).isDisabled()).toBe(true);

    // give buyer02 (a trader of the demo data) the role: stop the server, set it in the database, start again
    await page.context().close();
    await server.stop();
    const db = new PGlite(path.join(dataDir, 'data', 'pglite'));
    try {
      const updated = await db.query(
        `UPDATE sys_user SET role_id = (SELECT id FROM sys_role WHERE name = $1) WHERE username = $2 RETURNING id`,
        [ROLE_NAME, ACCOUNTS.buyer2.username],
      );
      expect(updated.rows).toHaveLength(1);
    } finally {
      await db.close();
    }
    server = await startServer({ dataDir });

    const trader = await newPage(browser);
    await signIn(trader.page, server.baseUrl, ACCOUNTS.buyer2);
    await trader.page.goto(`${server.baseUrl}/workbench`);
    await sider(trader.page).getByText('挂牌交易').waitFor();
    expect(await sider(trader.page).getByText('竞价交易').count()).toBe(0);
    await trader.page.getByText('待办事项').waitFor({ timeout: 20_000 });
    await expect.poll(() => trader.page.locator('.ant-skeleton, .ant-spin-spinning').count(), { timeout: 20_000 }).toBe(0);
    await shot(trader.page, 'trader-menu-without-auction');

    // the server refuses the auction calls themselves, not only the menu
    const token = await apiLogin(ACCOUNTS.buyer2);
    const enrol = await api(token, '/api/bidEnroll/add', { method: 'POST', body: { tradeId: 'JJ20260101001', acceptRules: true, requestId: 'e2e-roles-enrol-1' } });
    expect(enrol.status).toBe(403);
    expect(((await enrol.json()) as { message: string }).message).toBe('您的角色没有「竞价报名」的新增权限，请联系系统管理员');
    const bid = await api(token, '/api/bidRecord/bidAnswerApply', { method: 'POST', body: { tradeId: 'JJ20260101001', price: 60_000 } });
    expect(bid.status).toBe(403);
    expect((await api(token, '/api/funds/journal/export')).status).toBe(403);
    expect((await api(token, '/api/funds/journal/list')).status).toBe(200);

    // the admin gives 竞价交易 back: the trader's menu follows at its next request, without signing in again
    const adminToken = await apiLogin(ADMIN);
    const roles = (await (await api(adminToken, '/sys/role/list')).json()) as { result: { id: number; name: string }[] };
    const role = roles.result.find((r) => r.name === ROLE_NAME)!;
    const tree = (await (await api(adminToken, '/sys/role/menuTree?baseRole=trader')).json()) as { result: Node[] };
    type Node = { id: string; actions: string[]; children?: Node[] };
    const all: { permissionId: string; actions: string[] }[] = [];
    const walk = (nodes: Node[]) => nodes.forEach((n) => (all.push({ permissionId: n.id, actions: n.actions }), walk(n.children ?? [])));
    walk(tree.result);
    const edit = await api(adminToken, '/sys/role/edit', { method: 'PUT', body: { id: role.id, name: ROLE_NAME, description: '', grants: all } });
    expect(edit.status).toBe(200);
    // any call the page makes carries the new grants version: open 我的挂牌
    await sider(trader.page).getByText('挂牌交易').click();
    await sider(trader.page).getByText('我的挂牌').click();
    await sider(trader.page).getByText('竞价交易').waitFor({ timeout: 20_000 });
    await shot(trader.page, 'trader-menu-after-grant');
    expect((await api(token, '/api/bidEnroll/myList', { method: 'POST', body: { pageNo: 1, pageSize: 10 } })).status).toBe(200);
  });
});
