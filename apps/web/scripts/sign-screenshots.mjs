// Screenshots of 签章管理 against a running server: node apps/web/scripts/sign-screenshots.mjs http://localhost:8091 /tmp/shots
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const out = process.argv[3] ?? '/tmp/shots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  // a visitor sees the public verification
  await page.goto(`${base}/sign/index`);
  await page.getByText('点击或拖拽已签章的 PDF 文件到此处').waitFor();
  await page.screenshot({ path: `${out}/sign-visitor.png` });
  // seller01 in the workspace: 数字证书 → 签章管理, without a key in this browser
  await page.goto(`${base}/user/login`);
  await page.getByPlaceholder('用户名').fill('seller01');
  await page.getByPlaceholder('密码').fill('Trader#2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
  await page.goto(`${base}/ukeyManage/sign`);
  await page.locator('.coalx-sign-seal').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/sign-workspace.png` });
  console.log('screenshots in', out);
} finally {
  await browser.close();
}
