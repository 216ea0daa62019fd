import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

const OPERATOR = { username: 'operator', password: 'Operator#2026' };

/**
 * The trading tables at 1440×900: the columns a trader decides on (number, product, state, price, quantity,
 * amount, deposit) are all on screen without scrolling, no cell of them is cut, and the rest opens under the row.
 */
const TABLES: { name: string; account: { username: string; password: string }; path: string; tab?: string; keys: string[]; detail: string }[] = [
  { name: '更多挂牌', account: ACCOUNTS.buyer, path: '/moreListings?tradeType=0', keys: ['交易编号', '产品名称', '挂牌状态', '销售价格', '挂牌数量', '剩余可摘量', '操作'], detail: '交收地点' },
  { name: '更多竞价', account: ACCOUNTS.buyer, path: '/moreBidding?tradeType=2', keys: ['交易编号', '产品名称', '竞价状态', '当前价 / 起拍价', '竞价数量', '保证金 (元)', '竞价时间', '操作'], detail: '发布企业' },
  { name: '推荐交易', account: ACCOUNTS.buyer, path: '/recommend/recommendList', keys: ['交易编号', '交易类型', '产品名称', '挂牌状态', '价格', '数量', '开始时间', '操作'], detail: '企业名称' },
  { name: '我的摘牌', account: ACCOUNTS.buyer, path: '/listingTrade/subscribe', keys: ['交易编号', '产品名称', '状态', '价格', '摘牌数量', '金额 (元)', '保证金 (元)', '操作'], detail: '挂牌企业' },
  { name: '摘牌确认', account: ACCOUNTS.seller, path: '/listingTrade/confirm', keys: ['交易编号', '产品名称', '状态', '价格', '摘牌数量', '金额 (元)', '保证金 (元)', '操作'], detail: '摘牌企业' },
  { name: '竞价审核与监控', account: OPERATOR, path: '/operation/tradeAudit', tab: '竞价审核与监控', keys: ['交易编号', '产品名称', '状态', '起拍价/基价', '当前/成交价', '数量', '推荐', '操作'], detail: '发布企业' },
  { name: '挂牌审核', account: OPERATOR, path: '/operation/tradeAudit', tab: '挂牌审核', keys: ['交易编号', '产品名称', '状态', '价格', '挂牌数量', '已摘数量', '推荐', '操作'], detail: '挂牌企业' },
  { name: '我的挂牌', account: ACCOUNTS.seller, path: '/listingTrade/query', keys: ['交易编号', '产品名称', '状态', '价格', '挂牌数量', '已摘数量', '操作'], detail: '交收地点' },
  { name: '挂牌成交', account: ACCOUNTS.seller, path: '/listingTrade/deal', keys: ['交易编号', '产品名称', '成交数量', '成交价格', '成交金额 (元)', '履约保证金 (元)', '操作'], detail: '买方' },
  { name: '挂牌结果', account: ACCOUNTS.seller, path: '/listingTrade/result', keys: ['交易编号', '产品名称', '价格', '挂牌数量', '已摘数量', '未摘数量', '操作'], detail: '挂牌时间' },
  { name: '我的竞价', account: ACCOUNTS.seller, path: '/auctionTrade/query', keys: ['交易编号', '产品名称', '状态', '起拍价/基价', '当前/成交价', '数量', '保证金 (元)', '操作'], detail: '竞价时间' },
  { name: '竞价报名', account: ACCOUNTS.buyer, path: '/auctionTrade/sign', keys: ['交易编号', '产品名称', '竞价代号', '保证金 (元)', '报名状态', '竞价状态', '操作'], detail: '报名时间' },
  { name: '竞价成交', account: ACCOUNTS.seller, path: '/auctionTrade/deal', keys: ['交易编号', '产品名称', '成交数量', '成交价格', '成交金额 (元)', '履约保证金 (元)', '操作'], detail: '买方' },
  { name: '竞价结果', account: ACCOUNTS.seller, path: '/auctionTrade/result', keys: ['交易编号', '产品名称', '起拍价/基价', '数量', '结果', '成交价', '操作'], detail: '结束时间' },
  { name: '入金申请', account: ACCOUNTS.seller, path: '/financial/application?tab=depositIn', keys: ['编号', '入金金额', '转账凭证', '付款账户', '状态'], detail: '申请时间' },
  { name: '出金申请', account: ACCOUNTS.buyer, path: '/financial/application?tab=withdraw', keys: ['编号', '出金金额', '收款账户', '状态'], detail: '申请时间' },
  { name: '资金资产 交易保证金', account: ACCOUNTS.buyer, path: '/financial/assets', keys: ['交易编号', '交易方式', '保证金金额', '状态'], detail: '缴纳时间' },
  { name: '支付记录查询', account: ACCOUNTS.buyer, path: '/financial/payRecord', keys: ['流水号', '时间', '类型', '金额', '可用余额', '冻结金额', '业务'], detail: '摘要' },
  { name: '入金审核', account: OPERATOR, path: '/operation/fundsAudit?tab=depositIn', keys: ['编号', '入金金额', '转账凭证', '付款账户', '状态', '操作'], detail: '申请时间' },
  { name: '出金审核', account: OPERATOR, path: '/operation/fundsAudit?tab=withdraw', keys: ['编号', '出金金额', '收款账户', '状态', '操作'], detail: '申请时间' },
];

