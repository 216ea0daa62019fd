// Screenshots of the listing (挂牌) pages against a running server:
//   node apps/web/scripts/listing-screenshots.mjs http://localhost:8094 /tmp/shots
// ONLY=visitor,seller,buyer,operator picks the roles.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const out = process.argv[3] ?? '/tmp/shots';
mkdirSync(out, { recursive: true });
const only = process.env.ONLY?.split(',');
const want = (name) => !only || only.includes(name);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

async function context() {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('CONSOLE', m.text()));
  return { ctx, page };
}
const shot = async (page, name, full = true) => {
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: full });
  console.log(name, page.url());
};
async function signIn(page, username, password = 'Trader#2026') {
  await page.goto(`${base}/user/login`);
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/user/login'));
}
async function firstTrade(state, tradeType = 0) {
  const r = await fetch(`${base}/trade-api/api/tradeHome/listedTrade/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pageNo: 1, pageSize: 20, tradeType, hangState: state }),
  });
  const body = await r.json();
  return body.result.records[0]?.tradeId;
}

try {
  const open = await firstTrade(1);
  const ended = await firstTrade(2);
  if (want('visitor')) {
    const { ctx, page } = await context();
    await page.goto(`${base}/index`);
    await page.waitForSelector('.coalx-mini-table');
    await shot(page, 'L01-home-visitor');
    await ctx.close();
  }
  if (want('buyer')) {
    const { ctx, page } = await context();
    await signIn(page, 'buyer01');
    await page.goto(`${base}/index`);
    await page.waitForSelector('.coalx-mini-table tbody tr');
    await shot(page, 'L02-home-buyer');
    await page.goto(`${base}/moreListings?tradeType=0`);
    await page.waitForSelector('.ant-table-row');
    await shot(page, 'L03-more-listings');
    await page.goto(`${base}/moreListings?tradeType=1`);
    await page.waitForSelector('.ant-table-row');
    await shot(page, 'L04-more-listings-purchase');
    await page.goto(`${base}/listingSalesDetails?tradeId=${open}`);
    await page.waitForSelector('.coalx-listing-headline');
    await shot(page, 'L05-details-open');
    await page.goto(`${base}/hang/hangSale?tradeId=${open}`);
    await page.waitForSelector('input[aria-label="摘牌数量"]');
    await page.fill('input[aria-label="摘牌数量"]', '600');
    await shot(page, 'L06-hang-sale');
    await page.fill('input[aria-label="摘牌数量"]', '1');
    await shot(page, 'L07-hang-sale-refusal', false);
    if (ended) {
      await page.goto(`${base}/listingResult?tradeId=${ended}`);
      await page.waitForSelector('.ant-statistic');
      await shot(page, 'L08-result');
      await page.goto(`${base}/listingSalesDetails?tradeId=${ended}`);
      await page.waitForSelector('.coalx-listing-headline');
      await shot(page, 'L09-details-ended');
    }
    for (const [path, name] of [
      ['/listingTrade/subscribe', 'L10-ws-my-subscriptions'],
      ['/listingTrade/deal', 'L11-ws-deals'],
    ]) {
      await page.goto(`${base}${path}`);
      await page.waitForSelector('.ant-pro-table');
      await page.waitForTimeout(800);
      await shot(page, name, false);
    }
    await ctx.close();
  }
  if (want('seller')) {
    const { ctx, page } = await context();
    await signIn(page, 'seller01');
    for (const [path, name] of [
      ['/listingTrade/start', 'L20-ws-start'],
      ['/listingTrade/query', 'L21-ws-my-listings'],
      ['/listingTrade/confirm', 'L22-ws-confirm'],
      ['/listingTrade/result', 'L23-ws-results'],
    ]) {
      await page.goto(`${base}${path}`);
      await page.waitForSelector(path === '/listingTrade/start' ? '.coalx-entry-card' : '.ant-pro-table');
      await page.waitForTimeout(800);
      await shot(page, name, false);
    }
    await page.goto(`${base}/listingTrade/tradeStart?tradeType=0`);
    await page.waitForSelector('form');
    await shot(page, 'L24-trade-start-sale');
    await page.getByRole('button', { name: '提交审核' }).click();
    await shot(page, 'L25-trade-start-errors', false);
    await page.goto(`${base}/listingTrade/tradeStart?tradeType=1`);
    await page.waitForSelector('form');
    await shot(page, 'L26-trade-start-purchase', false);
    await ctx.close();
  }
  if (want('operator')) {
    const { ctx, page } = await context();
    await signIn(page, 'operator', 'Operator#2026');
    await page.goto(`${base}/operation/tradeAudit`);
    await page.waitForSelector('.ant-pro-table');
    await page.waitForTimeout(800);
    await shot(page, 'L30-ws-trade-audit', false);
    const detail = page.getByRole('button', { name: '详情' }).first();
    if (await detail.count()) {
      await detail.click();
      await page.waitForSelector('.ant-drawer-open .coalx-listing-headline');
      await shot(page, 'L31-ws-trade-audit-drawer', false);
      await page.keyboard.press('Escape');
    }
    await page.goto(`${base}/operation/product`);
    await page.waitForSelector('.ant-table-row');
    await shot(page, 'L32-ws-products', false);
    await page.getByRole('button', { name: /新增产品/ }).click();
    await page.waitForSelector('.ant-modal');
    await shot(page, 'L33-ws-product-add', false);
    await ctx.close();
  }
} finally {
  await browser.close();
}
