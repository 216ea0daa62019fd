import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, signIn } from './browser';

const baseUrl = inject('baseUrl');
const api = `${baseUrl}/trade-api`;
const PAY_DIGITS = '246810';
let browser: Browser;

async function call<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${api}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (body.code !== 0) throw new Error(`${path}: ${body.message}`);
  return body.result;
}

async function apiLogin(username: string, password: string) {
  return call<{ token: string; enterPriseInfo: { clientId: string } | null }>('/sys/login', { body: { username, password } });
}

/** Shanghai wall-clock text of an instant, as the trader types it into the form. */
function shanghai(ms: number, withTime = true): string {
  const text = new Date(ms + 8 * 3600 * 1000).toISOString().replace('T', ' ').slice(0, 19);
  return withTime ? text : text.slice(0, 10);
}

async function pickRange(page: Page, startPlaceholder: string, endPlaceholder: string, start: string, end: string) {
  await page.getByPlaceholder(startPlaceholder).click();
  await page.getByPlaceholder(startPlaceholder).fill(start);
  await page.keyboard.press('Enter');
  await page.getByPlaceholder(endPlaceholder).fill(end);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

async function expectMessage(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

let payPasswordBefore: string | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await apiLogin('admin', 'Admin#2026');
  const switches = await call<{ code: string; content: string }[]>('/sys/switch/list', { token: admin.token }).catch(() => []);
  payPasswordBefore = switches.find((s) => s.code === 'PayPassword')?.content ?? null;
});

afterAll(async () => {
  await browser?.close();
  // other specs share this server: leave the PayPassword switch as we found it (on, in a fresh installation)
  const admin = await apiLogin('admin', 'Admin#2026').catch(() => null);
  if (admin && payPasswordBefore !== null) await call('/sys/switch/update', { method: 'PUT', token: admin.token, body: { code: 'PayPassword', content: payPasswordBefore } }).catch(() => undefined);
});

