import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, payHash } from './api';
import { PHOTO, unpaidOrder } from './chain';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
/** 577 t: an amount no demo deal nor another spec has */
const QUANTITY_KG = 577_000;
const SHOTS = process.env.GATE_SHOTS;
let browser: Browser;

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' } as const;

async function shot(page: Page, name: string, fullPage = true) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

type Truck = { id: number; dispatchNo: string; status: string; gatePasses: { loading: string | null; arrival: string | null }; tickets: { stage: string; recordedBy: string }[] };

/** A paid order the seller transports, with two trucks dispatched (one to record, one to cancel). */
async function dispatchedTrucks() {
  const { order, buyer, seller, contract } = await unpaidOrder(QUANTITY_KG, { transportArranger: 'seller', weighingBasis: 'buyer' });
  await api(`/api/order/${order.id}/pay`, { token: buyer.token, body: { requestId: randomUUID(), payPassword: payHash(buyer.enterPriseInfo.clientId) } });
  const drivers = await api<{ id: number }[]>(`/api/delivery/order/${order.id}/drivers`, { token: seller.token });
  const planDate = contract.terms.deliveryDateStart as string;
  const send = () => api<Truck>('/api/delivery/dispatch', { token: seller.token, body: { orderId: order.id, driverId: drivers[0]!.id, plannedKg: 35_000, planDate } });
  return { order, seller, buyer, first: await send(), second: await send() };
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(screenshotOnFailure);

describe('the weighbridge by QR code, on a phone without an account', () => {
  it('the mine clerk records the loading ticket with a photo; the seller sees it on the order; the link is then refused, as is a cancelled truck’s', async () => {
    const { order, seller, first, second } = await dispatchedTrucks();
    expect(first.gatePasses.loading).toBeTruthy();

    // the printed note carries both codes: the mine's weighbridge and the plant's
    const note = await newPage(browser);
    await signIn(note.page, baseUrl, ACCOUNTS.seller);
    await note.page.goto(`${baseUrl}/logistics/dispatchNote?id=${first.id}`);
    await note.page.getByTestId('dispatch-qr').waitFor();
    await note.page.getByTestId('dispatch-qr-arrival').waitFor();
    expect(await note.page.getByTestId('dispatch-note').innerText()).toContain('矿方过磅扫码');
    await shot(note.page, 'weighbridge-dispatch-note', false);
    await note.page.close();

    // a fresh phone, nobody signed in
    const phone = await browser.newContext(PHONE);
    const clerk = await phone.newPage();
    await clerk.goto(`${baseUrl}/weighbridge?pass=${encodeURIComponent(first.gatePasses.loading!)}`);
    await clerk.getByTestId('weighbridge-plate').waitFor();
    expect(await clerk.getByText('装车过磅').first().isVisible()).toBe(true);
    expect(await pageWidth(clerk)).toBeLessThanOrEqual(390);
    // the plate stays on one line
    const plate = await clerk.getByTestId('weighbridge-plate').boundingBox();
    expect(plate!.height).toBeLessThan(60);
    await shot(clerk, 'weighbridge-open');

    await clerk.getByPlaceholder('磅单上的编号').fill(`QR-${Date.now()}`);
    await clerk.getByPlaceholder('如 55.32').fill('50.20');
    await clerk.getByPlaceholder('如 15.30').fill('15.20');
    await clerk.getByPlaceholder('毛重 − 皮重').click();
    await expect.poll(() => clerk.getByPlaceholder('毛重 − 皮重').inputValue()).toBe('35');
    await clerk.locator('input[type=file]').setInputFiles({ name: 'ticket.png', mimeType: 'image/png', buffer: PHOTO });
    await clerk.locator('.ant-upload-list-item-done, .ant-upload-list-item-container img').first().waitFor();
    await clerk.getByPlaceholder('您的姓名，记入磅单').fill('赵过磅');
    await shot(clerk, 'weighbridge-filled');
    expect(await pageWidth(clerk)).toBeLessThanOrEqual(390);
    await clerk.getByRole('button', { name: '录入装车磅单' }).click();
    const confirm = clerk.locator('.ant-modal-confirm');
    await expect.poll(() => confirm.innerText()).toContain('净重 35.00 吨');
    await confirm.getByRole('button', { name: '确认录入' }).click();
    await clerk.getByTestId('weighbridge-ticket').waitFor();
    expect(await clerk.getByTestId('weighbridge-closed').innerText()).toContain('装车磅单已录入，二维码已失效');
    expect(await clerk.getByTestId('weighbridge-ticket').innerText()).toContain('赵过磅（扫码录入）');
    await shot(clerk, 'weighbridge-recorded');

    // the seller, signed in at its desk, sees the ticket and who recorded it on the order
    const desk = await newPage(browser);
    await signIn(desk.page, baseUrl, ACCOUNTS.seller);
    await desk.page.goto(`${baseUrl}/logistics/info`);
    const search = desk.page.getByPlaceholder('请输入订单编号');
    await search.fill(order.orderNo);
    await search.press('Enter');
    await desk.page.locator('.ant-table-row', { hasText: order.orderNo }).first().click();
    const row = desk.page.locator('.coalx-order-delivery .ant-table-row', { hasText: first.dispatchNo });
    await row.filter({ hasText: '已装车' }).waitFor();
    await row.locator('.ant-table-row-expand-icon').click().catch(() => undefined);
    await desk.page.getByText('录入：赵过磅（扫码录入）').first().waitFor();
    await shot(desk.page, 'weighbridge-seller-sees', false);
    const trucks = await api<{ trucks: Truck[] }>(`/api/delivery/order/${order.id}`, { token: seller.token });
    expect(trucks.trucks.find((t) => t.id === first.id)!.tickets[0]!.recordedBy).toBe('赵过磅（扫码录入）');

    // the same link again: refused in Chinese, nothing to fill
    await clerk.reload();
    await clerk.getByTestId('weighbridge-closed').waitFor();
    expect(await clerk.getByRole('button', { name: '录入装车磅单' }).count()).toBe(0);

    // the other truck is cancelled: its link is refused
    await api(`/api/delivery/dispatch/${second.id}/cancel`, { token: seller.token, body: { reason: '车辆故障，改派' } });
    await clerk.goto(`${baseUrl}/weighbridge?pass=${encodeURIComponent(second.gatePasses.loading!)}`);
    await expect.poll(() => clerk.getByTestId('weighbridge-closed').innerText()).toContain('派车单已取消，二维码已失效');

    // a pass turned to another truck opens nothing
    const parts = first.gatePasses.loading!.split('.');
    parts[0] = String(second.id);
    await clerk.goto(`${baseUrl}/weighbridge?pass=${encodeURIComponent(parts.join('.'))}`);
    await clerk.getByText('二维码无效，请核对派车单上的二维码').waitFor();
    expect(await clerk.getByText(second.dispatchNo).count()).toBe(0);
    await shot(clerk, 'weighbridge-invalid');
    await phone.close();
  });

  it('the platform is installable: a manifest with Chinese names, icons that load, a theme colour, linked from every page', async () => {
    const response = await fetch(`${baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/manifest+json');
    const manifest = (await response.json()) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; lang: string; icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({ name: 'CoalX 煤炭现货交易平台', lang: 'zh-CN', display: 'standalone', theme_color: '#0b2545' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const image = await fetch(`${baseUrl}${icon.src}`);
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    // the start page the manifest names is a real page, and every page links the manifest and the theme colour
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('meta[name=theme-color]').getAttribute('content')).toBe(manifest.theme_color);
    await page.close();
  });
});
