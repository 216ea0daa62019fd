// Screenshots of the home page and its content pages against a running server:
//   node apps/web/scripts/home-screenshots.mjs http://localhost:8080 /tmp/shots
// ONLY=visitor,buyer,operator picks the roles.
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
  await page.waitForTimeout(900);
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
const rule = await fetch(`${base}/trade-api/api/content/list?type=a&pageSize=10&pageNo=1`).then((r) => r.json());
const enclosure = rule.result?.records?.find((r) => r.enclosure)?.enclosure;

if (want('visitor')) {
  const { ctx, page } = await context();
  await page.goto(`${base}/index`);
  await page.waitForSelector('[data-testid="recommend-card"]', { timeout: 15000 }).catch(() => undefined);
  await shot(page, 'visitor-home');
  await page.locator('.coalx-index-strip-inner').click();
  await page.waitForSelector('[data-testid="index-chart"] canvas', { timeout: 15000 }).catch(() => undefined);
  await shot(page, 'visitor-index-drawer', false);
  await page.goto(`${base}/moreAnnouncements?type=0`);
  await shot(page, 'visitor-moreAnnouncements');
  const first = page.locator('.coalx-ann-title').first();
  if (await first.count()) {
    await first.click();
    await shot(page, 'visitor-announcement-detail');
  }
  if (enclosure) {
    await page.goto(`${base}/pdfDetails?enclosure=${encodeURIComponent(enclosure)}&title=${encodeURIComponent('煤炭现货交易规则')}`);
    await page.waitForSelector('[data-testid="pdf-canvas"][data-rendered="1"]', { timeout: 20000 }).catch(() => undefined);
    await shot(page, 'visitor-pdfDetails');
  }
  await ctx.close();
}
if (want('buyer')) {
  const { ctx, page } = await context();
  await signIn(page, 'buyer01');
  await page.goto(`${base}/index`);
  await page.waitForSelector('[data-testid="recommend-card"]', { timeout: 15000 }).catch(() => undefined);
  await shot(page, 'buyer-home');
  await page.goto(`${base}/recommend/recommendList`);
  await page.waitForSelector('.ant-table-row', { timeout: 15000 }).catch(() => undefined);
  await shot(page, 'buyer-recommendList');
  await ctx.close();
}
if (want('operator')) {
  const { ctx, page } = await context();
  await signIn(page, 'operator', 'Operator#2026');
  for (const [path, name] of [
    ['/operation/content', 'operator-content'],
    ['/operation/marketIndex', 'operator-marketIndex'],
    ['/operation/tradeAudit', 'operator-tradeAudit'],
  ]) {
    await page.goto(`${base}${path}`);
    await page.waitForTimeout(1500);
    await shot(page, name, false);
  }
  const bannersTab = page.getByRole('tab', { name: '轮播图' });
  await page.goto(`${base}/operation/content`);
  await page.waitForTimeout(1200);
  if (await bannersTab.count()) {
    await bannersTab.click();
    await shot(page, 'operator-banners', false);
  }
  await ctx.close();
}
await browser.close();
