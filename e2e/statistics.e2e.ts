import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';
import { REPO_ROOT } from './server';

/**
 * 运营统计 and 交易日报 (issue 29 items 1 and 2): the operator opens the statistics (cards and charts drawn from the
 * demo's deals), exports them to Excel (numbers as numbers), opens the daily reports (the demo's last days are
 * archived), makes the report of an earlier day and finds it listed with its PDF and Excel.
 */
const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
const SHOTS = path.join(REPO_ROOT, 'test-results/e2e/statistics');
let browser: Browser;

const shanghaiDay = (msAgo: number) => new Date(Date.now() - msAgo + 8 * 3600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('运营统计 and 交易日报', () => {
  it('the operator reads the statistics with charts and exports them to Excel', async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/operation/statistics`);
    const summary = page.getByTestId('statistics-summary');
    await summary.waitFor();
    // the demo's deals of the last 30 days are there: the cards show them and the charts are drawn
    await expect.poll(async () => summary.textContent(), { timeout: 20_000 }).toMatch(/成交笔数[1-9]\d* 笔/);
    await expect.poll(async () => (await summary.textContent()) ?? '').toContain('¥');
    for (const chart of ['statistics-trend-chart', 'statistics-kind-chart', 'statistics-product-chart', 'statistics-province-chart']) {
      await page.getByTestId(chart).locator('canvas').first().waitFor({ timeout: 20_000 });
    }
    expect(await page.getByTestId('statistics-trend-table').locator('.ant-table-row').count()).toBe(12); // 30 days, twelve a page
    const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(scrollsSideways).toBe(false);
    await shot(page, 'statistics');

    await page.getByText('按周', { exact: true }).click();
    await expect.poll(async () => page.getByTestId('statistics-trend-table').locator('.ant-table-row').count()).toBeLessThan(7);
    await shot(page, 'statistics-weekly');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导出Excel/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^运营统计_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const byKind = workbook.getWorksheet('按交易方式')!;
    expect(byKind.getRow(1).getCell(4).value).toBe('成交金额(元)');
    const amounts = byKind.getColumn(4).values.slice(2);
    expect(amounts.every((v) => typeof v === 'number')).toBe(true);
    expect((amounts as number[]).reduce((s, v) => s + v, 0)).toBeGreaterThan(0);
  });

  it('the operator finds the archived daily reports, makes an earlier day and sees it listed with its PDF and Excel', async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/operation/dailyReport`);
    // the demo start leaves the reports of its last days
    const yesterday = shanghaiDay(24 * 3600_000);
    await page.locator('.ant-table-row', { hasText: yesterday }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await page.locator('.ant-table-row', { hasText: yesterday }).textContent()) ?? '').toContain('系统定时');
    await shot(page, 'daily-reports');

    const day = shanghaiDay(9 * 24 * 3600_000);
    const input = page.getByTestId('daily-report-date');
    await input.click();
    await input.fill(day);
    await input.press('Enter');
    await page.getByRole('button', { name: /生成日报/ }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title', { hasText: `生成 ${day} 的交易日报` }).waitFor();
    await dialog.getByRole('button', { name: /生\s?成/ }).click();
    const notice = page.getByTestId('daily-report-notice');
    await notice.waitFor({ timeout: 30_000 });
    // a retry of this spec finds the day already made: the page says the archived one is shown
    expect(await notice.textContent()).toMatch(new RegExp(`${day} 的日报(已生成并归档|已于 .* 生成并归档，日报生成后不再重新生成)`));
    const row = page.locator('.ant-table-row', { hasText: day });
    await row.waitFor();
    expect(await row.textContent()).toContain('运营');
    await expect.poll(async () => row.getByTestId(`daily-report-pdf-${day}`).count()).toBe(1);
    await expect.poll(async () => row.getByTestId(`daily-report-xlsx-${day}`).count()).toBe(1);
    await shot(page, 'daily-report-made');

    const [pdf] = await Promise.all([page.waitForEvent('download'), row.getByTestId(`daily-report-pdf-${day}`).click()]);
    expect(pdf.suggestedFilename()).toBe(`交易日报_${day}.pdf`);
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe('%PDF-');
    const [xlsx] = await Promise.all([page.waitForEvent('download'), row.getByTestId(`daily-report-xlsx-${day}`).click()]);
    expect(xlsx.suggestedFilename()).toBe(`交易日报_${day}.xlsx`);

    // making it again answers with the archive
    await page.getByRole('button', { name: /生成日报/ }).click();
    await dialog.getByRole('button', { name: /生\s?成/ }).click();
    await expect.poll(async () => (await notice.textContent()) ?? '', { timeout: 20_000 }).toContain('不再重新生成');
    await dialog.waitFor({ state: 'hidden' });
    await shot(page, 'daily-report-already-made');
  });
});
