import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTRACT_SEAL_PLACEMENT } from '../apps/server/src/lib/pdf/contract-pdf';
import { PAGE_HEIGHT, PAGE_WIDTH } from '../apps/server/src/lib/pdf/document-pdf';
import { api, login, payHash, ensurePayPassword, setPayPasswordSwitch, PAY_DIGITS, shot as shotInto } from './api';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const SELLER_NAME = '晋北煤业集团有限公司';
const BUYER_NAME = '华东电力燃料有限公司';
/** 612 t: an amount no demo deal has, so the deal is found by it */
const QUANTITY_KG = 612_000;
const SHOTS = process.env.CONTRACT_SHOTS;
let browser: Browser;
let payPasswordBefore: string | null = null;





const shot = (page: Page, name: string, fullPage = false) => shotInto(SHOTS, page, name, fullPage);

/** On 数字证书, the enterprise admin makes a key in this browser and has it certified with the pay password. */
async function installCertificate(page: Page, deviceName: string) {
  await page.goto(`${baseUrl}/ukey/index`);
  await page.getByRole('button', { name: '申请数字证书' }).click();
  const modal = page.locator('.ant-modal', { hasText: '申请数字证书' });
  await modal.getByPlaceholder('如：财务室电脑、张经理笔记本').fill(deviceName);
  await modal.locator('.ant-otp-input').first().click();
  await page.keyboard.type(PAY_DIGITS);
  await modal.getByRole('button', { name: '生成密钥并签发' }).click();
  await page.locator('.ant-table-row', { hasText: deviceName }).filter({ hasText: '本机' }).filter({ hasText: '已启用' }).waitFor();
}

/** buyer01 subscribes 612 t of an open listing of seller01 (confirmed by seller01 unless it confirms itself). */
async function makeDeal(): Promise<{ tradeId: string; dealNo: string }> {
  const buyer = await login(ACCOUNTS.buyer);
  const seller = await login(ACCOUNTS.seller);
  const market = await api<{ records: { tradeId: string; enterpriseName: string; hangState: number; remainingQuantity: number; minSubscribe?: number }[] }>(
    '/api/tradeHome/listedTrade/list',
    { body: { pageNo: 1, pageSize: 50, tradeType: 0 } },
  );
  const listing = market.records.find((r) => r.enterpriseName === SELLER_NAME && r.hangState === 1 && r.remainingQuantity >= QUANTITY_KG);
  expect(listing, 'an open listing sale of seller01 in the demo data').toBeTruthy();
  const sub = await api<{ id: number; status: string }>('/api/listedAnswerApply', {
    token: buyer.token,
    body: { tradeId: listing!.tradeId, quantity: QUANTITY_KG, requestId: randomUUID(), payPassword: payHash(buyer.enterPriseInfo.clientId) },
  });
  if (sub.status !== 'confirmed') await api('/api/listedRecord/answerOrdersDeal', { token: seller.token, body: { id: sub.id, action: 'confirm' } });
  const deals = await api<{ records: { dealNo: string; quantity: number }[] }>('/api/mydealListedTradeList', {
    token: buyer.token,
    body: { tradeId: listing!.tradeId, pageNo: 1, pageSize: 50 },
  });
  const deal = deals.records.find((d) => d.quantity === QUANTITY_KG);
  expect(deal).toBeTruthy();
  // the contract is made on deal.created (or by the minute sweep)
  await expect
    .poll(async () => (await fetch(`${baseUrl}/trade-api/api/contract/by-deal/${deal!.dealNo}`, { headers: { 'X-Access-Token': buyer.token } })).status, {
      timeout: 90_000,
      intervals: [1_000],
    })
    .toBe(200);
  return { tradeId: listing!.tradeId, dealNo: deal!.dealNo };
}

/** 签署 in the open dialog: it names the contract, the counterparty and the amount; then the pay password. */
async function signInDialog(page: Page, contractNo: string, counterparty: string, amount: string, shotName: string) {
  const dialog = page.getByTestId('contract-sign-confirm');
  await dialog.waitFor();
  await page.locator('.coalx-contract-sign-device .ant-select-selection-item').waitFor();
  const text = await dialog.innerText();
  for (const expected of [contractNo, counterparty, amount]) expect(text).toContain(expected);
  await shot(page, `${shotName}-confirm`);
  await page.getByRole('button', { name: '确认签署' }).click();
  const password = page.locator('.ant-modal', { hasText: '签署合同：请输入支付密码' });
  await password.waitFor();
  await password.locator('input').first().click();
  await page.keyboard.type(PAY_DIGITS);
  await password.getByRole('button', { name: '确认支付' }).click();
}

