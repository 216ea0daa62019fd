import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { payPasswordOf } from './api';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, submitLogin } from './browser';

/**
 * The public pages and the auction room on a phone (390×844): nothing scrolls the page sideways, and in the auction
 * room the price, the countdown and the bid button are on the first screen. At 1440×900 the home page keeps its
 * tables. Every page is photographed at both sizes into /tmp/phone-shots (PHONE_SHOTS overrides) for a person to look at.
 */
const baseUrl = inject('baseUrl');
const SHOTS = process.env.PHONE_SHOTS ?? '/tmp/phone-shots';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' } as const;
const BIDDER1 = { username: 'bidder01', password: 'Trader#2026' };
const BIDDER2 = { username: 'bidder02', password: 'Trader#2026' };
let browser: Browser;
const contexts: BrowserContext[] = [];

async function call<T>(path: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (body.code !== 0) throw new Error(`${path}: ${body.message}`);
  return body.result;
}
const login = async (account: { username: string; password: string }) => (await call<{ token: string }>('/sys/login', { body: account })).token;
const iso = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
type Row = { tradeId: string };
const listings = async (hangState: number) => (await call<{ records: Row[] }>('/api/tradeHome/listedTrade/list', { body: { pageNo: 1, pageSize: 20, tradeType: 0, hangState } })).records;
const auctions = async (hangState: number) => (await call<{ records: Row[] }>('/api/tradeHome/bidTrade/list', { body: { pageNo: 1, pageSize: 20, tradeType: 2, hangState } })).records;

/** A phone signed in as `account` (through the phone's own sign-in page), or a visitor's phone. */
async function phone(account?: { username: string; password: string }): Promise<Page> {
  const context = await browser.newContext(PHONE);
  contexts.push(context);
  const page = await context.newPage();
  if (account) {
    await page.goto(`${baseUrl}/user/login`);
    await submitLogin(page, account.username, account.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
  }
  return page;
}

/** Waits for the page's data: no request in flight for a moment, no skeleton left. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await expect.poll(() => page.locator('.ant-skeleton, .ant-spin-spinning').count(), { timeout: 15_000 }).toBe(0);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Latin words a visitor would read (class names, ids and numbers aside): the page's text is Chinese. */
const englishWords = (page: Page) =>
  page.evaluate(() => (document.body.innerText.match(/\b[A-Za-z]{4,}\b/g) ?? []).filter((w) => !/^(Qnet|kcal|Vdaf|Stad|Std|CoalX|PDF|Excel)$/i.test(w)));

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

let ids: Record<'listing' | 'listingEnded' | 'auction' | 'auctionEnded', string | undefined>;

beforeAll(async () => {
  browser = await launchBrowser();
  const [open, ended, enrolling, waiting, auctionEnded] = await Promise.all([listings(1), listings(2), auctions(0), auctions(1), auctions(3)]);
  ids = {
    listing: open[0]?.tradeId,
    listingEnded: ended[0]?.tradeId,
    auction: enrolling[0]?.tradeId ?? waiting[0]?.tradeId,
    auctionEnded: auctionEnded[0]?.tradeId,
  };
});
afterEach(async (ctx) => {
  await screenshotOnFailure(ctx);
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
});
afterAll(async () => {
  await browser?.close();
});

/** The public pages, each with the trade it shows. */
const PAGES: { name: string; path: () => string | null; signedIn: boolean }[] = [
  { name: 'home', path: () => '/index', signedIn: false },
  { name: 'login', path: () => '/user/login', signedIn: false },
  { name: 'more-listings', path: () => '/moreListings?tradeType=0', signedIn: true },
  { name: 'more-bidding', path: () => '/moreBidding?tradeType=2', signedIn: true },
  { name: 'listing-details', path: () => ids.listing && `/listingSalesDetails?tradeId=${ids.listing}`, signedIn: true },
  { name: 'hang-sale', path: () => ids.listing && `/hang/hangSale?tradeId=${ids.listing}`, signedIn: true },
  { name: 'listing-result', path: () => ids.listingEnded && `/listingResult?tradeId=${ids.listingEnded}`, signedIn: true },
  { name: 'bidding-details', path: () => ids.auction && `/biddingDetails?tradeId=${ids.auction}`, signedIn: true },
  { name: 'waiting-auction', path: () => ids.auction && `/waitingAuction?tradeId=${ids.auction}`, signedIn: true },
  { name: 'bidd-registration', path: () => ids.auction && `/deal/biddRegistration?tradeId=${ids.auction}`, signedIn: true },
  { name: 'bidding-results', path: () => ids.auctionEnded && `/biddingResults?tradeId=${ids.auctionEnded}`, signedIn: true },
];

describe('the public pages on a phone (390×844)', () => {
  it('the home page, sign-in and every trade page fit 390 px without sideways scrolling, in Chinese', async () => {
    const visitor = await phone();
    const trader = await phone(ACCOUNTS.buyer);
    const missing: string[] = [];
    const wide: string[] = [];
    const english: string[] = [];
    for (const p of PAGES) {
      const path = p.path();
      if (!path) {
        missing.push(p.name);
        continue;
      }
      const page = p.signedIn ? trader : visitor;
      await page.goto(`${baseUrl}${path}`);
      await settle(page);
      const width = await scrollWidth(page);
      if (width > 390) wide.push(`${p.name} ${width}`);
      for (const word of await englishWords(page)) english.push(`${p.name} ${word}`);
      await shoot(page, `phone-${p.name}`);
    }
    expect(missing, 'the demo market has every kind of trade').toEqual([]);
    expect(wide).toEqual([]);
    expect(english).toEqual([]);
  });

  it('the header folds its links into a menu: 登录 stays on one line, the drawer opens the pages', async () => {
    const page = await phone();
    await page.goto(`${baseUrl}/index`);
    await page.getByTestId('index-price').waitFor();
    const login = page.locator('.coalx-header').getByText('登录', { exact: true });
    const box = (await login.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(36); // one line: the 32 px button and its border
    await page.getByTestId('header-menu').click();
    const drawer = page.locator('.coalx-header-drawer');
    await drawer.waitFor();
    await page.screenshot({ path: `${SHOTS}/phone-menu.png` });
    await drawer.getByText('行情').click();
    await page.waitForURL(/\/market/);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  });

  it('the home tables are card lists or scroll inside their card; the index strip and 查看详情 are whole', async () => {
    const page = await phone();
    await page.goto(`${baseUrl}/index`);
    await page.getByTestId('index-price').waitFor();
    await settle(page);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    // every visible element ends inside the screen (a table scrolling inside its card is clipped by the card)
    const outside = await page.evaluate(() => {
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('.coalx-index-strip *, a, button')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || el.closest('.ant-table-content, .ant-table-body, .slick-slider')) continue;
        if (r.right > 390.5 || r.left < -0.5) out.push(`${el.className} ${el.innerText?.slice(0, 20)}`);
      }
      return out;
    });
    expect(outside).toEqual([]);
  });
});

