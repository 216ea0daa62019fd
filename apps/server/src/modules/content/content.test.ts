import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
const PDF = Buffer.from('%PDF-1.4\n%test\n');

function multipart(name: string, data: Buffer, visibility: string) {
  const boundary = '----b';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="visibility"\r\n\r\n${visibility}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(testDatabaseKinds())('home content on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    operator = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
  const upload = async (name: string, data: Buffer, visibility = 'public') => {
    const { payload, headers } = multipart(name, data, visibility);
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': operator } });
    return response.json().result.url as string;
  };
  const iso = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();

  it('announcements: shown only while published and effective, bodies sanitised, paging capped', async () => {
    const pdf = await upload('weekly.pdf', PDF);
    const save = async (title: string, body: string, effective: number, expiration: number | null) => {
      const response = await call('POST', '/api/content/save', operator, { type: '0', title, body, enclosure: pdf, effectiveTime: iso(effective), expirationTime: expiration === null ? null : iso(expiration) });
      expect(response.statusCode, response.body).toBe(200);
      const id = response.json().result.id as number;
      expect((await call('POST', '/api/content/publish', operator, { id })).statusCode).toBe(200);
      return id;
    };
    const live = await save('本周动力煤市场周报', '<p onclick="steal()">正文<script>alert(1)</script><a href="javascript:alert(2)">链接</a><img src=x onerror=alert(3)></p>', -1000, null);
    await save('已过期的周报', '<p>旧</p>', -7200_000, -3600_000);
    await save('尚未生效的周报', '<p>新</p>', 3600_000, null);
    const list = (await call('GET', '/api/content/list?type=0&pageSize=10&pageNo=1&_t=1', null)).json().result;
    expect(list.records.map((r: { title: string }) => r.title)).toEqual(['本周动力煤市场周报']);
    expect(list.total).toBe(1);
    const detail = (await call('GET', `/api/content/detail?id=${live}`, null)).json().result;
    expect(detail.body).toContain('正文');
    expect(detail.body).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(detail.enclosure).toBe(pdf);
    // the search matches part of the title, and its wildcards are plain characters
    const search = async (title: string) =>
      (await call('GET', `/api/content/list?type=0&title=${encodeURIComponent(title)}`, null)).json().result.records.map((r: { title: string }) => r.title);
    expect(await search('动力煤')).toEqual(['本周动力煤市场周报']);
    expect(await search('焦煤')).toEqual([]);
    expect(await search('%')).toEqual([]);
    expect((await call('GET', `/api/content/list?type=0&title=${'长'.repeat(41)}`, null)).statusCode).toBe(400);
    // the operator's list: newest first by effective time, whatever order the items were written in
    const managed = (await call('GET', '/api/content/manageList?type=0', operator)).json().result.records.map((r: { title: string }) => r.title);
    expect(managed).toEqual(['尚未生效的周报', '本周动力煤市场周报', '已过期的周报']);
    const capped = (await call('GET', '/api/content/list?type=0&pageSize=100000', null)).json().result;
    expect(capped.size).toBe(50);
    expect((await call('GET', '/api/content/list?type=z', null)).statusCode).toBe(400);
    // unpublished: gone for visitors, still there for the operator
    await call('POST', '/api/content/unpublish', operator, { id: live });
    expect((await call('GET', `/api/content/detail?id=${live}`, null)).statusCode).toBe(404);
    expect((await call('GET', `/api/content/detail?id=${live}`, operator)).statusCode).toBe(200);
  });

  it('only the trading centre edits content, banners and the index', async () => {
    const trader = await signedIn(t.app, t.database.db);
    expect((await call('POST', '/api/content/save', trader.token, { type: '0', title: 'x', effectiveTime: iso(0) })).statusCode).toBe(403);
    expect((await call('POST', '/api/banner/save', trader.token, { title: 'x', imageUrl: 'x' })).statusCode).toBe(403);
    expect((await call('POST', '/api/commoditymarketindex/commodityMarketIndex/publish', trader.token, { currentYear: 2026, currentTerm: 1, quoteDate: '2026-01-02', price: 80_000 })).statusCode).toBe(403);
    expect((await call('POST', '/api/content/save', null, { type: '0', title: 'x', effectiveTime: iso(0) })).statusCode).toBe(401);
  });

  it('banners: public images only, ordered, on and off', async () => {
    const image = await upload('banner.png', PNG);
    const privateImage = await upload('secret.png', PNG, 'private');
    expect((await call('POST', '/api/banner/save', operator, { title: '私有', imageUrl: privateImage })).json().message).toContain('公开');
    const pdf = await upload('doc.pdf', PDF);
    expect((await call('POST', '/api/banner/save', operator, { title: 'PDF', imageUrl: pdf })).json().message).toContain('图片');
    expect((await call('POST', '/api/banner/save', operator, { title: '外链', imageUrl: image, detailPageUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
    await call('POST', '/api/banner/save', operator, { title: '第二', imageUrl: image, sort: 2 });
    const first = (await call('POST', '/api/banner/save', operator, { title: '第一', imageUrl: image, sort: 1, detailPageUrl: '/moreListings?tradeType=0' })).json().result;
    await call('POST', '/api/banner/save', operator, { title: '停用', imageUrl: image, sort: 0, enabled: false });
    const list = (await call('GET', '/api/banner/list', null)).json().result;
    expect(list.map((b: { title: string }) => b.title)).toEqual(['第一', '第二']);
    expect(list[0]).toMatchObject({ listImage: `/trade-api/api/common/static/${image}`, detailPageURL: '/moreListings?tradeType=0' });
    expect((await call('POST', '/api/banner/delete', operator, { id: first.id })).statusCode).toBe(200);
    expect((await call('GET', '/api/banner/list', null)).json().result).toHaveLength(1);
  });

  it('market index: published terms, change against the previous term, history in order', async () => {
    expect((await call('GET', '/api/commoditymarketindex/commodityMarketIndex/info', null)).json().result).toBeNull();
    const publish = (term: number, price: number) =>
      call('POST', '/api/commoditymarketindex/commodityMarketIndex/publish', operator, { currentYear: 2026, currentTerm: term, quoteDate: `2026-0${Math.min(term, 9)}-01`, price });
    expect((await publish(10, 80_000)).statusCode).toBe(200);
    expect((await publish(11, 81_250)).json().result).toMatchObject({ currentTerm: 11, totalTerm: 2, rise: 1_250 });
    expect((await publish(12, 80_500)).json().result).toMatchObject({ rise: -750, totalTerm: 3 });
    expect((await publish(9, 70_000)).statusCode).toBe(409);
    const info = (await call('GET', '/api/commoditymarketindex/commodityMarketIndex/info?_t=1', null)).json().result;
    expect(info).toMatchObject({ currentYear: 2026, currentTerm: 12, totalTerm: 3, price: 80_500, rise: -750 });
    const history = (await call('GET', '/api/commoditymarketindex/commodityMarketIndex/history?limit=100000', null)).json().result;
    expect(history.map((h: { currentTerm: number }) => h.currentTerm)).toEqual([10, 11, 12]);
    const proposal = (await call('GET', '/api/commoditymarketindex/commodityMarketIndex/proposal?year=2026&term=13', operator)).json().result;
    expect(proposal).toMatchObject({ currentTerm: 13, price: null, dealCount: 0, previousPrice: 80_500 });
  });
});