interface TableLayout {
  scrollWidth: number;
  clientWidth: number;
  headers: string[];
  rows: number;
  clipped: string[];
}

/** The visible table's overflow and, for every row, the key columns' cells whose content is wider than the cell. */
function measure(page: Page, keys: string[]): Promise<TableLayout> {
  return page.evaluate((keys) => {
    const table = [...document.querySelectorAll<HTMLElement>('.ant-table')].find((t) => t.offsetParent !== null)!;
    const scroller = table.querySelector<HTMLElement>('.ant-table-content, .ant-table-body')!;
    const headers = [...table.querySelectorAll<HTMLElement>('thead th')].map((th) => th.innerText.trim());
    const clipped: string[] = [];
    const rows = [...table.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
    for (const row of rows) {
      for (const key of keys) {
        const cell = row.children[headers.indexOf(key)] as HTMLElement | undefined;
        if (!cell) clipped.push(`${key}: no such column`);
        else if (cell.scrollWidth > cell.clientWidth) clipped.push(`${key}: ${cell.innerText} (${cell.scrollWidth} > ${cell.clientWidth})`);
      }
    }
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, headers, rows: rows.length, clipped };
  }, keys);
}

describe('trading tables at 1440×900', () => {
  for (const t of TABLES) {
    it(`${t.name}: the key columns are on screen and whole, the rest opens under the row`, async () => {
      const { context, page } = await newPage(browser);
      await signIn(page, baseUrl, t.account);
      await page.goto(`${baseUrl}${t.path}`);
      if (t.tab) await page.getByRole('tab', { name: t.tab }).click();
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      const layout = await measure(page, t.keys);
      expect(layout.rows).toBeGreaterThan(0);
      for (const key of t.keys) expect(layout.headers).toContain(key);
      // nothing to scroll to, so nothing lies under the fixed 操作 column either
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.clipped).toEqual([]);
      // the columns left out are one click away
      await page.locator('.ant-table-tbody tr.ant-table-row .ant-table-row-expand-icon').first().click();
      await expect.poll(() => page.locator('.coalx-row-details').first().innerText()).toContain(t.detail);
      await context.close();
    });
  }
});

describe('home page tables at 1440×900', () => {
  it('show each publisher to 14 characters, never cut by the column', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/index`);
    await page.locator('.coalx-mini-company').first().waitFor();
    const names = await page.locator('.coalx-mini-company').evaluateAll((cells) =>
      cells.map((c) => ({ text: c.textContent ?? '', title: c.getAttribute('title') ?? '', cut: c.scrollWidth > c.clientWidth })),
    );
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) {
      expect(n.cut).toBe(false);
      const chars = Array.from(n.title);
      expect(n.text).toBe(chars.length > 14 ? `${chars.slice(0, 14).join('')}...` : n.title);
    }
    await context.close();
  });
});
