// Screenshots of the certificate pages against a running server with demo data:
// node apps/web/scripts/ukey-screenshots.mjs http://localhost:8091 /tmp/shots
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const out = process.argv[3] ?? '/tmp/shots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const shot = async (page, name) => {
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log(name, page.url());
};
async function signedInPage(username) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(`${base}/user/login`);
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill('Trader#2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/user/login'));
  await page.waitForLoadState('networkidle');
  return page;
}
try {
  const visitor = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
  await visitor.goto(`${base}/ukey/index`);
  await visitor.getByText('登录后即可申请').waitFor();
  await shot(visitor, 'ukey-01-visitor');

  const trader = await signedInPage('trader01');
  await trader.goto(`${base}/ukey/index`);
  await trader.locator('.ant-table-row').first().waitFor();
  await shot(trader, 'ukey-02-trader');
  await trader.getByRole('button', { name: '申请数字证书' }).click();
  await trader.getByPlaceholder('如：财务室电脑、张经理笔记本').fill('王强的笔记本');
  await shot(trader, 'ukey-03-apply');
  await trader.getByRole('button', { name: '生成密钥并提交申请' }).click();
  await trader.getByText('申请已提交').waitFor();
  await shot(trader, 'ukey-04-applied');

  const seller = await signedInPage('seller01');
  await seller.goto(`${base}/ukeyManage/info`);
  await seller.locator('.ant-table-row', { hasText: '王强的笔记本' }).waitFor();
  await shot(seller, 'ukey-05-admin');
  await seller.locator('.ant-table-row', { hasText: '王强的笔记本' }).getByRole('button', { name: '批准' }).click();
  await seller.locator('.ant-popover').getByRole('button', { name: '批准' }).click();
  await seller.getByText('证书已签发').waitFor();

  await trader.reload();
  await trader.locator('.ant-table-row', { hasText: '本机' }).waitFor();
  await shot(trader, 'ukey-06-issued');
  await trader.locator('.ant-table-row', { hasText: '本机' }).getByRole('button', { name: '证书详情' }).click();
  await trader.locator('.ant-drawer').getByText('SHA-256 指纹').waitFor();
  await shot(trader, 'ukey-07-details');

  // UkeySwitch on: the withdrawal's signature confirmation, with and without a key in the browser
  const login = await fetch(`${base}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Admin#2026' }) });
  const token = (await login.json()).result.token;
  const setUkey = (content) =>
    fetch(`${base}/trade-api/sys/switch/update`, { method: 'PUT', headers: { 'content-type': 'application/json', 'X-Access-Token': token }, body: JSON.stringify({ code: 'UkeySwitch', content }) });
  await setUkey('1');
  try {
    for (const [page, name] of [[trader, 'ukey-08-sign'], [seller, 'ukey-09-no-key']]) {
      await page.goto(`${base}/financial/application?tab=withdraw&apply=1`);
      const form = page.locator('.ant-modal', { hasText: '申请出金' });
      await form.getByText('银行账号').waitFor();
      await form.getByPlaceholder('请输入出金金额').fill('100');
      await form.getByRole('button', { name: '提交' }).click();
      await page.locator('.ant-modal', { hasText: '数字证书签名确认' }).waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, name);
    }
  } finally {
    await setUkey('0');
  }
} finally {
  await browser.close();
}
