import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { sampleContractPdf } from '../apps/server/src/test/pdf';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
// the pay password the listing spec gives buyer01 too, so either spec may set it first
const PAY_DIGITS = '246810';
const SHOTS = process.env.SIGN_SHOTS;
let browser: Browser;
let workDir: string;

async function api<T>(url: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await response.json()) as { result: T };
  if (!response.ok) throw new Error(`${url}: ${JSON.stringify(body)}`);
  return body.result;
}

/** The enterprise admin's pay password, needed to have their own certificate issued at once. */
async function ensurePayPassword(account: { username: string; password: string }) {
  const login = await api<{ token: string; enterPriseInfo: { clientId: string } }>('/sys/login', { body: account });
  const status = await api<{ isSet: boolean }>('/api/funds/payPassword/status', { token: login.token });
  if (status.isSet) return;
  const password = createHash('sha256').update(`${login.enterPriseInfo.clientId}:${PAY_DIGITS}`).digest('hex');
  await api('/api/funds/payPassword/set', { token: login.token, body: { password } });
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** On 数字证书, the enterprise admin makes a key in this browser and has it certified with the pay password. */
async function installCertificate(page: Page, deviceName: string) {
  await page.goto(`${baseUrl}/ukey/index`);
  await page.getByRole('button', { name: '申请数字证书' }).click();
  const modal = page.locator('.ant-modal', { hasText: '申请数字证书' });
  await modal.getByPlaceholder('如：财务室电脑、张经理笔记本').fill(deviceName);
  await modal.locator('.ant-otp-input').first().click();
  await page.keyboard.type(PAY_DIGITS);
  await modal.getByRole('button', { name: '生成密钥并签发' }).click();
  // issued at once: the device shows as this browser's, enabled
  await page.locator('.ant-table-row', { hasText: deviceName }).filter({ hasText: '本机' }).filter({ hasText: '已启用' }).waitFor();
}

/** On 签章管理, signs `pdf` with the installed certificate and downloads the signed file. */
async function signOnPage(page: Page, fileName: string, pdf: Uint8Array, shotName: string): Promise<Uint8Array> {
  await page.goto(`${baseUrl}/sign/index`);
  const panel = page.locator('.ant-card', { hasText: '签署 PDF 文件' });
  await panel.locator('.coalx-sign-device .ant-select-selection-item').waitFor();
  await panel.locator('input[type=file]').setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
  await page.locator('.coalx-sign-seal').waitFor();
  await shot(page, `${shotName}-ready`);
  await panel.getByRole('button', { name: '签章', exact: true }).click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: '确认签章' });
  await confirm.getByText(fileName).waitFor();
  await confirm.getByRole('button', { name: '确认签章' }).click();
  await page.getByText('签章成功', { exact: true }).first().waitFor();
  await shot(page, `${shotName}-done`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载已签章文件' }).click()]);
  const file = path.join(workDir, `${shotName}.pdf`);
  await download.saveAs(file);
  return new Uint8Array(readFileSync(file));
}

function pdfsig(pdf: Uint8Array): string {
  const file = path.join(workDir, 'check.pdf');
  writeFileSync(file, pdf);
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}

beforeAll(async () => {
  browser = await launchBrowser();
  workDir = mkdtempSync(path.join(tmpdir(), 'coalx-sign-e2e-'));
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('签章管理 and public verification', () => {
  it('two enterprises sign a PDF with keys made in their browsers; pdfsig and the public page find both signatures valid', async () => {
    await ensurePayPassword(ACCOUNTS.seller);
    await ensurePayPassword(ACCOUNTS.buyer);

    const seller = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await installCertificate(seller.page, '销售部电脑');
    const once = await signOnPage(seller.page, '煤炭买卖合同.pdf', await sampleContractPdf(), 'sign-seller');

    // the signing record lists it, by whom and when
    await seller.page.getByRole('tab', { name: '签章记录' }).click();
    const row = seller.page.locator('.ant-table-row', { hasText: '煤炭买卖合同_已签章.pdf' });
    await row.waitFor();
    expect(await row.innerText()).toContain('seller01');
    await shot(seller.page, 'sign-records');

    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);
    await installCertificate(buyer.page, '燃料部电脑');
    const twice = await signOnPage(buyer.page, '煤炭买卖合同_已签章.pdf', once, 'sign-buyer');

    const report = pdfsig(twice);
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain('晋北煤业集团有限公司');
    expect(report).toContain('华东电力燃料有限公司');
    writeFileSync(path.join(workDir, 'twice.pdf'), twice);
    if (SHOTS) writeFileSync(path.join(SHOTS, 'twice.pdf'), twice);

    // a visitor verifies it on the public page
    const visitor = await newPage(browser);
    await visitor.page.goto(`${baseUrl}/sign/index`);
    const verify = visitor.page.locator('.ant-card', { hasText: '签章验证' });
    await verify.locator('input[type=file]').setInputFiles({ name: '待验证合同.pdf', mimeType: 'application/pdf', buffer: Buffer.from(twice) });
    await verify.locator('button', { hasText: '验证' }).click();
    await visitor.page.locator('.ant-alert-success', { hasText: '共 2 个签章，全部有效，文件签署后未被修改' }).waitFor();
    const cards = visitor.page.locator('.coalx-sign-verdict');
    await expect.poll(() => cards.count()).toBe(2);
    expect(await cards.nth(0).innerText()).toContain('晋北煤业集团有限公司');
    expect(await cards.nth(1).innerText()).toContain('华东电力燃料有限公司');
    expect(await cards.nth(0).innerText()).toContain('其后仅追加签章');
    await shot(visitor.page, 'verify-valid');

    // one byte changed: the page says so
    const tampered = new Uint8Array(twice);
    const at = Buffer.from(tampered).indexOf('stream') + 20;
    tampered[at] = tampered[at]! ^ 0x01;
    await verify.locator('input[type=file]').setInputFiles({ name: '被改动的合同.pdf', mimeType: 'application/pdf', buffer: Buffer.from(tampered) });
    await verify.locator('button', { hasText: '验证' }).click();
    await visitor.page.locator('.ant-alert-error', { hasText: '共 2 个签章，其中 2 个无效' }).waitFor();
    expect(await cards.nth(0).innerText()).toContain('内容被篡改');
    await shot(visitor.page, 'verify-tampered');
  });
});
