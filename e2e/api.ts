import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/**
 * What the trading-chain specs (contract, order, delivery, settlement…) do besides clicking: call the API as a
 * signed-in user to set the scene, answer the pay password, and take the screenshots a person looks at.
 */
const baseUrl = () => inject('baseUrl');

/**
 * The demo enterprises' pay password (README "Demo accounts"): a fresh installation has the PayPassword switch on,
 * so every money action of a spec enters it (`enterPayPassword`) or sends its hash (`payHash`).
 */
export const PAY_DIGITS = '246810';

export async function api<T>(url: string, init: { method?: string; token?: string; body?: unknown; form?: FormData } = {}): Promise<T> {
  const response = await fetch(`${baseUrl()}/trade-api${url}`, {
    method: init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST'),
    headers: { ...(init.form ? {} : { 'content-type': 'application/json' }), ...(init.token ? { 'X-Access-Token': init.token } : {}) },
    body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const body = (await response.json()) as { code: number; message: string; result: T };
  if (!response.ok || body.code !== 0) throw new Error(`${url}: ${response.status} ${body.message}`);
  return body.result;
}

export type Session = { token: string; enterPriseInfo: { clientId: string } };

export const login = (account: { username: string; password: string }) => api<Session>('/sys/login', { body: account });

/** The pay password as the web sends it: hashed with the enterprise's client id. */
export const payHash = (clientId: string) => createHash('sha256').update(`${clientId}:${PAY_DIGITS}`).digest('hex');

/** The hashed demo pay password of an account's enterprise (signs in once to read its client id). */
export const payPasswordOf = async (account: { username: string; password: string }) => payHash((await login(account)).enterPriseInfo.clientId);

/** In the open pay-password modal (the one whose text has `title`), types the demo pay password and confirms. */
export async function enterPayPassword(page: Page, title = '请输入支付密码') {
  const modal = page.locator('.ant-modal', { hasText: title });
  await modal.waitFor();
  await modal.locator('input').first().click();
  await page.keyboard.type(PAY_DIGITS);
  await modal.getByRole('button', { name: '确认支付' }).click();
  return modal;
}

export async function ensurePayPassword(session: Session) {
  const status = await api<{ isSet: boolean }>('/api/funds/payPassword/status', { token: session.token });
  if (!status.isSet) await api('/api/funds/payPassword/set', { token: session.token, body: { password: payHash(session.enterPriseInfo.clientId) } });
}

export async function setPayPasswordSwitch(content: string) {
  const admin = await login({ username: 'admin', password: 'Admin#2026' });
  await api('/sys/switch/update', { method: 'PUT', token: admin.token, body: { code: 'PayPassword', content } });
}

/** A screenshot into `dir` (the spec's SHOTS variable) when it is set; dialogs are let finish opening first. */
export async function shot(dir: string | undefined, page: Page, name: string, fullPage = false) {
  if (!dir) return;
  await page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}