describe('listing trading (挂牌)', () => {
  it('seller publishes → operator approves → buyer subscribes with the pay password → seller confirms → the result notice shows the deal', async () => {
    // The pay password is on, and buyer01 (its enterprise admin) has one.
    const admin = await apiLogin('admin', 'Admin#2026');
    await call('/sys/switch/update', { method: 'PUT', token: admin.token, body: { code: 'PayPassword', content: '1' } });
    const buyerApi = await apiLogin(ACCOUNTS.buyer.username, ACCOUNTS.buyer.password);
    const clientId = buyerApi.enterPriseInfo!.clientId;
    const status = await call<{ isSet: boolean }>('/api/funds/payPassword/status', { token: buyerApi.token });
    if (!status.isSet) {
      const hash = createHash('sha256').update(`${clientId}:${PAY_DIGITS}`).digest('hex');
      await call('/api/funds/payPassword/set', { token: buyerApi.token, body: { password: hash } });
    }

    // 1. seller01 publishes a listing sale whose window opens about a minute from now.
    const seller = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await seller.page.goto(`${baseUrl}/listingTrade/tradeStart?tradeType=0`);
    const form = seller.page;
    await form.getByText('发起挂牌销售').first().waitFor();
    await form.locator('.ant-select', { hasText: '请选择产品' }).click();
    await form.locator('.ant-select-item-option', { hasText: '动力煤 5500' }).click();
    // the product fills its default quality indicators
    await expect.poll(() => form.getByLabel('发热量 Qnet,ar').inputValue()).toBe('5500');
    await form.getByLabel('挂牌数量').fill('1000');
    await form.getByLabel('销售价格').fill('800.50');
    await form.getByLabel('最小摘牌量').fill('100');
    await form.getByLabel('最大摘牌量').fill('1200');
    await form.getByLabel('保证金（每吨）').fill('10');
    await form.locator('.ant-cascader').click();
    await form.locator('.ant-cascader-menu-item', { hasText: '山西省' }).click();
    await form.locator('.ant-cascader-menu-item', { hasText: '太原市' }).click();
    await form.keyboard.press('Escape');
    await form.getByLabel('交收地点').fill('太原市小店区 E2E 储煤场');
    const opensAt = Date.now() + 75_000;
    await pickRange(form, '挂牌开始时间', '挂牌结束时间', shanghai(opensAt), shanghai(opensAt + 2 * 24 * 3600_000));
    await pickRange(form, '交收开始日期', '交收结束日期', shanghai(opensAt + 24 * 3600_000, false), shanghai(opensAt + 20 * 24 * 3600_000, false));

    // the cross-field rule speaks before the server does
    await form.getByRole('button', { name: '提交审核' }).click();
    await form.getByText('最大摘牌量不能大于挂牌数量').waitFor();
    await form.getByLabel('最大摘牌量').fill('500');
    await form.getByRole('button', { name: '提交审核' }).click();
    await expectMessage(form, '已提交，等待交易中心审核');
    await form.waitForURL('**/listingTrade/query');
    const firstRow = form.locator('.ant-table-row').first();
    await firstRow.waitFor();
    const tradeId = (await firstRow.locator('a[href*="tradeId="]').first().innerText()).trim();
    expect(tradeId).toMatch(/^GP\d{12}$/);
    await firstRow.getByText('待审核').waitFor();

    // 2. the operator approves it.
    const operator = await newPage(browser);
    await signIn(operator.page, baseUrl, { username: 'operator', password: 'Operator#2026' });
    await operator.page.goto(`${baseUrl}/operation/tradeAudit`);
    const auditRow = operator.page.locator('.ant-table-row', { hasText: tradeId });
    await auditRow.getByRole('button', { name: '通过' }).click();
    await operator.page.locator('.ant-popconfirm').getByRole('button', { name: '通过' }).click();
    await expectMessage(operator.page, '审核通过');
    await operator.context.close();

    // 3. once the window opens, buyer01 subscribes 200 t with the pay password.
    await expect
      .poll(async () => (await call<{ hangState: number }>('/api/listedApplyDetail', { body: { tradeId } })).hangState, {
        timeout: 150_000,
        intervals: [2_000],
      })
      .toBe(1);
    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);
    await buyer.page.goto(`${baseUrl}/hang/hangSale?tradeId=${tradeId}`);
    const quantity = buyer.page.getByLabel('摘牌数量');
    await quantity.fill('50');
    await buyer.page.getByText('摘牌数量不能小于最小摘牌量 100.00 吨').waitFor();
    await quantity.fill('200');
    await expect.poll(() => buyer.page.getByTestId('subscribe-amount').innerText()).toBe('¥160,100.00');
    expect(await buyer.page.getByTestId('subscribe-deposit').innerText()).toBe('¥2,000.00');
    await buyer.page.getByRole('button', { name: '确认摘牌' }).click();
    // the amount, the deposit and the quantity are confirmed before the pay password and before anything moves
    const confirm = buyer.page.getByTestId('money-confirm');
    await confirm.waitFor();
    for (const text of ['¥160,100.00', '¥2,000.00', '200.00 吨']) expect(await confirm.innerText()).toContain(text);
    await buyer.page.getByRole('button', { name: '确定摘牌' }).click();
    const modal = buyer.page.locator('.ant-modal', { hasText: '请输入支付密码' });
    await modal.waitFor();
    await modal.locator('input').first().click();
    await buyer.page.keyboard.type(PAY_DIGITS);
    await modal.getByRole('button', { name: '确认支付' }).click();
    await buyer.page.getByText('摘牌成功，等待挂牌方确认').waitFor();
    await buyer.context.close();

    // 4. seller01 confirms the subscription on the confirm page.
    await form.goto(`${baseUrl}/listingTrade/confirm`);
    const subRow = form.locator('.ant-table-row', { hasText: tradeId }).first();
    await subRow.getByText('待确认').waitFor();
    await subRow.getByRole('button', { name: '确认成交' }).click();
    await form.locator('.ant-popconfirm').getByRole('button', { name: '确认成交' }).click();
    await expectMessage(form, '已确认成交');
    await subRow.getByText('已成交').waitFor();
    // the counterparty's contact is open to the two sides of the deal
    await subRow.getByRole('button', { name: '对方信息' }).click();
    await form.locator('.ant-modal', { hasText: '成交对方信息' }).getByText('华东电力燃料有限公司').waitFor();
    await seller.context.close();

    // 5. the public result notice shows the deal, with the buyer's name masked.
    const visitor = await newPage(browser);
    await signIn(visitor.page, baseUrl, ACCOUNTS.buyer2);
    await visitor.page.goto(`${baseUrl}/listingResult?tradeId=${tradeId}`);
    const dealRow = visitor.page.locator('.ant-table-row').first();
    await dealRow.waitFor();
    expect(await dealRow.innerText()).toContain('200.00 吨');
    expect(await dealRow.innerText()).toContain('160,100.00');
    expect(await dealRow.innerText()).toContain('华东******公司');
    expect(await visitor.page.locator('.ant-statistic', { hasText: '成交总量' }).innerText()).toContain('200.00');
    await visitor.context.close();
  }, 300_000);
});
