import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, enterPayPassword, login, shot as shotInto } from './api';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';
import { PHOTO } from './chain';

const baseUrl = inject('baseUrl');
const SHOTS = process.env.LONGTERM_SHOTS;
const BUYER_NAME = '华东电力燃料有限公司';
let browser: Browser;

const shot = (page: Page, name: string, fullPage = false) => shotInto(SHOTS, page, name, fullPage);
const expectMessage = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
/** Today in Asia/Shanghai, YYYY-MM-DD: the server's calendar. */
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** The detail page of a deal reloaded until `ready` holds (the framework and monthly contracts follow events). */
async function reloadUntil(page: Page, ready: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        if (await ready()) return true;
        await page.reload();
        await page.getByTestId('lt-info').waitFor();
        return ready();
      },
      { timeout: 90_000, intervals: [1_500] },
    )
    .toBe(true);
}

/** The framework contract takes effect the way e2e/chain.ts makes a contract effective: a paper copy signed by both, accepted by the operator. */
async function frameworkTakesEffect(contractId: number) {
  const seller = await login(ACCOUNTS.seller);
  const operator = await login({ username: 'operator', password: 'Operator#2026' });
  const form = new FormData();
  form.append('file', new Blob([PHOTO], { type: 'image/png' }), '长协框架合同.png');
  const uploaded = await api<{ uploads: { id: number; status: string }[] }>(`/api/contract/${contractId}/upload`, { token: seller.token, form });
  const paper = uploaded.uploads.find((u) => u.status === 'submitted')!;
  await api(`/api/contract/${contractId}/uploads/${paper.id}/review`, { token: operator.token, body: { accept: true, note: '与生成文本一致' } });
}

