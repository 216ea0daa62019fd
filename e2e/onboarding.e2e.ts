import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { creditCodeCheckChar } from '@coalx/shared';
import { launchBrowser, newPage, pathOf, signIn, submitLogin } from './browser';

/**
 * Issue 3 end to end: a visitor registers an enterprise (SMS code, area picker, attachments), is told the audit is
 * pending, the operator approves it, and the registrant's first sign-in goes through the password change.
 * SCREENSHOT_DIR=… keeps a PNG of every page on the way.
 */
const baseUrl = inject('baseUrl');
const shots = process.env.SCREENSHOT_DIR;
let browser: Browser;

// a 1×1 PNG standing in for a scanned licence
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64');

async function shot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

async function api<T>(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { 'x-access-token': init.token } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await response.json()) as { result: T; message: string };
  if (!response.ok) throw new Error(`${url}: ${body.message}`);
  return body.result;
}

/** The code the built-in SMS provider put in the outbox, read as the operator would. */
async function smsCodeFor(mobile: string): Promise<string> {
  const { token } = await api<{ token: string }>('/sys/login', { method: 'POST', body: { username: 'operator', password: 'Operator#2026' } });
  const outbox = await api<{ records: { content: string }[] }>(`/sys/sms/outbox?mobile=${mobile}`, { token });
  const code = outbox.records[0]?.content.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no SMS for ${mobile}`);
  return code;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('enterprise onboarding', () => {
  const stamp = String(Date.now()).slice(-7);
  const body = `91140602MA${stamp}`;
  const registrant = {
    username: `e2e${stamp}`,
    password: 'Register#2026',
    mobile: `137${stamp.padStart(8, '0').slice(-8)}`,
    organName: `朔州市平鲁区东山煤业有限公司${stamp}`,
    creditCode: body + creditCodeCheckChar(body),
  };

  it('registration → pending → operator approves → first sign-in changes the password', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/user/register`);
    await page.waitForFunction(() => document.title === '企业注册 - CoalX 煤炭现货交易平台');
    await shot(page, '01-register-account');

    // step 1: account, with the SMS code and the spec's mismatch text
    await page.getByLabel('用户名', { exact: true }).fill(registrant.username);
    await page.getByLabel('姓名', { exact: true }).fill('王注册');
    await page.getByLabel('手机号码', { exact: true }).fill(registrant.mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('button', { name: /秒后重发/ }).waitFor();
    await page.getByLabel('短信验证码').fill(await smsCodeFor(registrant.mobile));
    await page.getByLabel('登录密码').fill(registrant.password);
    await page.getByLabel('确认密码').fill('Something#2026');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('两次输入的密码不匹配!').waitFor();
    await page.getByLabel('确认密码').fill(registrant.password);
    await page.getByRole('button', { name: '下一步' }).click();

    // step 2: enterprise, with a wrong credit code first
    await page.getByLabel('企业名称').waitFor();
    await page.getByLabel('企业名称').fill(registrant.organName);
    await page.getByLabel('统一社会信用代码').fill(`${body}Z`);
    await page.getByLabel('法定代表人').click();
    await page.getByText('统一社会信用代码不正确').first().waitFor();
    await page.getByLabel('统一社会信用代码').fill(registrant.creditCode);
    await page.getByLabel('法定代表人').fill('王法人');
    await page.getByLabel('企业类型').click();
    await page.locator('.ant-select-item-option', { hasText: '煤矿' }).click();
    await page.getByLabel('注册地址').click();
    await page.locator('.ant-cascader-menu-item', { hasText: '山西省' }).click();
    await page.locator('.ant-cascader-menu-item', { hasText: '朔州市' }).click();
    await page.locator('.ant-cascader-menu-item', { hasText: '平鲁区' }).click();
    await page.getByLabel('详细地址').fill('井坪镇东山路 8 号');
    await shot(page, '02-register-enterprise');
    await page.getByRole('button', { name: '下一步' }).click();

    // step 3: contact and settlement account
    await page.getByLabel('联系人', { exact: true }).waitFor();
    await page.getByLabel('联系人', { exact: true }).fill('李联系');
    await page.getByLabel('联系电话').fill('13700000001');
    await page.getByLabel('电子邮箱').fill('bad-email');
    await page.getByLabel('开户银行').click();
    await page.getByText('请输入正确的电子邮箱').waitFor();
    await page.getByLabel('电子邮箱').fill('li@example.cn');
    await page.getByLabel('开户银行').fill('中国工商银行');
    await page.getByLabel('开户支行').fill('平鲁支行');
    await page.getByLabel('银行账号').fill('0502012309022100777');
    await shot(page, '03-register-contact');
    await page.getByRole('button', { name: '下一步' }).click();

    // step 4: attachments, then send
    const inputs = page.locator('input[type=file]');
    await inputs.first().waitFor({ state: 'attached' });
    await inputs.nth(0).setInputFiles({ name: '营业执照.png', mimeType: 'image/png', buffer: PNG });
    await inputs.nth(1).setInputFiles({ name: '授权委托书.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done').nth(1).waitFor();
    await page.getByText('我已阅读并同意').click();
    await shot(page, '04-register-attachments');
    await page.getByRole('button', { name: '提交注册' }).click();
    await page.waitForURL('**/user/register-result?*');
    await page.getByText('注册申请已提交，等待交易中心审核').waitFor();
    await shot(page, '05-register-result');

    // pending: signing in is refused with the audit state
    await page.goto(`${baseUrl}/user/login`);
    await submitLogin(page, registrant.username, registrant.password);
    await page.getByText('企业资料正在审核中，审核通过后即可登录').waitFor();
    await context.close();

    // the operator approves it
    const operator = await newPage(browser);
    await signIn(operator.page, baseUrl, { username: 'operator', password: 'Operator#2026' });
    await operator.page.goto(`${baseUrl}/operation/enterpriseAudit`);
    const row = operator.page.locator('tr', { hasText: registrant.creditCode });
    await row.waitFor();
    await shot(operator.page, '06-audit-list');
    await row.getByRole('button', { name: '详情' }).click();
    await operator.page.locator('.ant-drawer-body').getByText('营业执照').first().waitFor();
    await shot(operator.page, '07-audit-detail');
    await operator.page.locator('.ant-drawer-extra').getByRole('button', { name: '通过' }).click();
    await operator.page.locator('.ant-popconfirm').getByRole('button', { name: '通过' }).click();
    await operator.page.getByText(/已通过「.*」的注册/).waitFor();
    await operator.page.goto(`${baseUrl}/operation/smsOutbox`);
    await operator.page.locator('tr', { hasText: registrant.mobile }).waitFor();
    await shot(operator.page, '08-sms-outbox');
    await operator.context.close();

    // first sign-in: forced password change, then in
    const again = await newPage(browser);
    await again.page.goto(`${baseUrl}/user/login`);
    await submitLogin(again.page, registrant.username, registrant.password);
    await again.page.waitForURL('**/user/changePassword');
    expect(pathOf(again.page)).toBe('/user/changePassword');
    await again.page.getByPlaceholder('请输入原密码').fill(registrant.password);
    await again.page.getByPlaceholder('请输入新密码').fill('Changed#2026');
    await again.page.getByPlaceholder('请再次输入新密码').fill('Changed#2026');
    await again.page.getByRole('button', { name: '确认修改' }).click();
    await again.page.waitForURL('**/index');
    await again.page.goto(`${baseUrl}/companyInfo`);
    await again.page.getByText(registrant.organName).first().waitFor();
    await again.page.getByText('山西省朔州市平鲁区井坪镇东山路 8 号').waitFor();
    await shot(again.page, '09-company-info');
    await again.page.getByRole('tab', { name: '成员管理' }).click();
    await again.page.getByRole('button', { name: '添加交易员' }).waitFor();
    await shot(again.page, '10-members');
    await again.context.close();
  });
});
