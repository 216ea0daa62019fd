// The trading and funds tables at 1440×900, one row opened: node apps/web/scripts/tables-screenshots.mjs http://localhost:8091 /tmp/shots
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const out = process.argv[3] ?? '/tmp/shots';
mkdirSync(out, { recursive: true });

const OPERATOR = ['operator', 'Operator#2026'];
const SELLER = ['seller01', 'Trader#2026'];
const BUYER = ['buyer01', 'Trader#2026'];
const TABLES = [
  ['listing-audit', OPERATOR, '/operation/tradeAudit'],
  ['funds-audit-in', OPERATOR, '/operation/fundsAudit?tab=depositIn'],
  ['funds-audit-out', OPERATOR, '/operation/fundsAudit?tab=withdraw'],
  ['my-listings', SELLER, '/listingTrade/query'],
  ['listing-deals', SELLER, '/listingTrade/deal'],
  ['listing-results', SELLER, '/listingTrade/result'],
  ['my-auctions', SELLER, '/auctionTrade/query'],
  ['auction-deals', SELLER, '/auctionTrade/deal'],
  ['auction-results', SELLER, '/auctionTrade/result'],
  ['deposit-in', SELLER, '/financial/application?tab=depositIn'],
  ['enrolments', BUYER, '/auctionTrade/sign'],
  ['withdraw', BUYER, '/financial/application?tab=withdraw'],
  ['trade-deposits', BUYER, '/financial/assets'],
  ['pay-record', BUYER, '/financial/payRecord'],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  let signedInAs = null;
  let ctx = null;
  let page = null;
  for (const [name, [username, password], path] of TABLES) {
    if (signedInAs !== username) {
      await ctx?.close();
      ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      page = await ctx.newPage();
      page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
      await page.goto(`${base}/user/login`);
      await page.getByPlaceholder('用户名').fill(username);
      await page.getByPlaceholder('密码').fill(password);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
      signedInAs = username;
    }
    await page.goto(`${base}${path}`);
    const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await row.waitFor();
    await row.locator('.ant-table-row-expand-icon').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${out}/${name}.png` });
    console.log(name);
  }
  await ctx?.close();
} finally {
  await browser.close();
}