describe('长协交易 in the browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(screenshotOnFailure);
  afterAll(async () => browser?.close());

  it('seller01 publishes an offer, buyer01 applies in 长协市场, seller01 accepts: the framework contract is in 合同列表; once effective a call-off makes its monthly contract', async () => {
    // 1. seller01 publishes a year's offer from this month, index-linked, priced live from the published index
    const seller = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await seller.page.goto(`${baseUrl}/longTermDeal`);
    await seller.page.getByRole('button', { name: '发布长协' }).click();
    const form = seller.page.locator('.ant-modal', { hasText: '发布长协' });
    await form.getByTestId('lt-offer-form').waitFor();
    await form.locator('.ant-select', { hasText: '请选择产品' }).click();
    await seller.page.locator('.ant-select-item-option', { hasText: '动力煤 5500' }).click();
    await expect.poll(() => form.getByLabel('发热量 Qnet,ar').inputValue()).toBe('5500');
    await form.getByText('铁路', { exact: true }).click();
    await form.locator('.ant-cascader').click();
    await seller.page.locator('.ant-cascader-menu-item', { hasText: '山西省' }).click();
    await seller.page.locator('.ant-cascader-menu-item', { hasText: '朔州市' }).click();
    await seller.page.keyboard.press('Escape');
    await form.getByLabel('交收地点').fill('朔州市平鲁区井坪镇 E2E 长协储煤场');
    // the months table has one row per month of the default period; 统一填写 fills them all
    await expect(form.getByTestId('lt-plan-table').locator('.ant-table-row').count()).resolves.toBe(12);
    await form.getByLabel('统一计划量').fill('10000');
    await form.getByRole('button', { name: '统一填写' }).click();
    await expect.poll(() => form.getByTestId('lt-plan-total').innerText()).toContain('120,000.00 吨');
    await form.getByRole('textbox', { name: '基准价' }).fill('680');
    await form.getByLabel('浮动系数').fill('0.5');
    await form.getByLabel('基准参考值').fill('700');
    await expect.poll(() => form.getByTestId('lt-preview-price').innerText(), { timeout: 15_000 }).toMatch(/^[\d,]+\.\d{2} 元\/吨/);
    await form.getByPlaceholder('申请截止日期').click();
    await form.getByPlaceholder('申请截止日期').fill(today());
    await form.getByPlaceholder('申请截止日期').press('Enter');
    await shot(seller.page, 'longterm-offer-form');
    await form.getByRole('button', { name: '发布', exact: true }).click();
    await seller.page.getByTestId('lt-publish-confirm').waitFor();
    expect(await seller.page.getByTestId('lt-publish-confirm').innerText()).toContain('计划总量 120,000.00 吨');
    await seller.page.getByRole('button', { name: '确认发布' }).click();
    await expectMessage(seller.page, /已发布长协 CX\d{12}/);
    const notice = await seller.page.locator('.ant-message-notice', { hasText: '已发布长协' }).first().innerText();
    const dealNo = /CX\d{12}/.exec(notice)![0];
    const mine = seller.page.locator('.ant-table-row', { hasText: dealNo });
    await mine.getByText('征集中').waitFor();
    await shot(seller.page, 'longterm-list-seller');

    // 2. buyer01 finds it in 长协市场 and applies
    const buyer = await newPage(browser);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);
    await buyer.page.goto(`${baseUrl}/longTermDeal`);
    await buyer.page.getByRole('tab', { name: '长协市场' }).click();
    const offer = buyer.page.locator('.ant-table-row', { hasText: dealNo });
    await offer.getByText('未申请').waitFor();
    await shot(buyer.page, 'longterm-market-buyer');
    await offer.getByRole('button', { name: '申请' }).click();
    const apply = buyer.page.locator('.ant-modal', { hasText: '申请长协' });
    await apply.getByLabel('申请说明').fill('本厂月均接卸 1 万吨，铁路专用线到厂');
    await apply.getByRole('button', { name: '提交申请' }).click();
    await expectMessage(buyer.page, '已提交申请，等待卖方处理');
    await offer.getByText('待处理').waitFor();

    // 3. seller01 accepts the application on the detail page: the framework contract is generated
    await seller.page.reload();
    await mine.getByRole('button', { name: '处理申请' }).click();
    const info = seller.page.getByTestId('lt-info');
    await info.waitFor();
    const applications = seller.page.getByTestId('lt-applications');
    await applications.locator('.ant-table-row', { hasText: BUYER_NAME }).getByRole('button', { name: '接受' }).click();
    await seller.page.getByTestId('lt-accept-confirm').waitFor();
    await seller.page.getByRole('button', { name: '确认接受' }).click();
    await expectMessage(seller.page, '已接受申请');
    await expect.poll(() => info.getAttribute('data-status')).toBe('signing');
    const contractLink = seller.page.getByTestId('lt-contract-link');
    await reloadUntil(seller.page, async () => (await contractLink.count()) > 0);
    const frameworkNo = (await contractLink.innerText()).trim();
    expect(frameworkNo).toBe(`HT${dealNo}`);
    await seller.page.evaluate(() => window.scrollTo(0, 0));
    await shot(seller.page, 'longterm-info-signing');

    // 4. the framework contract is in seller01's 合同列表, kind 长协合同, waiting for signatures
    await seller.page.goto(`${baseUrl}/contract/list`);
    await seller.page.getByPlaceholder('请输入合同编号').fill(frameworkNo);
    await seller.page.getByRole('button', { name: '查 询' }).or(seller.page.getByRole('button', { name: '查询' })).first().click();
    const contractRow = seller.page.locator('.ant-table-row', { hasText: frameworkNo });
    await contractRow.waitFor();
    expect(await contractRow.innerText()).toContain(BUYER_NAME);
    await contractRow.locator('.ant-table-row-expand-icon').click();
    await seller.page.locator('.coalx-row-details', { hasText: '长协合同' }).waitFor();
    await shot(seller.page, 'longterm-contract-list');

    // 5. signed (a paper copy through the API, as the contract specs do): the deal is in execution
    const deals = await api<{ records: { id: number; dealNo: string; contractId: number | null }[] }>(`/api/longTerm/list?keyword=${dealNo}`, { token: (await login(ACCOUNTS.seller)).token });
    const deal = deals.records.find((d) => d.dealNo === dealNo)!;
    await frameworkTakesEffect(deal.contractId!);
    await seller.page.goto(`${baseUrl}/longTermDeal/info?id=${deal.id}`);
    await info.waitFor();
    await reloadUntil(seller.page, async () => (await info.getAttribute('data-status')) === 'executing');
    await expect.poll(() => seller.page.getByTestId('lt-current-price').innerText()).toMatch(/^[\d,]+\.\d{2} 元\/吨$/);

    // 6. seller01 issues this month's call-off; the quantity is checked against the month's plan, the amount confirmed
    await seller.page.getByTestId('lt-calloff-open').click();
    const callOff = seller.page.locator('.ant-modal', { hasText: '发起本月调运' });
    await callOff.getByLabel('调运数量').fill('10000.001');
    await callOff.getByText('调运数量不能超过本月剩余可调运量 10,000.00 吨').waitFor();
    await callOff.getByLabel('调运数量').fill('1500');
    await callOff.getByRole('button', { name: '下一步' }).click();
    const money = seller.page.getByTestId('money-confirm');
    await money.waitFor();
    expect(await money.innerText()).toContain('1,500.00 吨');
    await shot(seller.page, 'longterm-calloff-confirm');
    await seller.page.getByRole('button', { name: '确认发起' }).click();
    await expectMessage(seller.page, '已发起，等待买方确认');
    const sellerCallOffs = seller.page.getByTestId('lt-calloffs');
    await sellerCallOffs.locator('.ant-table-row', { hasText: '待确认' }).waitFor();
    const callOffNo = (await sellerCallOffs.locator('.ant-table-row').first().locator('td').first().innerText()).trim();
    expect(callOffNo).toMatch(/^DY\d{12}$/);

    // 7. buyer01 confirms it with the amount in front of it: a deal, and its monthly contract
    await buyer.page.goto(`${baseUrl}/longTermDeal/info?id=${deal.id}`);
    const buyerCallOffs = buyer.page.getByTestId('lt-calloffs');
    const pending = buyerCallOffs.locator('.ant-table-row', { hasText: callOffNo });
    await pending.getByRole('button', { name: '确认' }).click();
    await buyer.page.getByTestId('money-confirm').waitFor();
    expect(await buyer.page.getByTestId('money-confirm').innerText()).toContain(callOffNo);
    await buyer.page.getByRole('button', { name: '确认成交' }).click();
    // a deal of that amount: the pay password, as for 摘牌
    await enterPayPassword(buyer.page, '确认月度调运：请输入支付密码');
    await expectMessage(buyer.page, '已确认，月度合同生成后请双方签署');
    await reloadUntil(buyer.page, async () => (await pending.locator('a[href^="/contract/info"]').count()) > 0);
    const monthlyNo = (await pending.locator('a[href^="/contract/info"]').innerText()).trim();
    expect(monthlyNo).toMatch(/^HT\d{12}$/);
    await shot(buyer.page, 'longterm-calloff-accepted', true);

    // 8. the monthly contract is in seller01's 合同列表 too
    await seller.page.goto(`${baseUrl}/contract/list`);
    await seller.page.getByPlaceholder('请输入合同编号').fill(monthlyNo);
    await seller.page.getByRole('button', { name: '查 询' }).or(seller.page.getByRole('button', { name: '查询' })).first().click();
    const monthlyRow = seller.page.locator('.ant-table-row', { hasText: monthlyNo });
    await monthlyRow.waitFor();
    expect(await monthlyRow.innerText()).toContain('1,500.00');
  }, 300_000);
});
