import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { gradientPng } from '../apps/server/src/lib/simple-png';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const SHOTS = process.env.FREIGHT_SHOTS;
const COPY = gradientPng(64, 48, [230, 230, 240], [120, 140, 200]);
let browser: Browser;

async function shot(page: Page, name: string, fullPage = false) {
  if (!SHOTS) return;
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-drawer-content-wrapper-motion').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/** A row of the statements table by a text it shows. */
const row = (page: Page, text: string) => page.locator('.ant-table-row', { hasText: text });

describe('freight settlement in the browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(screenshotOnFailure);
  afterAll(async () => browser?.close());

  it('华东电力 pays its carrier the confirmed demo statement: detail with every truck, the money confirmed, 已付款; 物流结算 and 运费汇总 follow', async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.buyer);
    await page.goto(`${baseUrl}/logistics/freight`);
    const confirmed = row(page, '已确认');
    await confirmed.first().waitFor();
    await expect(row(page, '已付款').count()).resolves.toBeGreaterThan(0);
    await shot(page, 'freight-list');

    // the detail drawer: every truck with its dispatch, order, signed weight and line
    const statementNo = (await confirmed.first().locator('a.coalx-num').innerText()).trim();
    await confirmed.first().getByRole('button', { name: '查看' }).click();
    const drawer = page.getByTestId('freight-detail');
    await drawer.waitFor();
    await expect(drawer.locator('.ant-table-row').count()).resolves.toBeGreaterThan(0);
    expect(await drawer.innerText()).toContain('价税合计');
    expect(await drawer.innerText()).toMatch(/PC\d{12}/);
    await shot(page, 'freight-detail');
    await page.locator('.ant-drawer-close').click();

    // 物流结算 shows it waiting for payment
    await page.goto(`${baseUrl}/settlement/logistics`);
    await row(page, statementNo).waitFor();
    await shot(page, 'settlement-logistics');

    // 付款: the voucher, then the money confirmation with the total, then 已付款
    await row(page, statementNo).getByRole('button', { name: '付款' }).click();
    const modal = page.locator('.ant-modal', { hasText: '运费付款' });
    await modal.locator('input[type=file]').setInputFiles({ name: '付款回单.png', mimeType: 'image/png', buffer: COPY });
    await modal.locator('.ant-upload-list-item', { hasText: '付款回单' }).waitFor();
    await modal.getByRole('button', { name: '登记付款' }).click();
    const money = page.getByTestId('money-confirm');
    await money.waitFor();
    expect(await money.innerText()).toContain('价税合计');
    await shot(page, 'freight-pay-confirm');
    await page.getByRole('button', { name: '确认已付款' }).click();
    await page.getByText('已登记付款').waitFor();
    await page.getByRole('tab', { name: '已付款' }).click();
    await row(page, statementNo).filter({ hasText: '已付款' }).waitFor();

    // 运费汇总: the chart and the table by carrier and month
    await page.goto(`${baseUrl}/logistics/freightSummary`);
    await page.getByTestId('freight-summary-chart').locator('canvas').waitFor();
    await row(page, '晋运通物流有限公司').first().waitFor();
    await shot(page, 'freight-summary');
  });

  it('晋北煤业 voids its demo draft, drafts its trucks again at its own rate and records the carrier’s signed copy', async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.goto(`${baseUrl}/logistics/freight`);
    const draft = row(page, '草稿').filter({ hasText: '朔州顺达运输有限公司' });
    await draft.first().waitFor();
    // the draft's period: the new statement covers the same signed trucks
    const period = (await draft.first().locator('td', { hasText: ' 至 ' }).innerText()).split(' 至 ');
    await draft.first().getByRole('button', { name: '作废' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '作废' }).click();
    await page.getByText('已作废，车辆可重新结算').waitFor();

    await page.getByRole('button', { name: '新建运费结算单' }).click();
    const modal = page.locator('.ant-modal', { hasText: '新建运费结算单' });
    await modal.getByText('承运公司', { exact: true }).click();
    await modal.locator('input#carrierName').fill('大同快运有限公司');
    await modal.getByPlaceholder('开始日期').click();
    await modal.getByPlaceholder('开始日期').fill(period[0]!.trim());
    await modal.getByPlaceholder('结束日期').fill(period[1]!.trim());
    await modal.getByPlaceholder('结束日期').press('Enter');
    await modal.getByPlaceholder('如：85.50').fill('282.50');
    await modal.getByTestId('freight-compute').click();
    await modal.getByText('本期间可结算').waitFor();
    await expect(modal.locator('.ant-table-row').count()).resolves.toBeGreaterThan(0);
    await shot(page, 'freight-new');
    await modal.getByRole('button', { name: '保存草稿' }).click();
    await page.getByText(/已保存草稿 YF\d{12}/).waitFor();

    const made = row(page, '大同快运有限公司').filter({ hasText: '草稿' });
    await made.first().getByRole('button', { name: '确认' }).click();
    const confirm = page.locator('.ant-modal', { hasText: '承运方确认' });
    await confirm.getByLabel('承运方签字人').fill('王大同');
    await confirm.locator('input[type=file]').setInputFiles({ name: '签字件.png', mimeType: 'image/png', buffer: COPY });
    await confirm.locator('.ant-upload-list-item', { hasText: '签字件' }).waitFor();
    await confirm.getByRole('button', { name: '登记确认' }).click();
    await page.getByText('承运方已确认').waitFor();
    await row(page, '大同快运有限公司').filter({ hasText: '已确认' }).first().waitFor();
  });
});
