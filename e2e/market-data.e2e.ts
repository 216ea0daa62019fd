import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login, shot as shotInto } from './api';
import { launchBrowser, newPage, pathOf, screenshotOnFailure, signIn } from './browser';
import { REPO_ROOT } from './server';

/**
 * 行情 and the index method (issue 29 item 7), public: a visitor opens 行情 from the header and sees a candlestick
 * and the daily table; the index method page shows a published term's samples with their exclusions. The
 * operator's 待办 逾期未签合同 opens the contract list filtered to exactly those contracts (issue 29 item 6).
 */
const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
/** the demo enterprises: no public market page may name them */
const DEMO_NAMES = /晋北煤业|华东电力|津沽能源|冀东热电|苏南港口/;
const SHOTS = process.env.MARKET_DATA_SHOTS ?? path.join(REPO_ROOT, 'test-results/e2e/market-data');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

/** Both sizes the pages must hold: a desktop and a phone, with no sideways scroll. */
async function shootBoth(page: Page, name: string, sidewaysAllowed = false) {
  for (const [label, size] of [
    ['1440', { width: 1440, height: 900 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300); // the chart resizes with its box
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (!sidewaysAllowed) expect(sideways, `${name} at ${label}: no sideways scroll`).toBeLessThanOrEqual(0);
    await shotInto(SHOTS, page, `${name}-${label}`, true);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

interface MarketData {
  stockCode: string;
  days: { date: string; average: number; tonnage: number; dealCount: number }[];
}

describe('行情 and the index method (public)', () => {
  it('a visitor opens 行情 from the header: a candlestick of the daily deals and the table of the same days', async () => {
    const data = await api<MarketData>('/api/tradeHome/market/daily?days=90');
    expect(data.days.length).toBeGreaterThan(0); // the demo's deals
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    await page.getByTestId('header-market').click();
    await page.waitForURL('**/market');
    await page.getByTestId('market-candles').locator('canvas').first().waitFor();
    const rows = page.getByTestId('market-table').locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(Math.min(data.days.length, 15));
    // the newest day first, its average price as the API has it
    const newest = data.days[data.days.length - 1]!;
    const firstRow = await rows.first().innerText();
    expect(firstRow).toContain(newest.date);
    expect(firstRow).toContain((newest.average / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    expect(await page.locator('main, .coalx-market').first().innerText()).not.toMatch(DEMO_NAMES);
    await shootBoth(page, 'market');
    await context.close();
  });

  it('the index method page shows a published term\'s samples, each excluded deal with its reason', async () => {
    // a published term with samples: the demo's terms are sampled from its own deals of each week
    type Samples = { price: number; samplePrice: number | null; samples: { included: boolean; exclusionReason: string | null }[] };
    const history = await api<{ currentYear: number; currentTerm: number }[]>('/api/commoditymarketindex/commodityMarketIndex/history?limit=52');
    let found: { year: number; term: number; samples: Samples } | null = null;
    for (const h of [...history].reverse()) {
      const s = await api<Samples>(`/api/commoditymarketindex/commodityMarketIndex/samples?year=${h.currentYear}&term=${h.currentTerm}`);
      if (s.samples.length > 0) {
        found = { year: h.currentYear, term: h.currentTerm, samples: s };
        break;
      }
    }
    expect(found, 'a demo term with sample deals').not.toBeNull();
    const { year, term, samples } = found!;

    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    await page.getByTestId('index-method-link').click();
    await page.waitForURL('**/marketIndex/method');
    await page.getByTestId('index-method').waitFor();
    expect(await page.getByTestId('index-method').innerText()).toContain('偏离中位数超过 20%');
    await page.goto(`${baseUrl}/marketIndex/method?year=${year}&term=${term}`);
    await page.getByTestId('index-term-summary').waitFor();
    {
      // the published price is the samples' weighted average
      expect(samples.samplePrice).toBe(samples.price);
      const rows = page.getByTestId('index-samples').locator('tbody tr.ant-table-row');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(samples.samples.length);
      for (const [i, s] of samples.samples.entries()) {
        const text = await rows.nth(i).innerText();
        expect(text).toContain(s.included ? '计入' : '剔除');
        if (s.exclusionReason) expect(text).toContain(s.exclusionReason);
      }
      expect(await page.getByTestId('index-sample-price').innerText()).toContain((samples.price / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }));
    }
    expect(await page.locator('main, .coalx-market').first().innerText()).not.toMatch(DEMO_NAMES);
    await shootBoth(page, 'index-method');
    // a demo term without deals behind it says so rather than showing invented deals
    const quiet = history[0]!;
    const quietSamples = await api<{ samples: unknown[] }>(`/api/commoditymarketindex/commodityMarketIndex/samples?year=${quiet.currentYear}&term=${quiet.currentTerm}`);
    if (quietSamples.samples.length === 0) {
      await page.goto(`${baseUrl}/marketIndex/method?year=${quiet.currentYear}&term=${quiet.currentTerm}`);
      await page.getByTestId('index-no-samples').waitFor();
      await shotInto(SHOTS, page, 'index-method-no-samples-1440', true);
    }
    await context.close();
  });

  it('the operator\'s 逾期未签合同 opens the contract list filtered to exactly those contracts', async () => {
    const operator = await login(OPERATOR);
    const todos = (await api<{ todos: { key: string; count: number; path: string }[] }>('/api/workbench/todo', { token: operator.token })).todos;
    const overdue = todos.find((t) => t.key === 'overdueContracts')!;
    expect(overdue.path).toBe('/contract/list?status=overdue');
    const all = await api<{ total: number }>('/api/contract/list?pageSize=1', { token: operator.token });
    expect(overdue.count).toBeGreaterThan(0);
    expect(all.total).toBeGreaterThan(overdue.count); // the list unfiltered holds more

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/workbench`);
    const card = page.getByTestId('todo-overdueContracts');
    await card.waitFor();
    const shown = Number(await card.getByTestId('todo-count').innerText());
    expect(shown).toBe(overdue.count);
    await shotInto(SHOTS, page, 'workbench-operator-1440', true);
    await card.click();
    await page.waitForURL('**/contract/list?status=overdue');
    expect(pathOf(page)).toBe('/contract/list?status=overdue');
    await page.getByTestId('link-filter').waitFor();
    const total = page.locator('.ant-pagination-total-text');
    await total.waitFor();
    expect(await total.innerText()).toBe(`共 ${shown} 条`);
    // the workspace's wide tables scroll sideways on a phone by design (not this page's concern)
    await shootBoth(page, 'contract-list-overdue', true);
    await context.close();
  });
});
