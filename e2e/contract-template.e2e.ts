import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
const ADMIN = { username: 'admin', password: 'Admin#2026' };
/** Set TEMPLATE_SHOTS to a folder to keep screenshots of the page at 1440×900. */
const SHOTS = process.env.TEMPLATE_SHOTS;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(screenshotOnFailure);
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const messageNotice = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

/** The kind's current version as the API tells it, signed in as the admin from here. */
async function currentVersion(kind: string): Promise<number> {
  const login = await fetch(`${baseUrl}/trade-api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const { result } = (await login.json()) as { result: { token: string } };
  const res = await fetch(`${baseUrl}/trade-api/api/contract-template/list`, { headers: { 'X-Access-Token': result.token } });
  const body = (await res.json()) as { result: Array<{ kind: string; version: number }> };
  return body.result.find((t) => t.kind === kind)?.version ?? -1;
}

describe('模板配置', () => {
  it('the admin edits a template, sees the preview follow, is refused an unknown placeholder and saves version 2', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, ADMIN);
    await page.goto(`${baseUrl}/system/template`);
    const body = page.getByTestId('template-body');
    const preview = page.getByTestId('template-preview');
    await expect.poll(() => body.inputValue(), { timeout: 20_000 }).toContain('# 煤炭买卖合同（挂牌销售）');
    // the live preview fills the sample deal: amount in figures and in capitals
    await preview.getByText('捌拾肆万伍仟伍佰元整', { exact: false }).first().waitFor();
    await expect.poll(() => page.getByTestId('template-meta').innerText()).toContain('当前第 1 版');
    await shot(page, 'template-initial');

    // edit the title: the preview follows
    const original = await body.inputValue();
    const edited = original.replace('# 煤炭买卖合同（挂牌销售）', '# 煤炭买卖合同（挂牌销售·2027 版）');
    await body.fill(edited);
    await preview.locator('h3', { hasText: '煤炭买卖合同（挂牌销售·2027 版）' }).waitFor();

    // a click on a placeholder inserts it at the cursor (the end, after fill)
    await page.getByTestId('template-placeholders').getByRole('button', { name: '买方名称', exact: true }).click();
    await expect.poll(() => body.inputValue()).toBe(`${edited}{{买方名称}}`);
    await preview.getByText('华东电力燃料有限公司', { exact: false }).last().waitFor();

    // an unknown placeholder is listed and marked, and saving is refused with the server's wording
    await body.fill(`${edited}\n甲方代表：{{未知}}`);
    await page.getByTestId('template-unknown').getByText('{{未知}}').waitFor();
    await preview.locator('mark', { hasText: '{{未知}}' }).waitFor();
    await shot(page, 'template-unknown');
    await page.getByRole('button', { name: '保存为新版本' }).click();
    await messageNotice(page, '模板中有未知占位符：{{未知}}').waitFor();
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    expect(await currentVersion('listing_sale')).toBe(1);

    // a valid body is saved, after confirmation, as version 2
    await body.fill(`${edited}\n本合同一式两份，双方各执一份。`);
    await preview.getByText('本合同一式两份，双方各执一份。').waitFor();
    await page.getByRole('button', { name: '保存为新版本' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('保存为第 2 版', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: '保存' }).click();
    await messageNotice(page, '已保存为第 2 版').waitFor();
    await expect.poll(() => page.getByTestId('template-meta').innerText()).toContain('当前第 2 版');
    expect(await currentVersion('listing_sale')).toBe(2);
    await expect.poll(() => page.getByRole('button', { name: '保存为新版本' }).isDisabled()).toBe(true);
    await shot(page, 'template-saved');

    // the history lists both versions; version 1 still reads as it was
    await page.getByRole('button', { name: '版本历史' }).click();
    await page.getByTestId('template-version-2').waitFor();
    await page.getByTestId('template-version-1').getByRole('button', { name: '查看' }).click();
    await page.locator('.coalx-template-version-body', { hasText: '# 煤炭买卖合同（挂牌销售）' }).waitFor();
    await shot(page, 'template-history');
    await page.locator('.ant-modal-footer').getByRole('button', { name: '关闭', exact: true }).click();
    await page.locator('.coalx-template-version-body').waitFor({ state: 'hidden' });
    await page.locator('.ant-drawer-close').click();
    await page.getByTestId('template-version-2').waitFor({ state: 'hidden' });

    // the PDF preview of the current version opens in a dialog
    await page.getByRole('button', { name: '预览 PDF' }).click();
    await page.getByTestId('template-pdf-frame').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('template-pdf-frame').getAttribute('src')).toMatch(/^blob:/);
    await context.close();
  });
});