describe('the auction room on a phone', () => {
  it('price, countdown and the bid button are on the first screen; ranking and bid log below; the screen stays awake', async () => {
    const [seller, operator, bidder1, bidder2] = await Promise.all([login({ username: 'seller01', password: 'Trader#2026' }), login({ username: 'operator', password: 'Operator#2026' }), login(BIDDER1), login(BIDDER2)]);
    const now = Date.now();
    const { tradeId } = await call<{ tradeId: string }>('/api/bidApply', {
      token: seller,
      body: {
        tradeType: 2, stockCode: 'DLM5500', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, quantity: 1_000_000,
        startPrice: 80_000, minStep: 100, maxStep: 1_000, limitPrice: null, deposit: 5_000_000,
        enrolDeadline: iso(now + 6_000), bidStart: iso(now + 7_000), bidEnd: iso(now + 240_000), extensionSeconds: 30,
        priceType: 'factory_tax', transport: 'road', deliveryProvince: '山西省', deliveryCity: '太原市', deliveryPlace: 'E2E 手机竞价储煤场',
        deliveryDateStart: iso(now + 86_400_000).slice(0, 10), deliveryDateEnd: iso(now + 10 * 86_400_000).slice(0, 10), submit: true,
      },
    });
    await call('/api/auction/audit/approve', { token: operator, body: { tradeId } });
    const pay = [await payPasswordOf(BIDDER1), await payPasswordOf(BIDDER2)];
    for (const [i, token] of [bidder1, bidder2].entries()) await call('/api/bidEnroll/add', { token, body: { tradeId, acceptRules: true, requestId: crypto.randomUUID(), payPassword: pay[i] } });

    const page = await phone(BIDDER1);
    // the wake lock the room takes while the user can bid (Chromium headless may lack it: count the requests)
    await page.addInitScript(() => {
      const w = window as unknown as { __wake: { requested: number; released: number } };
      w.__wake = { requested: 0, released: 0 };
      const sentinel = () => {
        const s = new EventTarget() as EventTarget & { released: boolean; type: string; release: () => Promise<void> };
        s.released = false;
        s.type = 'screen';
        s.release = async () => {
          if (!s.released) w.__wake.released++;
          s.released = true;
        };
        return s;
      };
      Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request: async () => (w.__wake.requested++, sentinel()) } });
    });
    await page.goto(`${baseUrl}/deal/bidding?tradeId=${tradeId}`);
    await page.getByText('我的代号').waitFor();
    await call('/api/bidRecord/bidAnswerApply', { token: bidder2, body: { tradeId, price: 80_000 } }).catch(async () => {
      // bidding opens a moment after the enrolment: wait for it
      await expect.poll(async () => (await call<{ hangState: number }>(`/api/bidRecord/snapshot?tradeId=${tradeId}`)).hangState, { timeout: 20_000, intervals: [500] }).toBe(2);
      await call('/api/bidRecord/bidAnswerApply', { token: bidder2, body: { tradeId, price: 80_000 } });
    });
    await page.getByText('距竞价结束').waitFor({ timeout: 20_000 });
    await page.getByTestId('my-status').waitFor();
    await expect.poll(() => page.getByTestId('bid-submit').isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.evaluate(() => document.fonts.ready);

    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/phone-bidding-first-screen.png` });
    for (const id of ['best-price', 'countdown', 'bid-input', 'bid-submit']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box, id).not.toBeNull();
      expect(box.y + box.height, `${id} on the first screen`).toBeLessThanOrEqual(844);
      expect(box.x + box.width, `${id} inside the width`).toBeLessThanOrEqual(390);
    }
    // the price is whole: its text is not wider than its box
    expect(await page.getByTestId('best-price').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const ranking = (await page.getByText('实时排名').boundingBox())!;
    const bidButton = (await page.getByTestId('bid-submit').boundingBox())!;
    expect(ranking.y).toBeGreaterThan(bidButton.y);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __wake: { requested: number } }).__wake.requested)).toBeGreaterThan(0);
    await shoot(page, 'phone-bidding');

    // leaving the room (a link inside the app) releases the lock
    await page.locator('.coalx-header .coalx-logo').click();
    await page.waitForURL(/\/index/);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __wake: { released: number } }).__wake.released)).toBeGreaterThan(0);

    // the desktop room, for a person to compare
    const { page: desk } = await newPage(browser);
    await desk.goto(`${baseUrl}/user/login`);
    await submitLogin(desk, BIDDER1.username, BIDDER1.password);
    await desk.waitForURL((url) => !url.pathname.startsWith('/user/login'));
    await desk.goto(`${baseUrl}/deal/bidding?tradeId=${tradeId}`);
    await desk.getByText('距竞价结束').waitFor({ timeout: 20_000 });
    await desk.screenshot({ path: `${SHOTS}/desk-bidding.png` });
  });
});

describe('the desktop is unchanged (1440×900)', () => {
  it('the home page keeps its header links and its tables are tables', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    await page.getByTestId('index-price').waitFor();
    await settle(page);
    expect(await page.locator('.coalx-header-nav').isVisible()).toBe(true);
    expect(await page.getByTestId('header-menu').isVisible()).toBe(false);
    // the home tables are tables: a head row, and each trade one row of cells side by side
    expect(await page.locator('.coalx-mini-table').count()).toBe(4);
    expect(await page.locator('.coalx-mini-table thead').first().isVisible()).toBe(true);
    expect(await page.locator('.coalx-mini-table').first().evaluate((t) => getComputedStyle(t).display)).toBe('table');
    const cells = await page.locator('.coalx-mini-table tbody tr').first().locator('td').evaluateAll((tds) => tds.map((td) => Math.round(td.getBoundingClientRect().top)));
    expect(new Set(cells).size).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await shoot(page, 'desk-home');
  });

  it('every public page at 1440×900, for a person to compare', async () => {
    const { page: visitor } = await newPage(browser);
    const { page: trader } = await newPage(browser);
    await trader.goto(`${baseUrl}/user/login`);
    await submitLogin(trader, ACCOUNTS.buyer.username, ACCOUNTS.buyer.password);
    await trader.waitForURL((url) => !url.pathname.startsWith('/user/login'));
    for (const p of PAGES) {
      const path = p.path();
      if (!path) continue;
      const page = p.signedIn ? trader : visitor;
      await page.goto(`${baseUrl}${path}`);
      await settle(page);
      expect(await scrollWidth(page), p.name).toBeLessThanOrEqual(1440);
      await shoot(page, `desk-${p.name}`);
    }
  });
});
