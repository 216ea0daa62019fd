// Screenshots of the main pages against a running server: node apps/web/scripts/screenshots.mjs http://localhost:8091 /tmp/shots
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
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log(name, page.url(), await page.title());
};
const only = process.env.ONLY?.split(',');
const want = (name) => !only || only.includes(name);

async function signIn(page, username, password = 'Trader#2026') {
  await page.goto(`${base}/user/login`);
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

try {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('CONSOLE', m.text()));
  if (want('visitor')) {
    await page.goto(`${base}/index`);
    await page.waitForSelector('.coalx-public-layout');
    await shot(page, '01-index-visitor');
    await page.goto(`${base}/user/login`);
    await page.waitForSelector('.coalx-login-card');
    await shot(page, '02-login');
    await page.getByPlaceholder('用户名').fill('seller01');
    await page.getByPlaceholder('密码').fill('nope');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForSelector('.coalx-login-error');
    await shot(page, '03-login-error');
    await page.goto(`${base}/user/register`);
    await shot(page, '04-register-building');
    await page.goto(`${base}/no/such/page`);
    await page.waitForSelector('.ant-result');
    await shot(page, '05-404');
  }
  if (want('seller')) {
    await signIn(page, 'seller01');
    await page.waitForURL('**/index');
    await page.waitForSelector('.coalx-avatar');
    await shot(page, '06-index-signed-in');
    await page.hover('.coalx-avatar');
    await page.waitForSelector('.ant-dropdown-menu');
    await shot(page, '07-avatar-menu');
    await page.goto(`${base}/companyInfo`);
    await page.waitForSelector('.ant-descriptions');
    await shot(page, '08-company-info');
    await page.click('text=挂牌交易');
    await page.click('text=发起挂牌');
    await page.waitForSelector('.coalx-under-construction');
    await page.click('.coalx-tab-label:has-text("企业信息")', { button: 'right' });
    await page.waitForSelector('.ant-dropdown-menu');
    await shot(page, '09-tabs-context-menu');
    await page.keyboard.press('Escape');
    await page.click('.ant-pro-sider-collapsed-button, .ant-pro-sider .anticon-menu-fold', { timeout: 3000 }).catch(() => console.log('no collapse button'));
    await shot(page, '10-collapsed');
    await page.goto(`${base}/user/changePassword`);
    await page.waitForSelector('.coalx-form-card');
    await shot(page, '11-change-password');
    await page.hover('.coalx-avatar');
    await page.click('text=退出登录');
    await page.waitForSelector('.ant-modal-confirm');
    await shot(page, '12-logout-confirm');
  }
  if (want('operator')) {
    const c2 = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p2 = await c2.newPage();
    await signIn(p2, 'operator', 'Operator#2026');
    await p2.waitForURL('**/index');
    await p2.goto(`${base}/companyInfo`);
    await p2.waitForSelector('.ant-empty, .ant-descriptions');
    await shot(p2, '13-operator-company-info');
    await c2.close();
  }
  if (want('newcomer')) {
    const c3 = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p3 = await c3.newPage();
    await signIn(p3, 'newcomer');
    await p3.waitForURL('**/user/changePassword');
    await p3.waitForSelector('.coalx-form-card');
    await shot(p3, '14-first-login-change-password');
    await c3.close();
  }
  if (want('expired')) {
    const c4 = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p4 = await c4.newPage();
    await p4.goto(`${base}/index`);
    await p4.evaluate(() => localStorage.setItem('Access-Token', 'bogus'));
    await p4.goto(`${base}/companyInfo`);
    await p4.waitForSelector('.ant-notification-notice');
    await shot(p4, '15-expired-token');
    await c4.close();
  }
  if (want('funds')) {
    // funds pages (issue 4) as two traders and the operator
    const sets = [
      ['seller01', 'Trader#2026', ['/financial/assets', '/financial/application', '/financial/application?tab=withdraw&apply=1', '/financial/payRecord']],
      ['buyer01', 'Trader#2026', ['/financial/assets', '/financial/application?tab=withdraw', '/financial/payRecord']],
      ['operator', 'Operator#2026', ['/operation/fundsAudit', '/operation/fundsAudit?tab=withdraw', '/operation/fundsAudit?tab=switch']],
    ];
    for (const [username, password, paths] of sets) {
      const c5 = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const p5 = await c5.newPage();
      await signIn(p5, username, password);
      await p5.waitForURL('**/index');
      await p5.waitForLoadState('networkidle');
      for (const [i, path] of paths.entries()) {
        await p5.goto(`${base}${path}`);
        await p5.waitForSelector('.ant-table, .ant-list');
        await p5.waitForLoadState('networkidle');
        await shot(p5, `20-funds-${username}-${i + 1}`);
      }
      await c5.close();
    }
  }
} finally {
  await browser.close();
}
