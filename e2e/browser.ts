import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from './server';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium (apt-get install chromium fonts-noto-cjk); no browser is ever downloaded. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export const TOKEN_KEY = 'Access-Token';

export const ACCOUNTS = {
  seller: { username: 'seller01', password: 'Trader#2026' },
  buyer: { username: 'buyer01', password: 'Trader#2026' },
  buyer2: { username: 'buyer02', password: 'Trader#2026' },
  newcomer: { username: 'newcomer', password: 'Trader#2026' },
} as const;

const openPages = new Set<Page>();

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  openPages.add(page);
  if (process.env.E2E_DEBUG) {
    page.on('framenavigated', (f) => f === page.mainFrame() && console.log('  nav', f.url()));
    page.on('pageerror', (e) => console.log('  page error', e.message));
    page.on('response', async (r) => {
      if (r.url().includes('/trade-api/') && r.status() >= 400) {
        console.log('  ', r.status(), r.request().method(), r.url(), (await r.text().catch(() => '')).slice(0, 200));
      }
    });
  }
  page.on('close', () => openPages.delete(page));
  return { context, page };
}

/**
 * For afterEach: when the test failed, a screenshot of every page it left open goes to test-results/e2e/, then
 * the pages are closed.
 */
export async function screenshotOnFailure(ctx: { task: { name: string; result?: { state?: string } } }) {
  const failed = ctx.task.result?.state === 'fail';
  const dir = path.join(REPO_ROOT, 'test-results/e2e');
  let n = 0;
  for (const page of [...openPages]) {
    if (failed) {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${ctx.task.name.replace(/[^\w\u4e00-\u9fa5-]+/g, '_').slice(0, 80)}-${n++}.png`);
      await page.screenshot({ path: file }).catch(() => undefined);
      console.log(`screenshot of the failed test: ${file} (${page.url()})`);
    }
    await page.context().close().catch(() => undefined);
  }
}

/** Fills the login form of the page already showing /user/login and submits it. */
export async function submitLogin(page: Page, username: string, password: string) {
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

export async function signIn(page: Page, baseUrl: string, account: { username: string; password: string }) {
  await page.goto(`${baseUrl}/user/login`);
  await submitLogin(page, account.username, account.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
}

export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}
