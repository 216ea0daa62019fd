import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF = Buffer.from('%PDF-1.4\n% test\n');

describe.each(testDatabaseKinds())('files on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function upload(token: string, file: Parameters<typeof multipart>[0], fields?: Record<string, string>) {
    const { payload, headers } = multipart(file, fields);
    return t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
  }
  const read = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${url}`, headers: token ? { 'x-access-token': token } : {} });

  it('stores an image and returns code 0 with its url; the owner reads it back byte for byte', async () => {
    const owner = await signedIn(t.app, t.database.db);
    const response = await upload(owner.token, { name: '营业执照.png', data: PNG });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ code: 0, result: { contentType: 'image/png', visibility: 'private', name: '营业执照.png' } });
    const back = await read(body.result.url, owner.token);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(back.rawPayload, PNG)).toBe(0);
  });

  it('keeps private files from visitors and other enterprises, but not from operators; ?token= opens nothing', async () => {
    const owner = await signedIn(t.app, t.database.db);
    const url = (await upload(owner.token, { name: 'voucher.pdf', data: PDF })).json().result.url;
    expect((await read(url)).statusCode).toBe(401);
    const stranger = await signedIn(t.app, t.database.db);
    const refused = await read(url, stranger.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('无权查看该文件');
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    expect((await read(url, operator.token)).statusCode).toBe(200);
    const viaQuery = await t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${url}?token=${owner.token}` });
    expect(viaQuery.statusCode).toBe(401);
  });

  it('lets only the trading centre publish public files, which visitors then read', async () => {
    const trader = await signedIn(t.app, t.database.db);
    expect((await upload(trader.token, { name: 'banner.png', data: PNG }, { visibility: 'public' })).statusCode).toBe(403);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const url = (await upload(operator.token, { name: 'banner.png', data: PNG }, { visibility: 'public' })).json().result.url;
    expect((await read(url)).statusCode).toBe(200);
  });

  it('tells the type by content: a renamed text file or a mismatched extension is refused', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    const fake = await upload(token, { name: 'photo.png', data: Buffer.from('MZ this is not a picture') });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().code).toBe(400);
    expect(fake.json().message).toContain('文件类型不支持');
    expect((await upload(token, { name: 'photo.exe', data: PNG })).statusCode).toBe(400);
    expect((await upload(token, { name: 'doc.jpg', data: PDF })).statusCode).toBe(400);
    expect((await upload(token, { name: 'empty.png', data: Buffer.alloc(0) })).statusCode).toBe(400);
  });

  it('refuses uploads without a file, under another field name, or too large', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    expect((await upload(token, { name: 'a.png', data: PNG, field: 'other' })).statusCode).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024)]);
    expect((await upload(token, { name: 'big.png', data: big })).statusCode).toBe(413);
    const json = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', headers: { 'x-access-token': token }, payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
  });

  it('needs sign-in to upload', async () => {
    const { payload, headers } = multipart({ name: 'a.png', data: PNG });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers });
    expect(response.statusCode).toBe(401);
  });

  it('refuses path traversal, absolute and unknown paths', async () => {
    const { token } = await signedIn(t.app, t.database.db, { role: 'operator' });
    // a literal ../ is resolved by the URL parser before routing: it lands outside the file route, never on a file
    const literal = await read('../../../../etc/passwd', token);
    expect(literal.body).not.toContain('root:');
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', '2026/11/22/..%2F..%2F..%2Fpglite%2FPG_VERSION', 'x.png']) {
      const response = await read(bad, token);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error).toBe('bad_file_path');
    }
    expect((await read('2026/01/01/00000000-0000-0000-0000-000000000000.png', token)).statusCode).toBe(404);
  });
});