/** Reddish pixels of the PDF canvas inside a seal room of the last page (PDF points, origin lower left). */
async function redPixelsInSeal(page: Page, side: 'seller' | 'buyer'): Promise<number> {
  const room = CONTRACT_SEAL_PLACEMENT[side];
  return page.getByTestId('pdf-canvas').evaluate(
    (canvas: HTMLCanvasElement, { room, width, height }) => {
      const scale = canvas.width / width;
      const x = Math.floor(room.x * scale);
      const y = Math.floor((height - room.y - room.size) * scale);
      const size = Math.ceil(room.size * scale);
      const data = canvas.getContext('2d')!.getImageData(x, y, size, size).data;
      let red = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! > 170 && data[i + 1]! < 100 && data[i + 2]! < 100) red += 1;
      return red;
    },
    { room, width: PAGE_WIDTH, height: PAGE_HEIGHT },
  );
}

/** The PDF viewer on its last page, drawn. */
async function showLastPage(page: Page) {
  const canvas = page.getByTestId('pdf-canvas');
  await expect.poll(async () => Number(await canvas.getAttribute('data-pages'))).toBeGreaterThan(0);
  const pages = Number(await canvas.getAttribute('data-pages'));
  if (Number(await canvas.getAttribute('data-page')) !== pages) {
    await page.getByLabel('页码').fill(String(pages));
    await page.getByLabel('页码').press('Enter');
  }
  await expect.poll(() => canvas.getAttribute('data-page')).toBe(String(pages));
  await expect.poll(async () => Number(await canvas.getAttribute('data-rendered'))).toBeGreaterThan(0);
  await page.locator('.coalx-pdf-spin').waitFor({ state: 'detached' });
}

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await login({ username: 'admin', password: 'Admin#2026' });
  const switches = await api<{ code: string; content: string }[]>('/sys/switch/list', { token: admin.token }).catch(() => []);
  payPasswordBefore = switches.find((s) => s.code === 'PayPassword')?.content ?? '0';
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
  // other specs share this server: leave the PayPassword switch as we found it
  if (payPasswordBefore !== null) await setPayPasswordSwitch(payPasswordBefore).catch(() => undefined);
});

