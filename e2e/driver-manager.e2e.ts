import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { idCardCheckChar } from '@coalx/shared';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { drivingLicencePng, idCardPng, vehicleLicencePng, type DemoDriverCard } from '../apps/server/src/demo/driver-photos';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const SHOTS = process.env.DRIVER_SHOTS;
let browser: Browser;

async function api<T>(url: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (!response.ok || body.code !== 0) throw new Error(`${url}: ${response.status} ${body.message}`);
  return body.result;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-drawer-content-wrapper-motion').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => browser?.close());

/**
 * 运输信息 → 司机车辆 (components/driver/DriverManager): needs the 运输信息 page that renders it (the delivery work);
 * until then the route shows 建设中 and this spec fails at 新增司机.
 */
describe('司机车辆', () => {
  it('seller01 registers a driver with three photos in the browser; a rejected one shows the reason and is edited back to audit', async () => {
    const first17 = `14060219850317${String(randomInt(0, 1000)).padStart(3, '0')}`;
    const idCardNo = first17 + idCardCheckChar(first17);
    const wrong = first17 + (idCardCheckChar(first17) === '1' ? '2' : '1');
    const plateNo = `晋F${String(randomInt(0, 100_000)).padStart(5, '0')}`;
    const card: DemoDriverCard = { name: '王建国', idCardNo, address: '山西省朔州市朔城区开发路街道12号', licenceNo: idCardNo, plateNo, vehicleTypeText: '重型自卸货车', ratedLoadKg: 31_000, ownerName: '晋北煤业集团有限公司' };

    const { page } = await newPage(browser);
    await signIn(page, baseUrl, ACCOUNTS.seller);
    await page.goto(`${baseUrl}/logistics/transport`);
    // 运输信息 shows the drivers in its 「司机车辆」 tab
    await page.getByRole('tab', { name: '司机车辆' }).click();
    await page.getByRole('button', { name: '新增司机' }).click();
    const modal = page.locator('.ant-modal', { hasText: '新增司机' });
    await modal.getByLabel('司机姓名').fill('王建国');
    await modal.getByLabel('身份证号码').fill(wrong);
    await modal.getByLabel('手机号码').fill('13835011201');
    await modal.getByLabel('驾驶证号').fill(idCardNo);
    await modal.getByLabel('车牌号').fill(plateNo.toLowerCase());
    await modal.getByLabel('车辆类型').click();
    await page.locator('.ant-select-item-option', { hasText: '重型自卸货车' }).click();
    await modal.getByLabel('核定载重(吨)').fill('31');
    const files = modal.locator('input[type=file]');
    await files.nth(0).setInputFiles({ name: '身份证.png', mimeType: 'image/png', buffer: idCardPng(card) });
    await files.nth(1).setInputFiles({ name: '驾驶证.png', mimeType: 'image/png', buffer: drivingLicencePng(card) });
    await files.nth(2).setInputFiles({ name: '行驶证.png', mimeType: 'image/png', buffer: vehicleLicencePng(card) });
    await expect.poll(() => modal.locator('.ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading)').count()).toBe(3);
    await modal.getByRole('button', { name: '提交审核' }).click();
    await modal.getByText('身份证号码校验位不正确').waitFor();
    await shot(page, 'driver-form-error');
    await modal.getByLabel('身份证号码').fill(idCardNo);
    await modal.getByRole('button', { name: '提交审核' }).click();
    await page.locator('.ant-message-notice', { hasText: '已登记，等待交易中心审核' }).first().waitFor();
    const row = page.locator('.ant-table-row', { hasText: plateNo });
    await row.waitFor();
    expect(await row.innerText()).toContain('待审核');
    expect(await row.innerText()).toContain('31.00');
    await shot(page, 'driver-manager-list');

    // the operator rejects; the enterprise sees why and edits him back to audit
    const operator = (await api<{ token: string }>('/sys/login', { body: { username: 'operator', password: 'Operator#2026' } })).token;
    const mine = await api<{ records: { id: number; plateNo: string }[] }>(`/api/driver/list?plateNo=${encodeURIComponent(plateNo)}`, { token: operator });
    await api(`/api/driver/${mine.records[0]!.id}/reject`, { token: operator, body: { reason: '驾驶证照片不清晰，请重新上传' } });
    await page.reload();
    await row.waitFor();
    expect(await row.innerText()).toContain('已驳回');
    expect(await row.innerText()).toContain('驾驶证照片不清晰');
    await shot(page, 'driver-manager-rejected');
    await row.getByRole('button', { name: '编辑' }).click();
    const edit = page.locator('.ant-modal', { hasText: '编辑司机' });
    await edit.getByText('驳回原因：驾驶证照片不清晰，请重新上传').waitFor();
    // the three stored photos as thumbnails: private files, shown through signed links (no token in any address)
    const thumbs = edit.locator('.ant-upload-list-item img');
    await expect
      .poll(() => thumbs.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0).length))
      .toBe(3);
    for (const src of await thumbs.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src))) {
      expect(src).toContain('signature=');
      expect(src).not.toContain('token=');
    }
    await shot(page, 'driver-form-edit');
    // saved after a rejection: back to the trading centre's queue
    await edit.getByRole('button', { name: '保存' }).click();
    await page.locator('.ant-message-notice', { hasText: '已修改，等待交易中心重新审核' }).first().waitFor();
    await expect.poll(() => row.innerText()).toContain('待审核');
    await row.getByRole('button', { name: '详情' }).click();
    await page.locator('.ant-drawer-content').getByText('证件照片').waitFor();
    await shot(page, 'driver-manager-drawer');
  });
});
