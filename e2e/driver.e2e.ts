import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { idCardCheckChar } from '@coalx/shared';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { drivingLicencePng, idCardPng, vehicleLicencePng, type DemoDriverCard } from '../apps/server/src/demo/driver-photos';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
const SHOTS = process.env.DRIVER_SHOTS;
let browser: Browser;

async function api<T>(url: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (!response.ok || body.code !== 0) throw new Error(`${url}: ${response.status} ${body.message}`);
  return body.result;
}

const login = async (account: { username: string; password: string }) => (await api<{ token: string }>('/sys/login', { body: account })).token;

async function uploadPhoto(token: string, name: string, png: Buffer): Promise<string> {
  const form = new FormData();
  form.append('visibility', 'private');
  form.append('file', new Blob([png], { type: 'image/png' }), name);
  const response = await fetch(`${baseUrl}/trade-api/api/common/upload`, { method: 'POST', headers: { 'X-Access-Token': token }, body: form });
  const body = (await response.json()) as { code: number; message: string; result: { url: string } };
  if (body.code !== 0) throw new Error(`upload: ${body.message}`);
  return body.result.url;
}

/** seller01 registers a driver with his three photos, as the 司机车辆 form does; returns id and plate. */
async function registerDriver(token: string, name: string, plateNo: string): Promise<{ id: number; plateNo: string; name: string }> {
  const first17 = `140602198${randomInt(0, 10)}0${randomInt(1, 10)}1${randomInt(0, 10)}${String(randomInt(0, 1000)).padStart(3, '0')}`;
  const idCardNo = first17 + idCardCheckChar(first17);
  const card: DemoDriverCard = { name, idCardNo, address: '山西省朔州市朔城区开发路街道12号', licenceNo: idCardNo, plateNo, vehicleTypeText: '重型半挂牵引车', ratedLoadKg: 49_000, ownerName: '晋北煤业集团有限公司' };
  const driver = await api<{ id: number; status: string }>('/api/driver', {
    token,
    body: {
      name,
      idCardNo,
      mobile: '13835011201',
      licenceNo: idCardNo,
      plateNo,
      vehicleType: 'heavy_semi_trailer',
      ratedLoadKg: 49_000,
      idCardPhoto: await uploadPhoto(token, `${name}-身份证.png`, idCardPng(card)),
      drivingLicencePhoto: await uploadPhoto(token, `${name}-驾驶证.png`, drivingLicencePng(card)),
      vehicleLicencePhoto: await uploadPhoto(token, `${name}-行驶证.png`, vehicleLicencePng(card)),
    },
  });
  expect(driver.status).toBe('pending');
  return { id: driver.id, plateNo, name };
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-drawer-content-wrapper-motion').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** A plate no other run of this spec has used: 晋F + 5 random digits. */
const freshPlate = () => `晋F${String(randomInt(0, 100_000)).padStart(5, '0')}`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

describe('司机审核', () => {
  it('the operator sees the photos of drivers seller01 registered, approves one and rejects another with a reason', async () => {
    const seller = await login(ACCOUNTS.seller);
    const first = await registerDriver(seller, '张志强', freshPlate());
    const second = await registerDriver(seller, '李永红', freshPlate());

    const { page } = await newPage(browser);
    await signIn(page, baseUrl, OPERATOR);
    await page.goto(`${baseUrl}/logistics/driverAudit`);
    const firstRow = page.locator('.ant-table-row', { hasText: first.plateNo });
    await firstRow.waitFor();
    expect(await firstRow.innerText()).toContain('待审核');
    expect(await firstRow.innerText()).toContain('晋北煤业集团有限公司');
    expect(await firstRow.innerText()).toContain('49.00');
    await shot(page, 'driver-audit-queue');

    // the detail: the three photos, loaded through the operator's token
    await firstRow.getByRole('button', { name: '详情' }).click();
    const drawer = page.locator('.ant-drawer-content', { hasText: `司机审核：${first.name}` });
    await drawer.waitFor();
    const images = drawer.locator('img.ant-image-img');
    await expect.poll(() => images.count()).toBe(3);
    await expect
      .poll(() => images.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0).length))
      .toBe(3);
    // through short-lived signed links: no token in any address
    for (const src of await images.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src))) {
      expect(src).toContain('signature=');
      expect(src).not.toContain('token=');
    }
    for (const label of ['身份证照片', '驾驶证照片', '行驶证照片', first.plateNo, '重型半挂牵引车', '49.00 吨']) expect(await drawer.innerText()).toContain(label);
    await shot(page, 'driver-audit-drawer');

    await page.locator('.ant-drawer-extra').getByRole('button', { name: '通过' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '通过' }).click();
    await page.locator('.ant-message-notice', { hasText: `已通过「${first.name} ${first.plateNo}」` }).first().waitFor();
    await firstRow.waitFor({ state: 'detached' });
    expect((await api<{ status: string }>(`/api/driver/${first.id}`, { token: seller })).status).toBe('approved');

    // 驳回 needs a reason; the enterprise reads it beside the driver
    const secondRow = page.locator('.ant-table-row', { hasText: second.plateNo });
    await secondRow.getByRole('button', { name: '驳回' }).click();
    const dialog = page.locator('.ant-modal', { hasText: `驳回：${second.name}` });
    await dialog.getByRole('button', { name: '确认驳回' }).click();
    await page.locator('.ant-message-notice', { hasText: '请填写驳回原因（至少 2 个字）' }).first().waitFor();
    await dialog.locator('textarea').fill('行驶证照片反光，核定载质量看不清，请重新拍摄上传');
    await dialog.getByRole('button', { name: '确认驳回' }).click();
    await page.locator('.ant-message-notice', { hasText: `已驳回「${second.name} ${second.plateNo}」` }).first().waitFor();
    const rejected = await api<{ status: string; auditNote: string }>(`/api/driver/${second.id}`, { token: seller });
    expect(rejected).toMatchObject({ status: 'rejected', auditNote: '行驶证照片反光，核定载质量看不清，请重新拍摄上传' });

    // the 已驳回 tab lists him with the state
    await page.locator('.ant-pro-table-list-toolbar').getByText('已驳回', { exact: true }).click();
    const rejectedRow = page.locator('.ant-table-row', { hasText: second.plateNo });
    await rejectedRow.waitFor();
    expect(await rejectedRow.innerText()).toContain('已驳回');
    await shot(page, 'driver-audit-rejected');
  });

  it('a trader cannot approve a driver through the API', async () => {
    const seller = await login(ACCOUNTS.seller);
    const driver = await registerDriver(seller, '赵保平', freshPlate());
    const response = await fetch(`${baseUrl}/trade-api/api/driver/${driver.id}/approve`, { method: 'POST', headers: { 'X-Access-Token': seller } });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(/[\u4e00-\u9fa5]/);
    expect((await api<{ status: string }>(`/api/driver/${driver.id}`, { token: seller })).status).toBe('pending');
  });
});
