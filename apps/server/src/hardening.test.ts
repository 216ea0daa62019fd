import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CONTENT_SECURITY_POLICY, buildApp } from './app';
import { loadConfig } from './config';
import { ManualClock } from './lib/clock';
import { loggerOptions, maskUrlSecrets } from './lib/log-redaction';
import { MAX_FAILED_LOGINS } from './modules/auth/auth.service';
import { newRequestId } from './modules/funds/funds.test-helpers';
import { createUser, loginAs, TEST_PASSWORD } from './test/factories';
import { createTestApp, openTestDatabase, testDatabaseKinds, type TestApp } from './test/test-app';

/** What a hostile or careless client tried through the HTTP API (issue 19, items 3 to 6 and 9). */
describe.each(testDatabaseKinds())('hardening on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { bidRateLimit: 3 });
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });

  it('a member with an initial password can do nothing but read who they are and change it', async () => {
    const user = await createUser(t.database.db, { role: 'enterprise_admin', isFirstLogin: true });
    const token = await loginAs(t.app, user.username);
    for (const url of ['/sys/user/info', '/sys/permission/getUserPermissionByToken', '/sys/dict/getAllDictItems']) {
      expect((await call('GET', url, token)).statusCode, url).toBe(200);
    }
    const refused = [
      await call('POST', '/api/funds/withdraw/apply', token, { amount: 100, requestId: newRequestId() }),
      await call('POST', '/api/listedAnswerApply', token, { tradeId: 'GP0001', quantity: 1000, requestId: newRequestId() }),
      await call('GET', '/api/fundinfo/getFundInfo', token),
      await call('GET', '/sys/enterprise/info', token),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ success: false, code: 403, error: 'password_change_required', message: '请先修改初始密码' });
    }
    // a visitor page still answers, as to a visitor
    expect((await call('POST', '/api/tradeHome/listedTrade/list', token, { pageNo: 1, pageSize: 5 })).statusCode).toBe(200);

    const newPassword = 'Changed#2026pass';
    const changed = await call('PUT', '/sys/user/updatePassword', token, { oldPassword: TEST_PASSWORD, password: newPassword, confirmPassword: newPassword });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', '/api/fundinfo/getFundInfo', token)).statusCode).toBe(200);
  });

  it('the bid rate limit counts per user, however many times the user signed in', async () => {
    const user = await createUser(t.database.db, { role: 'trader' });
    const tokens = await Promise.all(Array.from({ length: 4 }, () => loginAs(t.app, user.username)));
    // 3 bids a second allowed: 4 sessions sending 2 each is 8 bids of one user in the same second
    const answers = await Promise.all(tokens.flatMap((token) => [1, 2].map(() => call('POST', '/api/bidRecord/bidAnswerApply', token, { tradeId: 'JJ000000', price: 100 }))));
    const limited = answers.filter((response) => response.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(answers.length - 3);
    expect(limited[0]!.json()).toMatchObject({ success: false, message: '出价过于频繁，请稍后再试' });
    // another user is not held back by the first one's bids
    const other = await loginAs(t.app, (await createUser(t.database.db, { role: 'trader' })).username);
    expect((await call('POST', '/api/bidRecord/bidAnswerApply', other, { tradeId: 'JJ000000', price: 100 })).statusCode).not.toBe(429);
  });

  it('sign-in gives an unknown user and a wrong password the same answer; only a lock tells the until-time', async () => {
    const user = await createUser(t.database.db, { role: 'trader' });
    const unknown = await call('POST', '/sys/login', null, { username: `nobody${Date.now()}`, password: 'Wrong#2026pass' });
    const wrong = await call('POST', '/sys/login', null, { username: user.username, password: 'Wrong#2026pass' });
    expect(wrong.statusCode).toBe(unknown.statusCode);
    const strip = (body: Record<string, unknown>) => ({ ...body, timestamp: 0 });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
    expect(wrong.json()).toMatchObject({ code: 401, error: 'bad_credentials', message: '用户名或密码错误' });
    for (let i = 2; i < MAX_FAILED_LOGINS; i++) {
      expect((await call('POST', '/sys/login', null, { username: user.username, password: 'Wrong#2026pass' })).json().message).toBe('用户名或密码错误');
    }
    const locked = await call('POST', '/sys/login', null, { username: user.username, password: 'Wrong#2026pass' });
    expect(locked.statusCode).toBe(423);
    expect(locked.json().message).toMatch(/账号已锁定至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('serves uploaded PDFs as sandboxed downloads, what the trading centre published too', async () => {
    const PDF_WITH_SCRIPT = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n');
    const boundary = '----hardening';
    const upload = (token: string, visibility: 'public' | 'private', name: string, data: Buffer) =>
      t.app.inject({
        method: 'POST',
        url: '/trade-api/api/common/upload',
        headers: { 'x-access-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="visibility"\r\n\r\n${visibility}\r\n`),
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
          data,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    const trader = await loginAs(t.app, (await createUser(t.database.db, { role: 'trader' })).username);
    const operator = await loginAs(t.app, (await createUser(t.database.db, { role: 'operator' })).username);
    const privateUpload = await upload(trader, 'private', 'contract.pdf', PDF_WITH_SCRIPT);
    expect(privateUpload.statusCode).toBe(200);
    const served = await call('GET', `/api/common/static/${privateUpload.json().result.url}`, trader);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    const published = await upload(operator, 'public', 'rules.pdf', PDF_WITH_SCRIPT);
    const publicServed = await call('GET', `/api/common/static/${published.json().result.url}`, null);
    // the web reads PDFs with pdf.js and shows images with <img>: nothing needs a file to open as a document
    expect(publicServed.headers['content-disposition']).toMatch(/^attachment;/);
    expect(publicServed.headers['content-security-policy']).toMatch(/^sandbox;/);
  });
});

describe('the web app page carries a Content-Security-Policy', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>CoalX</title><div id="root"></div>');
    t = await createTestApp('pglite', { webDist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('forbids inline script and object embedding on every page of the app, keeps inline styles', async () => {
    for (const url of ['/', '/listing/GP0001', '/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      const policy = String(response.headers['content-security-policy']);
      expect(policy, url).toBe(APP_CONTENT_SECURITY_POLICY);
    }
    expect(APP_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(APP_CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(APP_CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(APP_CONTENT_SECURITY_POLICY).toMatch(/style-src[^;]*'unsafe-inline'/);
  });
});

describe('logs carry no credentials', () => {
  it('masks every token-like query parameter', () => {
    expect(maskUrlSecrets('/trade-api/ws/auction?tradeId=JJ1&X-Access-Token=abc.def&token=xyz')).toBe('/trade-api/ws/auction?tradeId=JJ1&X-Access-Token=***&token=***');
    expect(maskUrlSecrets('/a?accessToken=1&b=2&refresh_token=3#x')).toBe('/a?accessToken=***&b=2&refresh_token=***#x');
    expect(maskUrlSecrets('/a?password=p&tradeId=GP1')).toBe('/a?password=***&tradeId=GP1');
  });

  it('logs neither the token in a URL nor the password of a sign-in', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-log-'));
    const database = await openTestDatabase('pglite');
    const config = { ...loadConfig({}), dataDir, demoData: false, schedulerIntervalMs: 0, webDist: path.join(dataDir, 'none') };
    const app = await buildApp({ config, database, clock: new ManualClock(), logger: { ...loggerOptions('debug'), stream } });
    try {
      await app.ready();
      const user = await createUser(database.db, { role: 'trader' });
      const token = await loginAs(app, user.username);
      await app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username: user.username, password: 'Secret#Wrong2026' } });
      await app.inject({ method: 'GET', url: `/trade-api/sys/user/info?X-Access-Token=${token}` });
      await app.inject({ method: 'GET', url: `/trade-api/api/common/static/2026/01/01/x.png?token=${token}` });
      const log = lines.join('');
      expect(log).toContain('X-Access-Token=***');
      expect(log).not.toContain(token);
      expect(log).not.toContain(TEST_PASSWORD);
      expect(log).not.toContain('Secret#Wrong2026');
    } finally {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
