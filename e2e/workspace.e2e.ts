import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, pathOf, signIn } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function tabMenu(page: Page, title: string, action: string) {
  // wait until no tab menu is open (an earlier one may still be fading out), then open this tab's
  await page.waitForFunction(() => ![...document.querySelectorAll('.coalx-tab-menu')].some((e) => !e.classList.contains('ant-dropdown-hidden')));
  await page.locator('.coalx-tab-label', { hasText: title }).click({ button: 'right' });
  await page.locator('.coalx-tab-menu:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: action }).click();
}

async function expectMessage(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

const tabTitles = (page: Page) => page.locator('.coalx-tab-label').allInnerTexts();

describe('workspace', () => {
  it('menu from the server, a tab per page, and the tab messages', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.goto(`${baseUrl}/workspace`);
    await page.waitForURL('**/workbench'); // the workspace opens on the 工作台首页 (待办)
    await page.locator('.coalx-tab-label', { hasText: '工作台首页' }).waitFor();

    await page.locator('.ant-pro-sider').getByText('挂牌交易').click();
    await page.locator('.ant-pro-sider').getByText('发起挂牌').click();
    await page.waitForURL('**/listingTrade/start');
    await page.waitForFunction(() => document.title === '发起挂牌 - CoalX 煤炭现货交易平台');
    expect(await tabTitles(page)).toEqual(['工作台首页', '发起挂牌']);

    await tabMenu(page, '工作台首页', '关闭左侧');
    await expectMessage(page, '左侧没有标签');
    await tabMenu(page, '发起挂牌', '关闭右侧');
    await expectMessage(page, '右侧没有标签');
    expect(await tabTitles(page)).toEqual(['工作台首页', '发起挂牌']);

    // closing the current tab goes to its neighbour; the last one cannot be closed
    await tabMenu(page, '发起挂牌', '关闭当前');
    await page.waitForURL('**/workbench');
    expect(await tabTitles(page)).toEqual(['工作台首页']);
    await tabMenu(page, '工作台首页', '关闭当前');
    await expectMessage(page, '这是最后一个标签了, 无法被关闭');
    expect(await tabTitles(page)).toEqual(['工作台首页']);
    expect(pathOf(page)).toBe('/workbench');
    await context.close();
  });

  it('a page outside the role\'s menu is refused', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.goto(`${baseUrl}/system/user`);
    await page.getByText('抱歉，您无权访问此页面').waitFor();
    await context.close();
  });
});

describe('fallback routes', () => {
  it('an unknown path shows the 404 page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/no/such/page`);
    await page.waitForURL('**/404');
    await page.getByText('抱歉，您访问的页面不存在').waitFor();
    await page.waitForFunction(() => document.title === '页面不存在 - CoalX 煤炭现货交易平台');
    await page.getByRole('button', { name: '返回首页' }).click();
    await page.waitForURL('**/index');
    await context.close();
  });

  it('/ goes to /index and /user to /user/login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/`);
    await page.waitForURL('**/index');
    await page.getByRole('link', { name: '登录' }).waitFor();
    await page.goto(`${baseUrl}/user`);
    await page.waitForURL('**/user/login');
    await context.close();
  });
});
