import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, pathOf, screenshotOnFailure, signIn } from './browser';
import { seedHomeContent, type HomeSeed } from './home-seed';

const baseUrl = inject('baseUrl');
let browser: Browser;
let seed: HomeSeed;

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return ((await response.json()) as { result: T }).result;
}

async function openHome(): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto(`${baseUrl}/index`);
  await page.getByTestId('index-price').waitFor();
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  seed = await seedHomeContent(baseUrl);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(screenshotOnFailure);

describe('home page', () => {
  it('shows the market index strip: term, price and a red + for a rise; the history chart opens on click', async () => {
    const info = await api<{ currentYear: number; currentTerm: number; totalTerm: number; price: number; rise: number }>('/api/commoditymarketindex/commodityMarketIndex/info');
    expect(info.rise).toBeGreaterThan(0);
    const page = await openHome();
    await expect.poll(() => page.getByTestId('index-term').textContent()).toBe(`${info.currentYear}年 第${info.currentTerm}期 / 总第${info.totalTerm}期`);
    expect(await page.getByTestId('index-price').textContent()).toBe('793.20元/吨');
    const rise = page.getByTestId('index-rise');
    expect(await rise.textContent()).toContain('+6.70');
    expect(await rise.getAttribute('data-tone')).toBe('up');
    expect(await rise.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(229, 56, 59)');

    await page.locator('.coalx-index-strip-inner').click();
    await page.locator('[data-testid="index-chart"] canvas').waitFor({ timeout: 15_000 });
    expect(await page.getByText('历史走势').count()).toBeGreaterThan(0);
  });

  it('moves the carousel every 4 s after a 1 s delay and pauses while hovered', async () => {
    const page = await openHome();
    const banner = page.getByTestId('banner');
    await expect.poll(() => banner.getAttribute('data-playing'), { timeout: 5_000 }).toBe('true');
    const current = () => page.locator('.coalx-banner .slick-slide.slick-current').getAttribute('data-index');
    const first = await current();
    await expect.poll(current, { timeout: 7_000, interval: 250 }).not.toBe(first);

    // hover: paused, the slide stays longer than one interval
    await banner.hover();
    await expect.poll(() => banner.getAttribute('data-playing')).toBe('false');
    const held = await current();
    await page.waitForTimeout(5_000);
    expect(await current()).toBe(held);

    await page.mouse.move(5, 880);
    await expect.poll(() => banner.getAttribute('data-playing')).toBe('true');
    await expect.poll(current, { timeout: 7_000, interval: 250 }).not.toBe(held);
  });

  it("switches the announcement tabs; 'view more' shows when either total exceeds 10", async () => {
    const weekly = await api<{ total: number }>('/api/content/list?type=0&pageSize=10&pageNo=1');
    const observation = await api<{ total: number }>('/api/content/list?type=1&pageSize=10&pageNo=1');
    expect(weekly.total).toBeGreaterThanOrEqual(seed.weeklyTotal);
    const page = await openHome();
    const list = page.getByTestId('news-list');
    await expect.poll(() => list.locator('.coalx-news-item:not(.skeleton)').count()).toBe(10);
    expect(await page.getByTestId('news-more').count()).toBe(1);

    await page.getByRole('tab', { name: '市场观察' }).click();
    await expect.poll(() => list.getAttribute('data-type')).toBe('1');
    await expect.poll(() => list.locator('.coalx-news-item').count()).toBe(Math.min(observation.total, 10));
    // spec §2: 'view more' when either tab's total exceeds 10, on either tab
    expect(await page.getByTestId('news-more').count()).toBe(weekly.total > 10 || observation.total > 10 ? 1 : 0);

    await page.getByRole('tab', { name: '周报' }).click();
    await page.getByTestId('news-more').click();
    await page.waitForURL((u) => u.pathname === '/moreAnnouncements');
    expect(pathOf(page)).toBe('/moreAnnouncements?type=0');
    await expect.poll(() => page.getByTestId('announcement-list').locator('li').count()).toBe(10);
    // the list searches titles
    const first = await page.getByTestId('announcement-list').locator('li a').first().innerText();
    const word = first.slice(0, 4);
    await page.getByLabel('搜索公告标题').fill(word);
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForURL((u) => u.searchParams.get('title') === word);
    await expect.poll(async () => (await page.getByTestId('announcement-list').locator('li a').allInnerTexts()).every((t) => t.includes(word))).toBe(true);
    await page.getByLabel('搜索公告标题').fill('没有这样的公告标题');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByText('没有标题包含「没有这样的公告标题」的公告').waitFor();
    await page.goto(`${baseUrl}/moreAnnouncements?type=0`);
    await page.getByTestId('announcement-list').locator('li a').first().click();
    await page.getByTestId('announcement-body').waitFor();
    // the server sanitised the body: the <script> of the seed is gone
    expect(await page.getByTestId('announcement-body').innerHTML()).not.toContain('script');
  });

  it('opens a rule document in a new tab and renders the PDF with pdf.js (Chinese text drawn)', async () => {
    const page = await openHome();
    const link = page.getByTestId('rule-a');
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL((u) => u.pathname === '/pdfDetails');
    expect(new URL(tab.url()).searchParams.get('enclosure')).toBeTruthy();
    await expect.poll(() => tab.getByTestId('pdf-page-count').textContent(), { timeout: 20_000 }).toMatch(/^\d+$/);
    await expect.poll(() => tab.getByTestId('pdf-canvas').getAttribute('data-rendered'), { timeout: 20_000 }).not.toBe('0');
    const dark = await tab.getByTestId('pdf-canvas').evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) n++;
      return n;
    });
    expect(dark).toBeGreaterThan(2_000);

    // zoom changes the canvas size
    const before = await tab.getByTestId('pdf-canvas').evaluate((c: HTMLCanvasElement) => c.width);
    await tab.getByRole('button', { name: '放大' }).click();
    await expect.poll(() => tab.getByTestId('pdf-zoom').textContent()).toBe('125%');
    await expect.poll(() => tab.getByTestId('pdf-canvas').evaluate((c: HTMLCanvasElement) => c.width)).not.toBe(before);
  });

  it('changes the recommended list with the quick filters', async () => {
    const page = await openHome();
    const grid = page.getByTestId('recommend-grid');
    const cards = () => grid.locator('[data-testid="recommend-card"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-trade-id')));
    const expected = async (params: Record<string, unknown>) =>
      (await api<{ records: { tradeId: string }[] }>('/api/tradeHome/recommend/list', { pageNo: 1, pageSize: 4, ...params })).records.map((r) => r.tradeId);

    await expect.poll(cards).toEqual(await expected({}));
    expect((await cards()).length).toBeGreaterThan(0);
    for (const [label, params] of [
      ['今日挂牌', { preDayNum: 0, tradeType: '0,1' }],
      ['今日竞价', { preDayNum: 0, tradeType: '2,3' }],
      ['5日内', { preDayNum: 5 }],
      ['已结束', { hangState: 2 }],
    ] as const) {
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().includes('/recommend/list') && r.method() === 'POST'),
        page.getByRole('tab', { name: label, exact: true }).click(),
      ]);
      expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({ pageNo: 1, pageSize: 4, ...params });
      const want = await expected(params);
      await expect.poll(cards).toEqual(want);
    }
  });

  it("follows each trade table's 'more' link (the lists are for signed-in traders)", async () => {
    const { page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.buyer);
    for (const [title, path] of [
      ['挂牌销售', '/moreListings?tradeType=0'],
      ['挂牌采购', '/moreListings?tradeType=1'],
      ['竞价销售', '/moreBidding?tradeType=2'],
      ['竞价采购', '/moreBidding?tradeType=3'],
    ] as const) {
      await page.goto(`${baseUrl}/index`);
      await page.getByRole('region', { name: title, exact: true }).getByRole('link', { name: '更多 >' }).click();
      await page.waitForURL((u) => u.pathname + u.search === path);
      expect(pathOf(page)).toBe(path);
    }
  });
});