describe('contracts (合同)', () => {
  it('a listing deal makes a contract; seller01 and buyer01 sign it with keys made in their browsers; it is effective and the PDF shows both seals', async () => {
    await setPayPasswordSwitch('1');
    await ensurePayPassword(await login(ACCOUNTS.seller));
    await ensurePayPassword(await login(ACCOUNTS.buyer));
    const { tradeId, dealNo } = await makeDeal();

    // seller01: a key in its browser, then from 挂牌成交 to the deal's contract
    const seller = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await installCertificate(seller.page, '合同签署电脑（卖方）');
    await seller.page.goto(`${baseUrl}/listingTrade/deal?tradeId=${tradeId}`);
    const dealRow = seller.page.locator('.ant-table-row', { hasText: '612.00' });
    await dealRow.waitFor();
    await shot(seller.page, 'listing-deal');
    await dealRow.getByRole('button', { name: '查看合同' }).click();
    await seller.page.waitForURL((url) => url.pathname === '/contract/info' && url.search.includes(dealNo));
    const info = seller.page.getByTestId('contract-info');
    await info.waitFor();
    const contractNo = (await seller.page.getByTestId('contract-no').innerText()).trim();
    expect(contractNo).toMatch(/^HT\d{12}$/);
    const amount = (await seller.page.getByTestId('contract-amount').innerText()).trim();
    expect(amount).toMatch(/^¥[\d,]+\.\d{2}$/);
    expect(await info.getAttribute('data-status')).toBe('pending');
    expect(await seller.page.getByTestId('contract-countdown').innerText()).toMatch(/^剩余 \d+ 小时 \d+ 分$|^剩余 \d+ 分$/);
    expect(await seller.page.getByTestId('party-seller').innerText()).toContain(SELLER_NAME);
    expect(await seller.page.getByTestId('party-buyer').innerText()).toContain(BUYER_NAME);
    // unsigned: no red in either seal room of the last page
    await showLastPage(seller.page);
    expect(await redPixelsInSeal(seller.page, 'seller')).toBe(0);
    expect(await redPixelsInSeal(seller.page, 'buyer')).toBe(0);
    await shot(seller.page, 'contract-info-pending', true);

    await seller.page.getByRole('button', { name: '签署', exact: true }).click();
    await signInDialog(seller.page, contractNo, BUYER_NAME, amount, 'contract-seller-sign');
    await seller.page.locator('.ant-modal-confirm', { hasText: '我方已签署，等待对方签署' }).waitFor();
    await seller.page.locator('.ant-modal-confirm').getByRole('button', { name: '知道了' }).click();
    await expect.poll(() => info.getAttribute('data-status')).toBe('seller_signed');
    await expect.poll(() => seller.page.getByTestId('contract-signature').count()).toBe(1);
    await showLastPage(seller.page);
    await expect.poll(() => redPixelsInSeal(seller.page, 'seller')).toBeGreaterThan(200);
    expect(await redPixelsInSeal(seller.page, 'buyer')).toBe(0);
    await shot(seller.page, 'contract-info-seller-signed', true);

    // buyer01: its own key, then 合同上传与签署 lists the contract waiting for it
    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);
    await installCertificate(buyer.page, '合同签署电脑（买方）');
    await buyer.page.goto(`${baseUrl}/contract/sign`);
    const row = buyer.page.locator('.ant-table-row', { hasText: contractNo });
    await row.waitFor();
    expect(await row.innerText()).toContain('卖方已签');
    await shot(buyer.page, 'contract-sign-page');
    await row.getByRole('button', { name: '签署', exact: true }).click();
    await signInDialog(buyer.page, contractNo, SELLER_NAME, amount, 'contract-buyer-sign');
    await buyer.page.locator('.ant-modal-confirm', { hasText: '双方均已签署，合同已生效' }).waitFor();
    await buyer.page.locator('.ant-modal-confirm').getByRole('button', { name: '知道了' }).click();
    // nothing is left waiting for the buyer
    await buyer.page.locator('.ant-table-row', { hasText: contractNo }).waitFor({ state: 'detached' });

    // the contract list says 已生效, or already 履行中 once its order is made (flows/make-order.ts follows at once);
    // the detail lists both signatures and the PDF carries both seals
    await buyer.page.goto(`${baseUrl}/contract/list`);
    const listed = buyer.page.locator('.ant-table-row', { hasText: contractNo });
    await listed.waitFor();
    expect(await listed.innerText()).toMatch(/已生效|履行中/);
    expect(await listed.innerText()).toContain(SELLER_NAME);
    await shot(buyer.page, 'contract-list');
    await listed.getByRole('button', { name: '查看' }).click();
    const detail = buyer.page.getByTestId('contract-info');
    await expect.poll(() => detail.getAttribute('data-status')).toMatch(/^(effective|performing)$/);
    const signatures = buyer.page.getByTestId('contract-signature');
    await expect.poll(() => signatures.count()).toBe(2);
    expect(await signatures.nth(0).innerText()).toContain('数字证书');
    const both = `${await signatures.nth(0).innerText()}${await signatures.nth(1).innerText()}`;
    expect(both).toContain(SELLER_NAME);
    expect(both).toContain(BUYER_NAME);
    await showLastPage(buyer.page);
    await expect.poll(() => redPixelsInSeal(buyer.page, 'buyer')).toBeGreaterThan(200);
    expect(await redPixelsInSeal(buyer.page, 'seller')).toBeGreaterThan(200);
    await shot(buyer.page, 'contract-info-effective', true);
    // once effective nobody may sign or edit any more
    expect(await buyer.page.getByRole('button', { name: '签署', exact: true }).count()).toBe(0);
    expect(await buyer.page.getByRole('button', { name: '编辑条款' }).count()).toBe(0);

    // the trading centre sees it among all contracts, with both parties
    const operator = await newPage(browser);
    await signIn(operator.page, baseUrl, { username: 'operator', password: 'Operator#2026' });
    await operator.page.goto(`${baseUrl}/contract/list`);
    await operator.page.getByPlaceholder('请输入合同编号').fill(contractNo);
    await operator.page.getByRole('button', { name: '查 询' }).or(operator.page.getByRole('button', { name: '查询' })).click();
    const operatorRow = operator.page.locator('.ant-table-row', { hasText: contractNo });
    await operatorRow.waitFor();
    expect(await operatorRow.innerText()).toContain(BUYER_NAME);
    await shot(operator.page, 'contract-list-operator');
    await operator.page.getByText('逾期未签', { exact: true }).click();
    await operator.page.getByText('全部合同', { exact: true }).waitFor();
    await operatorRow.waitFor({ state: 'detached' });
    await shot(operator.page, 'contract-list-operator-overdue');

    if (SHOTS) {
      // the other pages that link to contracts, as they look at 1440 px
      for (const [where, name] of [['/listingTrade/result', 'listing-result'], ['/auctionTrade/deal', 'auction-deal'], ['/auctionTrade/result', 'auction-result']]) {
        await seller.page.goto(`${baseUrl}${where}`);
        await seller.page.locator('.ant-table-row, .ant-empty').first().waitFor();
        await shot(seller.page, name);
      }
    }
  });
});
