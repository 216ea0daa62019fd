import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login, PAY_DIGITS, shot as shotInto } from './api';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';
import { REPO_ROOT } from './server';

/**
 * The trading centre's desk, trading rights and funds (issue 29 items 4 and 5): the operator suspends buyer02's
 * enterprise in 企业名录, buyer02 is refused 摘牌 with the reason on the page, the operator lifts it; 资金总览 with
 * 立即对账 reporting 无差异. Screenshots at 1440×900 in test-results/e2e/desk-rights/.
 */
const baseUrl = inject('baseUrl');
const SELLER_NAME = '晋北煤业集团有限公司';
const BUYER2_NAME = '津沽能源贸易有限公司';
const REASON = '未按期提交履约保函，暂停交易待核查';
const SHOTS = process.env.DESK_RIGHTS_SHOTS ?? path.join(REPO_ROOT, 'test-results/e2e/desk-rights');
const shot = (page: Page, name: string, fullPage = false) => shotInto(SHOTS, page, name, fullPage);
const OPERATOR = { username: 'operator', password: 'Operator#2026' };
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function expectMessage(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

/** The document never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

describe('企业名录 and 资金总览', () => {
  it('the operator suspends buyer02 in 企业名录, buyer02 is refused 摘牌 with the reason, the operator lifts it', async () => {
    // a retry starts from buyer02 trading again
    const staff = await login(OPERATOR);
    const found = await api<{ records: { id: number; tradingState: string }[] }>(`/api/operation/enterprises/list?keyword=${encodeURIComponent(BUYER2_NAME)}`, { method: 'GET', token: staff.token });
    const buyer2 = found.records[0]!;
    if (buyer2.tradingState === 'suspended') await api('/api/operation/enterprises/lift', { token: staff.token, body: { id: buyer2.id, reason: '重新开始测试' } });

    const operator = await newPage(browser);
    await signIn(operator.page, baseUrl, OPERATOR);
    // (other e2e files register enterprises on the shared server: the list is found by its filter, not its first page)
    await operator.page.goto(`${baseUrl}/operation/enterprises?tradingState=suspended`);
    // the demo's own suspended enterprise is on the list with its end
    await operator.page.locator('.ant-table-row', { hasText: '鄂尔多斯市东胜煤炭有限公司' }).getByText(/暂停交易 至 \d{4}-\d{2}-\d{2} 18:00/).waitFor();
    await expectNoSidewaysScroll(operator.page);
    await shot(operator.page, '01-enterprises');
    // the keyword of the address finds buyer02's enterprise
    await operator.page.goto(`${baseUrl}/operation/enterprises?keyword=${encodeURIComponent('津沽')}`);
    const row = operator.page.locator('.ant-table-row', { hasText: BUYER2_NAME });
    await row.waitFor();
    await expect.poll(() => operator.page.locator('.ant-table-row').count()).toBe(1);

    // 暂停交易 with a reason and the default end time
    await row.getByRole('button', { name: '暂停交易' }).click();
    const dialog = operator.page.locator('.ant-modal', { hasText: '暂停交易：' });
    await dialog.waitFor();
    await dialog.getByLabel('暂停原因').fill(REASON);
    await shot(operator.page, '02-suspend-dialog');
    await dialog.getByRole('button', { name: '确认暂停' }).click();
    await expectMessage(operator.page, `已暂停「${BUYER2_NAME}」的交易`);
    await row.getByText(/暂停交易 至 \d{4}-\d{2}-\d{2} 18:00/).waitFor();

    // the filter of the address: only suspended enterprises
    await operator.page.goto(`${baseUrl}/operation/enterprises?tradingState=suspended`);
    await operator.page.locator('.ant-table-row', { hasText: BUYER2_NAME }).waitFor();
    await expect.poll(() => operator.page.locator('.ant-table-row').count()).toBe(2);
    expect(await operator.page.locator('.ant-table-row', { hasText: SELLER_NAME }).count()).toBe(0);
    // the drawer: members, audits and the suspension with its reason
    await operator.page.locator('.ant-table-row', { hasText: BUYER2_NAME }).getByRole('button', { name: '详情' }).click();
    const drawer = operator.page.locator('.ant-drawer-content');
    await drawer.getByText('buyer02').waitFor();
    await drawer.getByRole('tab', { name: /暂停交易记录/ }).click();
    await drawer.getByTestId('suspension-item').getByText(`暂停原因：${REASON}`).waitFor();
    await shot(operator.page, '03-enterprise-drawer');
    await drawer.locator('.ant-drawer-close').first().click().catch(() => undefined);
    await operator.page.keyboard.press('Escape');

    // buyer02 tries 摘牌 of an open seller01 listing: refused with the reason, on the page
    const market = await api<{ records: { tradeId: string; enterpriseName: string; hangState: number; remainingQuantity: number; minSubscribe: number }[] }>(
      '/api/tradeHome/listedTrade/list',
      { body: { pageNo: 1, pageSize: 50, tradeType: 0 } },
    );
    const listing = market.records.find((r) => r.enterpriseName === SELLER_NAME && r.hangState === 1 && r.remainingQuantity >= r.minSubscribe);
    expect(listing, 'an open listing sale of seller01 in the demo data').toBeTruthy();
    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer2);
    await buyer.page.goto(`${baseUrl}/hang/hangSale?tradeId=${listing!.tradeId}`);
    await buyer.page.getByLabel('摘牌数量').fill(String(listing!.minSubscribe / 1000));
    await buyer.page.getByRole('button', { name: '确认摘牌' }).click();
    await buyer.page.getByTestId('money-confirm').waitFor();
    await buyer.page.getByRole('button', { name: '确定摘牌' }).click();
    const payModal = buyer.page.locator('.ant-modal', { hasText: '请输入支付密码' });
    await payModal
      .waitFor({ timeout: 5_000 })
      .then(async () => {
        await payModal.locator('input').first().click();
        await buyer.page.keyboard.type(PAY_DIGITS);
        await payModal.getByRole('button', { name: '确认支付' }).click();
      })
      .catch(() => undefined);
    await buyer.page.getByText(`贵企业已被暂停交易：${REASON}`).first().waitFor();
    await shot(buyer.page, '04-subscribe-refused');
    await buyer.context.close();

    // 恢复交易 with a reason
    await operator.page.goto(`${baseUrl}/operation/enterprises?keyword=${encodeURIComponent('津沽')}`);
    const again = operator.page.locator('.ant-table-row', { hasText: BUYER2_NAME });
    await again.getByRole('button', { name: '恢复交易' }).click();
    const lift = operator.page.locator('.ant-modal', { hasText: '恢复交易：' });
    await lift.getByLabel('恢复原因').fill('已补交履约保函，核查完毕');
    await lift.getByRole('button', { name: '确认恢复' }).click();
    await expectMessage(operator.page, `已恢复「${BUYER2_NAME}」的交易`);
    await again.getByText('正常').waitFor();
    await shot(operator.page, '05-lifted');
    await operator.context.close();
  });

  it('资金总览 shows client funds and the platform account, 入金/出金 per day, and 立即对账 reports 无差异', async () => {
    const operator = await newPage(browser);
    await signIn(operator.page, baseUrl, OPERATOR);
    await operator.page.goto(`${baseUrl}/operation/fundsOverview`);
    const total = operator.page.getByTestId('funds-total');
    await total.waitFor();
    expect(await total.innerText()).toMatch(/^¥[\d,]+\.\d{2}$/);
    expect(await operator.page.getByTestId('funds-platform').innerText()).toMatch(/^¥[\d,]+\.\d{2}$/);
    await operator.page.getByTestId('funds-flows-chart').waitFor();
    await operator.page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
    await shot(operator.page, '06-funds-overview');
    // the demo's history: yesterday's and today's reconciliation
    await operator.page.getByText(/共 \d+ 天/).first().waitFor();
    await operator.page.getByRole('button', { name: '立即对账' }).click();
    await expectMessage(operator.page, '对账完成：无差异');
    expect(await operator.page.getByTestId('reconciliation-verdict').innerText()).toContain('对账结果：无差异');
    await expectNoSidewaysScroll(operator.page);
    await operator.page.getByTestId('reconciliation-verdict').scrollIntoViewIfNeeded();
    await shot(operator.page, '07-funds-reconciliation');
    await operator.context.close();
  });
});
