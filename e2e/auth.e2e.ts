import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, pathOf, signIn, submitLogin, TOKEN_KEY } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

describe('sign-in', () => {
  it('a signed-out visit to /companyInfo goes to login with the redirect, and signing in lands on /companyInfo', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/companyInfo`);
    await page.waitForURL('**/user/login?redirect=*');
    expect(pathOf(page)).toBe('/user/login?redirect=%2FcompanyInfo');
    await page.waitForFunction(() => document.title === '登录 - CoalX 煤炭现货交易平台');

    await submitLogin(page, ACCOUNTS.seller.username, ACCOUNTS.seller.password);
    await page.waitForURL('**/companyInfo');
    await page.locator('.coalx-tab-label', { hasText: '企业信息' }).waitFor();
    expect(pathOf(page)).toBe('/companyInfo');
    await page.waitForFunction(() => document.title === '企业信息 - CoalX 煤炭现货交易平台');
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeTruthy();
    await context.close();
  });

  it('a wrong password shows the server\'s Chinese message', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/user/login`);
    await submitLogin(page, ACCOUNTS.buyer2.username, 'wrong-password-1');
    const alert = page.locator('.coalx-login-error');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('用户名或密码错误');
    expect(pathOf(page)).toBe('/user/login');
    await context.close();
  });

  it('visiting the login page while signed in goes to /index', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.buyer);
    await page.waitForURL('**/index');
    await page.goto(`${baseUrl}/user/login`);
    await page.waitForURL('**/index');
    expect(pathOf(page)).toBe('/index');
    await context.close();
  });
});

describe('first login', () => {
  it('newcomer is forced to /user/changePassword from any page, and reaches /index after changing it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.newcomer);
    await page.waitForURL('**/user/changePassword');

    for (const path of ['/index', '/companyInfo', '/moreAnnouncements']) {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForURL('**/user/changePassword');
      expect(pathOf(page)).toBe('/user/changePassword');
    }
    // no home or workbench links for a first login (spec §6)
    await page.locator('.coalx-form-card').waitFor();
    expect(await page.locator('.coalx-header-nav a').count()).toBe(0);

    await page.getByPlaceholder('请输入原密码').fill(ACCOUNTS.newcomer.password);
    await page.getByPlaceholder('请输入新密码').fill('Newcomer2026');
    await page.getByPlaceholder('请再次输入新密码').fill('Newcomer2027');
    await page.getByRole('button', { name: '确认修改' }).click();
    await page.getByText('两次输入的密码不匹配!').waitFor();

    await page.getByPlaceholder('请再次输入新密码').fill('Newcomer2026');
    await page.getByRole('button', { name: '确认修改' }).click();
    await page.waitForURL('**/index');
    await page.getByRole('link', { name: '工作台' }).waitFor();
    expect(pathOf(page)).toBe('/index');

    // and it stays free to move about
    await page.goto(`${baseUrl}/companyInfo`);
    await page.waitForURL('**/companyInfo');
    await context.close();
  });
});

describe('logout', () => {
  it('avatar → 退出登录 → confirm → login page, token gone', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.waitForURL('**/index');
    const dialog = page.locator('.ant-modal-confirm');
    // a hover menu can close under a slow machine's click: open it again until the confirmation shows
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.locator('[data-testid="avatar-dropdown"]').hover();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: '退出登录' }).click();
      if (await dialog.getByText('您确定要注销吗？').waitFor({ timeout: 8000 }).then(() => true, () => false)) break;
    }
    await dialog.getByText('您确定要注销吗？').waitFor();
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.waitForURL('**/user/login');
    expect(pathOf(page)).toBe('/user/login');
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('Login_Userinfo'))).toBeNull();
    // signed out for real: a workspace page asks to sign in again
    await page.goto(`${baseUrl}/companyInfo`);
    await page.waitForURL('**/user/login?redirect=*');
    await context.close();
  });
});

describe('expired token', () => {
  it('a bogus stored token on a workspace page gives the Token失效 notice and the login page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    await page.evaluate((key) => localStorage.setItem(key, 'bogus-token-0000'), TOKEN_KEY);
    await page.goto(`${baseUrl}/companyInfo`);
    await page.locator('.ant-notification-notice').getByText('Token失效').waitFor();
    await page.waitForURL('**/user/login**');
    expect(new URL(page.url()).pathname).toBe('/user/login');
    await page.waitForFunction((key) => localStorage.getItem(key) === null, TOKEN_KEY);
    await context.close();
  });
});
