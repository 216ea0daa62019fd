import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './api';
import { ACCOUNTS, launchBrowser, screenshotOnFailure, signIn } from './browser';

/**
 * The signed-in workspace on a phone (issue 32): at 390×844 the side menu is a drawer opened from the header, no
 * page scrolls sideways (tables scroll inside their cards), a truck's actions are on the screen and the gate page
 * shows the plate on one line with 录入装车磅单 first. Every page is also shot at 1440×900 to compare with the desktop.
 */
const baseUrl = inject('baseUrl');
/** Screenshots to look at: PHONE_WS_SHOTS, else /tmp/phone-shots-ws. */
const SHOTS = process.env.PHONE_WS_SHOTS ?? '/tmp/phone-shots-ws';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' };
const DESKTOP = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
let browser: Browser;
const contexts = new Set<BrowserContext>();

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterEach(async (ctx) => {
  const failed = ctx.task.result?.state === 'fail';
  let n = 0;
  for (const context of [...contexts]) {
    if (failed) {
      for (const page of context.pages()) {
        const file = path.join(SHOTS, `failed-${ctx.task.name.replace(/[^\w\u4e00-\u9fa5-]+/g, '_').slice(0, 60)}-${n++}.png`);
        await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
        console.log(`screenshot of the failed test: ${file} (${page.url()})`);
      }
    }
    await context.close().catch(() => undefined);
    contexts.delete(context);
  }
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function signedIn(account: { username: string; password: string }, options: typeof PHONE | typeof DESKTOP = PHONE): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.add(context);
  const page = await context.newPage();
  await signIn(page, baseUrl, account);
  return page;
}

/** Let the page settle (fonts, dialogs, lazy parts), then: does the document stay within the phone's width? */
async function scrollWidth(page: Page): Promise<number> {
  await page.locator('.ant-spin-spinning, .ant-skeleton-active').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** The first screen (what a person sees) and the whole page (-full). */
async function shot(page: Page, name: string) {
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-drawer-content-wrapper-motion').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  await page.screenshot({ path: path.join(SHOTS, `${name}-full.png`), fullPage: true });
}

/**
 * Opens `url` on a phone and on a desktop, waits for `ready`, checks the phone's width and shoots both. Returns
 * the phone's page for more checks.
 */
async function bothSizes(account: { username: string; password: string }, url: string, name: string, ready: (page: Page) => Promise<unknown>): Promise<Page> {
  const desktop = await signedIn(account, DESKTOP);
  await desktop.goto(`${baseUrl}${url}`);
  await ready(desktop);
  await scrollWidth(desktop);
  await shot(desktop, `${name}-1440`);

  const phone = await signedIn(account);
  await phone.goto(`${baseUrl}${url}`);
  await ready(phone);
  const width = await scrollWidth(phone);
  await shot(phone, `${name}-390`);
  expect(width, `${url} scrolls sideways on a phone`).toBeLessThanOrEqual(390);
  return phone;
}

interface Truck {
  id: number;
  orderId: number;
  orderNo: string;
  dispatchNo: string;
  plateNo: string;
  gateToken: string | null;
  status: string;
  actions: string[];
}

/** A truck of the demo data seller01 has dispatched and not yet loaded. */
async function dispatchedTruck(): Promise<Truck> {
  const seller = await login(ACCOUNTS.seller);
  const page = await api<{ records: Truck[] }>('/api/delivery/transport?status=dispatched&pageNo=1&pageSize=50', { token: seller.token });
  const truck = page.records.find((t) => t.status === 'dispatched' && t.gateToken);
  expect(truck, 'the demo data has a dispatched truck of seller01').toBeTruthy();
  return truck!;
}

/**
 * A truck at the mine's gate that seller01 both loads and may cancel (it sent the truck itself): one of the demo
 * data, else one dispatched now on an order seller01 transports.
 */
async function truckAtGate(): Promise<Truck> {
  const seller = await login(ACCOUNTS.seller);
  const trucks = await api<{ records: Truck[] }>('/api/delivery/transport?status=dispatched&pageNo=1&pageSize=50', { token: seller.token });
  const found = trucks.records.find((t) => t.gateToken && t.actions.includes('load') && t.actions.includes('cancel'));
  if (found) return found;
  const orders = await api<{ records: { id: number; transportSide: string }[] }>('/api/delivery/progress?pageNo=1&pageSize=50', { token: seller.token });
  for (const o of orders.records.filter((r) => r.transportSide === 'seller')) {
    const delivery = await api<{ order: { canDispatch: boolean } }>(`/api/delivery/order/${o.id}`, { token: seller.token });
    if (!delivery.order.canDispatch) continue;
    const drivers = await api<{ id: number }[]>(`/api/delivery/order/${o.id}/drivers`, { token: seller.token });
    if (drivers.length === 0) continue;
    const planDate = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    return api<Truck>('/api/delivery/dispatch', { token: seller.token, body: { orderId: o.id, driverId: drivers[0]!.id, plannedKg: 30_000, planDate } });
  }
  throw new Error('no order of seller01 to dispatch a truck on');
}

const rowReady = (page: Page) => page.locator('.ant-table-row, [data-testid=message-card], .ant-table-placeholder .ant-empty, .coalx-msg-card .ant-empty').first().waitFor();

describe('the workspace on a phone (390×844)', () => {
  it('the side menu is a drawer opened from the header button; it navigates and closes', async () => {
    const page = await bothSizes(ACCOUNTS.seller, '/workbench', 'workbench', (p) => p.getByTestId('workbench-summary').waitFor());
    const header = page.locator('.coalx-ws-header');
    const box = (await header.boundingBox())!;
    expect(box.height, 'the header stays on one line').toBeLessThanOrEqual(60);
    expect(await page.locator('.ant-pro-sider').isVisible().catch(() => false), 'no side menu beside the page on a phone').toBe(false);

    await page.getByRole('button', { name: '打开菜单' }).click();
    const drawer = page.locator(".ant-pro-drawer-sider, .ant-pro-layout-drawer-sider").first();
    await drawer.waitFor();
    await page.waitForTimeout(600); // the drawer slides in
    expect((await drawer.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    await shot(page, 'menu-drawer-390');
    await drawer.getByText('消息中心', { exact: true }).click();
    await drawer.getByText('我的消息', { exact: true }).click();
    await page.waitForURL('**/message/list');
    await drawer.waitFor({ state: 'hidden' });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  });

  it('消息中心: 我的消息 and 通知设置 fit the screen', async () => {
    await bothSizes(ACCOUNTS.seller, '/message/list', 'message-list', rowReady);
    await bothSizes(ACCOUNTS.seller, '/message/settings', 'message-settings', (p) => p.getByText('通知设置').first().waitFor());
  });

  it('订单详情 with a dispatched truck: one column of terms, whole amounts and the truck actions on the screen', async () => {
    const truck = await dispatchedTruck();
    const page = await bothSizes(ACCOUNTS.seller, `/order/info?id=${truck.orderId}`, 'order-info', (p) =>
      p.locator('.coalx-order-delivery').getByText(truck.dispatchNo).first().waitFor(),
    );
    const action = page.locator('.coalx-order-delivery .coalx-truck-actions').first().getByRole('button').first();
    await action.waitFor();
    const box = (await action.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, 'the truck action is within the screen width').toBeLessThanOrEqual(390);
    // the amount and the figures are whole: no text is wider than its box
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('.coalx-order-head-amount, .coalx-order-figure-value')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
    );
    expect(clipped).toEqual([]);
  });

  it('收货签收 fits the screen', async () => {
    await bothSizes(ACCOUNTS.buyer, '/settlement/signFor', 'signfor', rowReady);
  });

  it('物流信息, 运输信息 and 派车单 fit the screen', async () => {
    const truck = await dispatchedTruck();
    await bothSizes(ACCOUNTS.seller, '/logistics/info', 'logistics-info', (p) => p.locator('.coalx-order-delivery').getByTestId('delivery-order-status').waitFor());
    await bothSizes(ACCOUNTS.seller, '/logistics/transport', 'logistics-transport', rowReady);
    await bothSizes(ACCOUNTS.seller, `/logistics/dispatchNote?id=${truck.id}`, 'dispatch-note', (p) => p.getByTestId('dispatch-qr').first().waitFor());
  });

  it('装车过磅 at the gate: the plate on one line, 录入装车磅单 first and well apart from 取消派车', async () => {
    const truck = await truckAtGate();
    const page = await bothSizes(ACCOUNTS.seller, `/logistics/gate?token=${truck.gateToken}`, 'gate', (p) => p.getByText('核对车牌与司机后过磅装车').waitFor());
    const plate = page.getByTestId('gate-plate');
    const plateBox = (await plate.boundingBox())!;
    const lineHeight = await plate.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.5);
    expect(plateBox.height, 'the plate is on one line').toBeLessThan(lineHeight * 1.5);
    const record = page.getByRole('button', { name: '录入装车磅单' });
    const cancel = page.getByRole('button', { name: '取消派车' });
    const recordBox = (await record.boundingBox())!;
    const cancelBox = (await cancel.boundingBox())!;
    expect(recordBox.y + recordBox.height, '录入装车磅单 is on the first screen').toBeLessThanOrEqual(844);
    expect(recordBox.x + recordBox.width).toBeLessThanOrEqual(390);
    expect(cancelBox.y - (recordBox.y + recordBox.height), '取消派车 is well below 录入装车磅单').toBeGreaterThanOrEqual(48);
  });
});
