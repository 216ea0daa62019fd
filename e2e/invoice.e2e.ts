import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { gradientPng } from '../apps/server/src/lib/simple-png';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const SHOTS = process.env.INVOICE_SHOTS;
const SCAN = gradientPng(64, 48, [230, 230, 220], [180, 190, 200]);
let browser: Browser;

async function api<T>(url: string, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, { headers: token ? { 'X-Access-Token': token } : {} });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (!response.ok || body.code !== 0) throw new Error(`${url}: ${response.status} ${body.message}`);
  return body.result;
}
async function login(account: { username: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  return ((await response.json()) as { result: { token: string } }).result.token;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-drawer-content-wrapper-hidden').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

describe('发票管理: the seller registers the last invoice of a settled order, the buyer confirms it, the order is 已完成', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(screenshotOnFailure);
  afterAll(async () => browser?.close());

  it('seller01 registers the remaining invoice in the browser, buyer01 confirms receipt: 已完成', async () => {
    // the demo's settled order (晋北煤业 → 华东电力) with one confirmed invoice and one reversed: the rest to invoice
    const sellerToken = await login(ACCOUNTS.seller);
    const due = await api<{ records: { orderId: number; orderNo: string; remaining: number; canRegister: boolean }[] }>('/api/invoice/due', sellerToken);
    const order = due.records.find((r) => r.canRegister && r.remaining > 0);
    expect(order, 'a settled demo order still to invoice').toBeTruthy();
    const number = `2614${String(Date.now()).padStart(16, '0')}`;

    const seller = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await seller.page.goto(`${baseUrl}/invoice/list`);
    const row = seller.page.locator('.ant-table-row', { hasText: order!.orderNo });
    await row.waitFor();
    await shot(seller.page, 'invoice-due-seller');
    await seller.page.getByTestId(`register-${order!.orderNo}`).click();
    const modal = seller.page.locator('.ant-modal', { hasText: '登记发票' });
    await modal.getByPlaceholder('数电发票 20 位数字').fill(number);
    await modal.getByTestId('invoice-fill-remaining').click();
    await expect.poll(() => modal.getByTestId('invoice-computed').innerText()).toContain('价税合计');
    const computed = await modal.getByTestId('invoice-computed').innerText();
    // the total shown is the remaining amount, to the fen (or one fen off by the tax rounding)
    expect(computed.replace(/\s/g, '')).toMatch(/价税合计¥[\d,]+\.\d{2}/);
    await modal.locator('input[type=file]').setInputFiles({ name: '数电发票.png', mimeType: 'image/png', buffer: SCAN });
    await modal.locator('.ant-upload-list-item-done, .ant-upload-list-item-container').first().waitFor();
    await shot(seller.page, 'invoice-register-modal');
    await modal.getByRole('button', { name: /登\s?记/ }).click();
    const confirmDialog = seller.page.getByTestId('money-confirm');
    await confirmDialog.waitFor();
    expect(await confirmDialog.innerText()).toContain(number);
    await shot(seller.page, 'invoice-register-confirm');
    await seller.page.getByRole('button', { name: '确认登记' }).click();
    await seller.page.getByText('发票已登记，待买方确认').waitFor();
    // the order left 待开票
    await expect.poll(() => row.count()).toBe(0);
    await seller.page.getByTestId('invoice-tab-all').click();
    await seller.page.locator('.ant-table-row', { hasText: number }).waitFor();
    await shot(seller.page, 'invoice-all-seller');

    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);
    await buyer.page.goto(`${baseUrl}/invoice/list?tab=pending`);
    const pending = buyer.page.locator('.ant-table-row', { hasText: number });
    await pending.waitFor();
    await shot(buyer.page, 'invoice-pending-buyer');
    await pending.getByRole('button', { name: '查看' }).click();
    await buyer.page.getByTestId('invoice-preview').locator('img').waitFor();
    await shot(buyer.page, 'invoice-detail-buyer');
    await buyer.page.locator('.ant-drawer-close').click();
    await buyer.page.getByTestId(`confirm-${number}`).click();
    const receipt = buyer.page.getByTestId('money-confirm');
    await receipt.waitFor();
    expect(await receipt.innerText()).toContain('价税合计');
    await buyer.page.getByRole('button', { name: '确认收票' }).last().click();
    await buyer.page.getByText('已确认收票').waitFor();
    await expect.poll(() => pending.count()).toBe(0);

    await buyer.page.goto(`${baseUrl}/order/info?id=${order!.orderId}`);
    await expect.poll(() => buyer.page.getByTestId('order-info').getAttribute('data-status')).toBe('completed');
    await buyer.page.locator('.coalx-order-status', { hasText: '已完成' }).waitFor();
    await shot(buyer.page, 'invoice-order-completed');
  });
});
