import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { APP_CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from './app';
import { FILE_LINK_TTL_MS, FILE_ROUTES, FileLinks, isSignablePath, loadFileLinkKey } from './lib/file-links';
import { FILE_CONTENT_SECURITY_POLICY, attachmentDisposition } from './lib/file-reply';
import { runScheduledJobs } from './plugins/scheduler';
import { auctionInput } from './modules/auction/auction.test-helpers';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from './modules/funds/funds.test-helpers';
import { createProduct, post } from './modules/listing/listing.test-helpers';
import { loginAs, signedIn } from './test/factories';
import { multipart } from './test/multipart';
import { createTestApp, testDatabaseKinds, type TestApp } from './test/test-app';

/** Issue 27 items 4 and 9: the headers of every answer, files as sandboxed downloads, and no token in any address. */

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF_WITH_SCRIPT = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n');

type Headers = Record<string, string | string[] | number | undefined>;

function expectEveryAnswerHeaders(headers: Headers, what: string) {
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy'], what).toBe(PERMISSIONS_POLICY);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(String(headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
}

describe('headers on every answer', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>CoalX</title><div id="root"></div>');
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await createTestApp('pglite', { webDist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('API, pages, assets, errors and 404s carry the referrer, permissions, nosniff and framing headers', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    const answers: [string, { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: object }, number][] = [
      ['an API answer', { url: '/trade-api/sys/user/info', headers: { 'x-access-token': token } }, 200],
      ['a public API answer', { url: '/trade-api/sys/area/root' }, 200],
      ['the root page', { url: '/' }, 200],
      ['a client-routed page', { url: '/listing/GP0001' }, 200],
      ['index.html', { url: '/index.html' }, 200],
      ['a static asset', { url: '/assets/index-abc123.js' }, 200],
      ['a missing asset', { url: '/assets/missing.js' }, 404],
      ['an unknown API path', { url: '/trade-api/api/nothing-here' }, 404],
      ['a refusal (not signed in)', { url: '/trade-api/sys/user/info' }, 401],
      ['a refusal (bad token)', { url: '/trade-api/sys/user/info', headers: { 'x-access-token': 'bogus' } }, 401],
      ['a validation error', { method: 'POST', url: '/trade-api/sys/login', payload: { username: 1 } }, 400],
      ['an undecodable address', { url: '/trade-api/api/common/static/%E0%A4%A' }, 400],
      ['the API documentation', { url: '/trade-api/docs/json' }, 200],
    ];
    for (const [what, request, status] of answers) {
      const response = await t.app.inject({ method: request.method ?? 'GET', url: request.url, headers: request.headers, payload: request.payload });
      expect(response.statusCode, what).toBe(status);
      expectEveryAnswerHeaders(response.headers, what);
    }
  });

  it('an answer written on the socket itself (headers too large for the parser) carries them too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; headers: Headers }>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/trade-api/health', headers: { 'x-big': 'x'.repeat(40_000) } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      request.on('error', reject);
    });
    expect(answer.status).toBe(431);
    expectEveryAnswerHeaders(answer.headers, 'a 431');
  });

  it('pages keep the app policy (with framing refused); other answers may load nothing', async () => {
    for (const url of ['/', '/listing/GP0001', '/index.html']) {
      expect((await t.app.inject({ url })).headers['content-security-policy'], url).toBe(APP_CONTENT_SECURITY_POLICY);
    }
    expect(APP_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(APP_CONTENT_SECURITY_POLICY).not.toContain("frame-ancestors 'self'");
    expect(APP_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    for (const url of ['/trade-api/sys/area/root', '/assets/index-abc123.js', '/trade-api/api/nothing-here']) {
      expect((await t.app.inject({ url })).headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    // Swagger UI runs its own scripts: only framing is refused there
    expect((await t.app.inject({ url: '/trade-api/docs/json' })).headers['content-security-policy']).toBe("frame-ancestors 'none'");
  });

  it('allows the camera for the platform itself and denies the rest', () => {
    expect(PERMISSIONS_POLICY).toContain('camera=(self)');
    for (const feature of ['geolocation', 'microphone', 'payment', 'usb']) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
  });
});

describe('file answers and signed links', () => {
  it('names the file for download in RFC 5987 form with a plain ASCII stand-in', () => {
    expect(attachmentDisposition('合同 (纸质).pdf')).toBe(`attachment; filename="__ (__).pdf"; filename*=UTF-8''%E5%90%88%E5%90%8C%20%28%E7%BA%B8%E8%B4%A8%29.pdf`);
    expect(attachmentDisposition("a\"b\\c'd*.png")).toBe(`attachment; filename="a_b_c'd*.png"; filename*=UTF-8''a%22b%5Cc%27d%2A.png`);
    expect(attachmentDisposition('\u0000')).toBe(`attachment; filename="file"; filename*=UTF-8''file`);
  });

  it('signs only file addresses', () => {
    expect(isSignablePath('/trade-api/api/common/static/2026/01/01/0b5e1f5c-3f1c-4c59-9d5e-2a3b4c5d6e7f.png')).toBe(true);
    expect(isSignablePath('/trade-api/api/contract/12/uploads/3/file')).toBe(true);
    expect(isSignablePath('/trade-api/api/delivery/order/7/files/9')).toBe(true);
    expect(isSignablePath('/trade-api/api/invoice/4/file')).toBe(true);
    expect(isSignablePath('/trade-api/api/settlement/statements/4/pdf')).toBe(true);
    expect(isSignablePath('/trade-api/api/contract/12/pdf')).toBe(true);
    for (const other of [
      '/trade-api/sys/user/info',
      '/trade-api/api/common/static/../../etc/passwd',
      '/trade-api/api/common/static/2026/01/01/x.png?x=1',
      '/trade-api/api/contract/12/terms',
      '/api/invoice/4/file',
      '/trade-api/api/invoice/4/file/',
    ]) {
      expect(isSignablePath(other), other).toBe(false);
    }
  });

  it('checks the signature before the time, and the time before anything else', () => {
    const links = new FileLinks(Buffer.alloc(32, 7));
    const now = new Date('2026-11-22T02:00:00Z');
    const pathname = '/trade-api/api/invoice/4/file';
    const { url, expiresAt } = links.sign(pathname, { userId: 5, sessionId: 9 }, now);
    expect(expiresAt).toBe(now.getTime() + FILE_LINK_TTL_MS);
    const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
    expect(Object.keys(query)).toEqual(['uid', 'sid', 'expires', 'signature']);
    expect(links.check(pathname, query, now)).toEqual({ ok: true, userId: 5, sessionId: 9 });
    expect(links.check(pathname, query, new Date(expiresAt - 1))).toMatchObject({ ok: true });
    expect(links.check(pathname, query, new Date(expiresAt))).toEqual({ ok: false, reason: 'expired' });
    expect(links.check('/trade-api/api/invoice/5/file', query, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.check(pathname, { ...query, uid: '6' }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.check(pathname, { ...query, sid: '10' }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.check(pathname, { ...query, expires: String(Number(query.expires) + 3600) }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.check(pathname, { ...query, signature: `${query.signature!.slice(0, -1)}A` === query.signature ? `${query.signature!.slice(0, -1)}B` : `${query.signature!.slice(0, -1)}A` }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.check(pathname, { ...query, uid: ['5', '6'] }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(new FileLinks(Buffer.alloc(32, 8)).check(pathname, query, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('makes the key once in the data folder, owner-only, and reads a configured one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-key-'));
    try {
      const first = loadFileLinkKey({ dataDir });
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(loadFileLinkKey({ dataDir }).equals(first)).toBe(true);
      const keyFile = path.join(dataDir, 'secrets', 'file-link.key');
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const configured = path.join(dataDir, 'configured.key');
      fs.writeFileSync(configured, 'k'.repeat(40));
      expect(loadFileLinkKey({ dataDir, keyFile: configured }).toString()).toBe('k'.repeat(40));
      expect(() => loadFileLinkKey({ dataDir, keyFile: path.join(dataDir, 'missing.key') })).toThrow('FILE_LINK_KEY_FILE');
      fs.writeFileSync(configured, 'short');
      expect(() => loadFileLinkKey({ dataDir, keyFile: configured })).toThrow('过短');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(testDatabaseKinds())('files and tokens on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function upload(token: string, file: { name: string; data: Buffer }, visibility: 'public' | 'private' = 'private') {
    const { payload, headers } = multipart(file, { visibility });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
    expect(response.statusCode, response.body).toBe(200);
    return `/trade-api/api/common/static/${response.json().result.url as string}`;
  }
  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? { 'x-access-token': token } : {} });
  const linkFor = async (pathname: string, token: string) => {
    const response = await get(`/trade-api/api/common/file-link?path=${encodeURIComponent(pathname)}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as { url: string; expiresAt: number };
  };

  it('every file route is a registered GET route', () => {
    const routes = new Set(t.app.routeGrants.filter((r) => r.method === 'GET').map((r) => r.url));
    for (const route of FILE_ROUTES) expect(routes.has(route), route).toBe(true);
  });

  it('serves every uploaded file, private or public, image or PDF, as a sandboxed download', async () => {
    const trader = await signedIn(t.app, t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const files = [
      [await upload(trader.token, { name: '纸质合同.pdf', data: PDF_WITH_SCRIPT }), trader.token, '纸质合同.pdf', 'application/pdf'],
      [await upload(trader.token, { name: '磅单.png', data: PNG }), trader.token, '磅单.png', 'image/png'],
      [await upload(operator.token, { name: 'rules.pdf', data: PDF_WITH_SCRIPT }, 'public'), undefined, 'rules.pdf', 'application/pdf'],
    ] as const;
    for (const [url, token, name, type] of files) {
      const served = await get(url, token);
      expect(served.statusCode, name).toBe(200);
      expect(served.headers['content-type'], name).toBe(type);
      expect(served.headers['content-disposition'], name).toBe(attachmentDisposition(name));
      expect(served.headers['content-disposition'], name).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(served.headers['x-content-type-options'], name).toBe('nosniff');
      expect(served.headers['content-security-policy'], name).toBe(FILE_CONTENT_SECURITY_POLICY);
      expect(String(served.headers['content-security-policy']).split(';')[0]).toBe('sandbox');
      expectEveryAnswerHeaders(served.headers, name);
    }
  });

  it('?token= opens nothing: not a private file, not an API call', async () => {
    const owner = await signedIn(t.app, t.database.db);
    const url = await upload(owner.token, { name: 'voucher.png', data: PNG });
    expect((await get(`${url}?token=${owner.token}`)).statusCode).toBe(401);
    expect((await get(`/trade-api/sys/user/info?token=${owner.token}`)).statusCode).toBe(401);
    expect((await get(`/trade-api/api/invoice/1/file?token=${owner.token}`)).statusCode).toBe(401);
    expect((await get(`/trade-api/api/common/file-link?path=${encodeURIComponent(url)}&token=${owner.token}`)).statusCode).toBe(401);
  });

  it('a signed link opens the file for its session for five minutes; expired, tampered or signed-out links are refused in Chinese', async () => {
    const owner = await signedIn(t.app, t.database.db);
    const url = await upload(owner.token, { name: '营业执照.png', data: PNG });
    const other = await upload(owner.token, { name: '授权书.png', data: PNG });
    const link = await linkFor(url, owner.token);
    expect(link.url.startsWith(`${url}?`)).toBe(true);
    expect(link.url).not.toContain(owner.token);
    expect(link.expiresAt).toBe(t.clock.now().getTime() + FILE_LINK_TTL_MS - (t.clock.now().getTime() % 1000));

    const opened = await get(link.url);
    expect(opened.statusCode).toBe(200);
    expect(Buffer.compare(opened.rawPayload, PNG)).toBe(0);
    expect(opened.headers['content-disposition']).toMatch(/^attachment;/);

    const refusal = async (address: string, message: string) => {
      const response = await get(address);
      expect(response.statusCode, address).toBe(403);
      expect(response.json()).toMatchObject({ success: false, code: 403, message });
    };
    const query = new URL(link.url, 'http://x').searchParams;
    const tampered = (name: string, value: string) => {
      const copy = new URLSearchParams(query);
      copy.set(name, value);
      return `${url}?${copy.toString()}`;
    };
    // another file with this file's signature, another session or user, a later expiry, a changed signature
    await refusal(`${other}?${query.toString()}`, '文件链接无效，请返回页面重新打开');
    await refusal(tampered('sid', String(Number(query.get('sid')) + 1)), '文件链接无效，请返回页面重新打开');
    await refusal(tampered('uid', String(Number(query.get('uid')) + 1)), '文件链接无效，请返回页面重新打开');
    await refusal(tampered('expires', String(Number(query.get('expires')) + 3600)), '文件链接无效，请返回页面重新打开');
    await refusal(tampered('signature', 'A'.repeat(43)), '文件链接无效，请返回页面重新打开');
    await refusal(tampered('uid', 'x'), '文件链接无效，请返回页面重新打开');

    // five minutes later
    t.clock.advance(FILE_LINK_TTL_MS - 1001);
    expect((await get(link.url)).statusCode).toBe(200);
    t.clock.advance(1001);
    await refusal(link.url, '文件链接已过期，请返回页面重新打开');

    // signed out: its links no longer open, even within their five minutes
    const fresh = await linkFor(url, owner.token);
    expect((await get(fresh.url)).statusCode).toBe(200);
    expect((await get('/trade-api/sys/logout', owner.token)).statusCode).toBe(200);
    await refusal(fresh.url, '文件链接已失效，请重新登录后打开');
  });

  it('a link carries its user\'s rights, no more; only signed-in users get links, and only to files', async () => {
    const owner = await signedIn(t.app, t.database.db);
    const stranger = await signedIn(t.app, t.database.db);
    const url = await upload(owner.token, { name: 'private.png', data: PNG });
    const strangersLink = await linkFor(url, stranger.token);
    const refused = await get(strangersLink.url);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('无权查看该文件');
    // a valid header token goes first; the link's parameters are then ignored
    expect((await get(strangersLink.url, owner.token)).statusCode).toBe(200);

    expect((await get(`/trade-api/api/common/file-link?path=${encodeURIComponent(url)}`)).statusCode).toBe(401);
    const notAFile = await get(`/trade-api/api/common/file-link?path=${encodeURIComponent('/trade-api/sys/user/info')}`, owner.token);
    expect(notAFile.statusCode).toBe(400);
    expect(notAFile.json().message).toBe('只能为文件地址签发链接');
    // a signature on a route that serves no file is not even looked at
    const onApi = new URL(strangersLink.url, 'http://x').search;
    expect((await get(`/trade-api/sys/user/info${onApi}`)).statusCode).toBe(401);
  });

  it('the auction socket is a visitor until its first message signs it in; ?token= signs in nothing', async () => {
    const stockCode = await createProduct(t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now(), { maxStep: null }));
    const tradeId = created.json().result.tradeId as string;
    await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId });
    const bidder = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, bidder.actor, await operatorActor(t.database.db), 50_000_000);
    expect((await post(t.app, '/api/bidEnroll/add', bidder.token, { tradeId, acceptRules: true, requestId: newRequestId() })).statusCode).toBe(200);
    const token = await loginAs(t.app, bidder.user.username);
    t.clock.advance(121_000);
    await runScheduledJobs(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;

    type Message = { type: string; ok?: boolean; me?: unknown; snapshot?: { me?: unknown } };
    const open = async (query: string, first?: string) => {
      const messages: Message[] = [];
      const socket = new WebSocket(`ws://127.0.0.1:${port}/trade-api/ws/auction?tradeId=${tradeId}${query}`);
      socket.on('message', (data) => messages.push(JSON.parse(String(data))));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      if (first !== undefined) socket.send(first);
      return { socket, messages };
    };
    const settle = async (messages: Message[], done: (m: Message[]) => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done(messages) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 150)); // and nothing more comes
      return messages;
    };
    const meOf = (messages: Message[]) => {
      const told = messages.filter((m) => m.type === 'me').at(-1);
      return told ? told.me : messages.find((m) => m.type === 'snapshot')?.snapshot?.me;
    };

    // the token in the address: ignored, a visitor's socket
    const viaQuery = await open(`&token=${token}`);
    const queryMessages = await settle(viaQuery.messages, (m) => m.some((x) => x.type === 'snapshot'));
    expect(meOf(queryMessages)).toBeNull();
    expect(queryMessages.some((m) => m.type === 'auth')).toBe(false);

    // signed in by the first message: acknowledged, and `me` in the snapshot or right after it
    const signed = await open('', JSON.stringify({ type: 'auth', token }));
    const signedMessages = await settle(signed.messages, (m) => m.some((x) => x.type === 'auth') && meOf(m) != null);
    expect(signedMessages.find((m) => m.type === 'auth')).toEqual({ type: 'auth', ok: true });
    expect(meOf(signedMessages)).toEqual({ bidder: '竞买人1', enrolled: true });

    // a bad token: told so, still a visitor
    const bad = await open('', JSON.stringify({ type: 'auth', token: 'not-a-session' }));
    const badMessages = await settle(bad.messages, (m) => m.some((x) => x.type === 'auth') && m.some((x) => x.type === 'snapshot'));
    expect(badMessages.find((m) => m.type === 'auth')).toEqual({ type: 'auth', ok: false });
    expect(meOf(badMessages)).toBeNull();

    // only the first message counts: a token after something else signs nothing in
    const late = await open('', JSON.stringify({ type: 'hello' }));
    late.socket.send(JSON.stringify({ type: 'auth', token }));
    const lateMessages = await settle(late.messages, (m) => m.some((x) => x.type === 'snapshot'));
    expect(lateMessages.some((m) => m.type === 'auth')).toBe(false);
    expect(meOf(lateMessages)).toBeNull();

    // a visitor that says nothing watches as before
    const visitor = await open('');
    expect(meOf(await settle(visitor.messages, (m) => m.some((x) => x.type === 'snapshot')))).toBeNull();

    for (const { socket } of [viaQuery, signed, bad, late, visitor]) socket.close();
  });
});
