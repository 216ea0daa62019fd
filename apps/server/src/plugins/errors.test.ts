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
    expect(expectRefusal(await post('{}'), 400).message).toContain('username');
    expect(expectRefusal(await post('{"username": 12, "password": "x"}'), 400).message).toContain('username');
    expectRefusal(await post('[]'), 400);
    expectRefusal(await post('null'), 400);
  });

  it('unknown fields → 400', async () => {
    const body = expectRefusal(await post('{"username":"a","password":"b","isAdmin":true}'), 400);
    expect(body.message).toContain('isAdmin');
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
});
