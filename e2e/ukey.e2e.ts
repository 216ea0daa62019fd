import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
// trader01 is the trader of seller01's enterprise (晋北煤业); seller01 is its enterprise admin
const TRADER = { username: 'trader01', password: 'Trader#2026' };
const ADMIN = ACCOUNTS.seller;
const DEVICE = '王强办公电脑';
let browser: Browser;

async function setSwitch(code: 'PayPassword' | 'UkeySwitch', content: '0' | '1') {
  const login = await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OPERATOR) });
  const token = ((await login.json()) as { result: { token: string } }).result.token;
  const response = await fetch(`${baseUrl}/trade-api/sys/switch/update`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'X-Access-Token': token },
    body: JSON.stringify({ code, content }),
  });
  expect(response.status).toBe(200);
}

async function signInSettled(page: Page, account: { username: string; password: string }) {
  await signIn(page, baseUrl, account);
  await page.waitForLoadState('networkidle');
}

const expectMessage = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first().waitFor();

/** Opens the withdrawal form, asks for ¥100.00, confirms the amount and returns the key-signature modal that comes up. */
async function askWithdrawal(page: Page) {
  await page.goto(`${baseUrl}/financial/application?tab=withdraw&apply=1`);
  const form = page.locator('.ant-modal', { hasText: '申请出金' });
  await form.getByText('银行账号').waitFor();
  await form.getByPlaceholder('请输入出金金额').fill('100');
  await form.getByRole('button', { name: '提交' }).click();
  // the money confirmation comes first, then the key signs
  const confirmOut = page.getByTestId('money-confirm');
  await confirmOut.waitFor();
  expect(await confirmOut.innerText()).toContain('¥100.00');
  await page.getByRole('button', { name: '确定出金' }).click();
  const signModal = page.locator('.ant-modal', { hasText: '数字证书签名确认' });
  await signModal.waitFor();
  return signModal;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await setSwitch('UkeySwitch', '0').catch(() => undefined);
  await browser?.close();
});

describe('key devices', () => {
  it('a trader applies in the browser, the enterprise admin approves, and with UkeySwitch on a withdrawal is signed by the key', async () => {
    // the trader makes the key in this browser and applies
    const trader = await newPage(browser);
    await signInSettled(trader.page, TRADER);
    await trader.page.goto(`${baseUrl}/ukeyManage/info`);
    await trader.page.getByText('整个过程不到一分钟').waitFor();
    await trader.page.getByRole('button', { name: '申请数字证书' }).click();
    await trader.page.getByPlaceholder('如：财务室电脑、张经理笔记本').fill(DEVICE);
    await trader.page.getByRole('button', { name: '生成密钥并提交申请' }).click();
    await trader.page.getByText('申请已提交，企业管理员批准后证书即在本机生效').waitFor();
    await trader.page.getByRole('button', { name: '完成' }).click();
    const traderRow = trader.page.locator('.ant-table-row', { hasText: DEVICE });
    expect(await traderRow.innerText()).toContain('待审批');

    // the enterprise admin sees the request (and the demo's revoked device) and approves it
    const admin = await newPage(browser);
    await signInSettled(admin.page, ADMIN);
    await admin.page.goto(`${baseUrl}/ukeyManage/info`);
    await admin.page.getByText(/个数字证书申请等待您审批/).waitFor();
    expect(await admin.page.locator('.ant-table-row', { hasText: '旧办公电脑' }).innerText()).toContain('已注销');
    const adminRow = admin.page.locator('.ant-table-row', { hasText: DEVICE });
    await adminRow.getByRole('button', { name: '批准' }).click();
    await admin.page.locator('.ant-popover').getByRole('button', { name: '批准' }).click();
    await expectMessage(admin.page, '证书已签发');

    // the certificate shows on the trader's page, installed in this browser
    await trader.page.reload();
    await traderRow.getByText('本机').waitFor();
    expect(await traderRow.innerText()).toMatch(/已启用[\s\S]*有效/);
    await traderRow.getByRole('button', { name: '证书详情' }).click();
    const drawer = trader.page.locator('.ant-drawer');
    await drawer.getByText('SHA-256 指纹').waitFor();
    expect(await drawer.innerText()).toContain('晋北煤业集团有限公司');
    expect(await drawer.innerText()).toContain('CoalX 平台数字证书根 CA');
    await drawer.locator('.ant-drawer-close').click();

    // UkeySwitch on: the withdrawal shows the amount, is signed by the key and goes through
    await setSwitch('UkeySwitch', '1');
    const signModal = await askWithdrawal(trader.page);
    expect(await signModal.innerText()).toContain('¥100.00');
    await signModal.getByText(DEVICE).waitFor();
    await signModal.getByRole('button', { name: '签名并确认' }).click();
    await expectMessage(trader.page, '出金申请已提交，金额已冻结');
    await signModal.waitFor({ state: 'detached' });
    expect(await trader.page.locator('.ant-table-row', { hasText: '¥100.00' }).first().innerText()).toContain('待付款');

    // the list now says when the key was last used
    await trader.page.goto(`${baseUrl}/ukeyManage/info`);
    expect(await traderRow.innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[\s\S]*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    // the enterprise admin's browser holds no key: it is told so, and nothing moves
    const noKey = await askWithdrawal(admin.page);
    await noKey.getByText('本机未安装数字证书，请先申请或在已安装证书的电脑上操作').waitFor();
    expect(await noKey.getByRole('button', { name: '签名并确认' }).isDisabled()).toBe(true);
    await noKey.getByRole('button', { name: /取\s*消/ }).click();
    await noKey.waitFor({ state: 'detached' });

    await setSwitch('UkeySwitch', '0');
    await trader.context.close();
    await admin.context.close();
  });
});
