import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

/** The message antd shows under a form field, once it has one. */
const fieldError = (page: Page, label: string) =>
  page.locator('.ant-form-item', { has: page.locator(`label:text-is("${label}")`) }).locator('.ant-form-item-explain-error');

async function typeAndBlur(page: Page, label: string, value: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(value);
  await input.blur();
}

describe('each rule its own message; nothing clamped', () => {
  it('the auction form tells a negative, a huge and an out-of-range value apart and keeps what was typed', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.goto(`${baseUrl}/listingTrade/Bidding`);
    await page.getByLabel('竞价数量', { exact: true }).waitFor();

    const cases: [string, string, string][] = [
      ['竞价数量', '-100', '不能为负数'],
      ['竞价数量', '99999999999999', '不能超过 10,000,000.00 吨'],
      ['竞价数量', '10.0001', '最多 3 位小数'],
      ['延时周期', '5', '不能少于 30 秒'],
      ['延时周期', '999999', '不能超过 1800 秒'],
    ];
    for (const [label, value, message] of cases) {
      await typeAndBlur(page, label, value);
      await expect.poll(() => fieldError(page, label).innerText(), { timeout: 5_000 }).toBe(message);
      // refused as typed, never silently turned into 30 or 1800
      expect((await page.getByLabel(label, { exact: true }).inputValue()).replace(/,/g, '')).toBe(value);
    }
    await typeAndBlur(page, '延时周期', '');
    await expect.poll(() => fieldError(page, '延时周期').innerText()).toBe('请输入延时周期');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an index price of -5 is refused and the publish confirmation does not open; empty registration fields are asked for', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/operation/marketIndex`);
    await typeAndBlur(page, '指数价格', '-5');
    await expect.poll(() => fieldError(page, '指数价格').innerText()).toBe('不能为负数');
    await page.getByRole('button', { name: /^发\s?布$/ }).click();
    await page.waitForTimeout(500);
    expect(await page.getByText('发布后首页立即显示该期指数').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();

    const visitor = await newPage(browser);
    await visitor.page.goto(`${baseUrl}/user/register`);
    await visitor.page.getByRole('button', { name: '下一步' }).click();
    await fieldError(visitor.page, '姓名').waitFor();
    expect(await fieldError(visitor.page, '姓名').innerText()).toBe('请输入姓名');
    expect(await visitor.page.getByText('姓名至少 2 个字').count()).toBe(0);
    await visitor.context.close();
  });
});

describe('Esc never loses typed work', () => {
  it('新建公告: Esc in the date picker asks 确定放弃未保存的内容吗？ and 继续编辑 keeps the text; an untouched form closes at once', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/operation/content`);
    await page.getByRole('button', { name: '新建公告' }).click();
    const editor = page.locator('.ant-modal', { hasText: '新建公告' });
    await editor.getByLabel('标题').fill('关于春节期间交易安排的通知');
    await editor.getByLabel('生效时间').click();
    await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').waitFor();
    const ask = page.locator('.ant-modal-confirm', { hasText: '确定放弃未保存的内容吗？' });
    // the first Esc may only close the picker; the one that reaches the form asks before closing it
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
    if (!(await ask.isVisible())) await page.keyboard.press('Escape');
    await ask.waitFor();
    expect(await editor.isVisible()).toBe(true);
    await page.screenshot({ path: 'test-results/e2e/discard-question.png' });
    await ask.getByRole('button', { name: '继续编辑' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await editor.getByLabel('标题').inputValue()).toBe('关于春节期间交易安排的通知');

    // 放弃 closes it; a fresh, untouched form closes on Esc without asking
    await page.keyboard.press('Escape');
    await ask.getByRole('button', { name: /放\s?弃/ }).click();
    await editor.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '新建公告' }).click();
    await editor.getByLabel('标题').waitFor();
    expect(await editor.getByLabel('标题').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'hidden' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await context.close();
  });
});
