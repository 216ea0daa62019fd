import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';

describe('envelope and refusals of bad input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/trade-api/sys/login', payload, headers: { 'content-type': contentType } });

  function expectRefusal(response: { statusCode: number; json(): Record<string, unknown> }, status: number) {
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body).toMatchObject({ success: false, code: status, result: null });
    expect(typeof body.timestamp).toBe('number');
    expect(body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(String(body.message)).not.toMatch(/select|stack|Error:/i);
    return body;
  }

  it('malformed JSON → 400 in Chinese', async () => {
    expectRefusal(await post('{"username": "a",'), 400);
  });

  it('missing fields and wrong types → 400 naming the field', async () => {
    expect(expectRefusal(await post('{}'), 400).message).toContain('用户名');
    expect(expectRefusal(await post('{"username": 12, "password": "x"}'), 400).message).toBe('请求参数有误，请输入用户名');
    expectRefusal(await post('[]'), 400);
    expectRefusal(await post('null'), 400);
  });

  it('unknown fields → 400', async () => {
    const body = expectRefusal(await post('{"username":"a","password":"b","isAdmin":true}'), 400);
    expect(body.message).toBe('请求包含不支持的字段');
  });

  it('oversized bodies → 413', async () => {
    const huge = JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) });
    expectRefusal(await post(huge), 413);
  });

  it('huge strings inside the limit are refused by the schema', async () => {
    expectRefusal(await post(JSON.stringify({ username: 'a'.repeat(1000), password: 'b' })), 400);
  });

  it('unsupported content type → 415', async () => {
    expectRefusal(await post('username=a', 'application/x-www-form-urlencoded'), 415);
  });

  it('unknown API path → 404 envelope, even without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/no/such/thing' });
    expect(expectRefusal(response, 404).error).toBe('route_not_found');
  });

  it('a successful answer has the envelope and a request id header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/sys/dict/getAllDictItems', headers: { 'x-request-id': 'abc-123' } });
    expect(response.json()).toMatchObject({ success: true, code: 0, message: '操作成功' });
    expect(response.headers['x-request-id']).toBe('abc-123');
  });

  it('a wrong-typed body on an authenticated route is a 400, not a 500', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/trade-api/sys/user/updatePassword',
      headers: { 'x-access-token': token },
      payload: { oldPassword: 1, password: ['x'], confirmPassword: null },
    });
    expectRefusal(response, 400);
  });

  it('a NUL byte in any string, body or query, is a 400 saying so', async () => {
    const login = expectRefusal(await post(JSON.stringify({ username: 'a\u0000b', password: 'x' })), 400);
    expect(login.message).toBe('请求参数有误，用户名不能包含空字符');
    const list = await t.app.inject({ method: 'POST', url: '/trade-api/api/tradeHome/listedTrade/list', payload: { productName: 'a\u0000b' } });
    expect(expectRefusal(list, 400).message).toBe('请求参数有误，产品名称不能包含空字符');
    const { token } = await signedIn(t.app, t.database.db);
    const snapshot = await t.app.inject({ method: 'GET', url: '/trade-api/api/bidRecord/snapshot?tradeId=a%00b', headers: { 'x-access-token': token } });
    expect(expectRefusal(snapshot, 400).message).toBe('请求参数有误，交易编号不能包含空字符');
  });

  it('a huge number is told it is too large, not that it has decimals', async () => {
    const { token } = await signedIn(t.app, t.database.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/trade-api/api/bidRecord/bidAnswerApply',
      headers: { 'x-access-token': token },
      payload: { tradeId: 'JJ0001', price: 1e20 },
    });
    const message = expectRefusal(response, 400).message as string;
    expect(message).toMatch(/过大|过高/);
    expect(message).not.toMatch(/小数|price/);
  });

  it('multipart without a boundary is a 400 in the envelope', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload: 'abc', headers: { 'content-type': 'multipart/form-data' } });
    expect(expectRefusal(response, 400).message).toBe('上传内容格式不正确，请重新选择文件上传');
  });

  it('a URL the router cannot decode is a 400 in the envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/api/common/static/%E0%A4%A' });
    expectRefusal(response, 400);
  });

  it('headers too large for the HTTP parser get a 431 in the envelope over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/trade-api/health', headers: { 'x-big': 'x'.repeat(40_000) } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      request.on('error', reject);
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 431, message: '请求头过大', result: null });
  });
});
