import type { UserInfo } from '@coalx/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  browser,
  cancelPendingCleanup,
  CLEANUP_DELAY_MS,
  request,
  requestResult,
  TOKEN_HEADER,
  withEmptyPageFallback,
  type RequestError,
} from './request';
import { notice } from './notice';
import { onGrantsChanged, session, STORAGE_KEYS } from './session';

function reply(status: number, body: unknown) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();
let reload: ReturnType<typeof vi.fn>;
let pathname = '/companyInfo';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  reload = vi.fn();
  pathname = '/companyInfo';
  vi.spyOn(browser, 'reload').mockImplementation(reload as () => void);
  vi.spyOn(browser, 'pathname').mockImplementation(() => pathname);
  vi.spyOn(notice, 'error').mockImplementation(() => undefined);
  localStorage.clear();
  session.reset();
});

afterEach(() => {
  cancelPendingCleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function signIn(token = 'tok-1') {
  localStorage.setItem(STORAGE_KEYS.token, token);
  session.reset();
}

async function rejection(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (e) {
    return e as RequestError;
  }
  throw new Error('expected the request to reject');
}

describe('request', () => {
  it('prefixes {api}, sends the stored token and unwraps the body', async () => {
    signIn('abc');
    fetchMock.mockResolvedValue(reply(200, { success: true, code: 0, message: 'ok', result: { a: 1 }, timestamp: 1 }));
    const body = await request('/sys/user/info', { params: { x: 1, empty: '', list: [1, 2] } });
    expect(body.result).toEqual({ a: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/trade-api/sys/user/info?x=1&list=1%2C2');
    expect((init!.headers as Record<string, string>)[TOKEN_HEADER]).toBe('abc');
  });

  it('sends no token header when none is stored, and JSON bodies as JSON', async () => {
    fetchMock.mockResolvedValue(reply(200, { success: true, code: 0, message: 'ok', result: null, timestamp: 1 }));
    await request('/sys/login', { method: 'POST', data: { username: 'u' } });
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)[TOKEN_HEADER]).toBeUndefined();
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"username":"u"}');
  });

  it('403: notice Forbidden with the server message, then removes the token and reloads after 800 ms', async () => {
    signIn();
    fetchMock.mockResolvedValue(reply(403, { success: false, code: 403, message: '没有权限执行此操作', error: 'forbidden' }));
    const error = await rejection(request('/x'));
    expect(error.message).toBe('没有权限执行此操作');
    expect(notice.error).toHaveBeenCalledWith({ message: 'Forbidden', description: '没有权限执行此操作' });
    expect(CLEANUP_DELAY_MS).toBe(800);
    vi.advanceTimersByTime(799);
    expect(session.token()).toBe('tok-1');
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it.each(['/user/login', '/'])('403 on %s removes the token but does not reload', async (path) => {
    signIn();
    pathname = path;
    fetchMock.mockResolvedValue(reply(403, { success: false, code: 403, message: '账号已停用' }));
    await rejection(request('/sys/login', { method: 'POST', data: {} }));
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(session.token()).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('500 with a token and "token invalid": notice Token失效, cleanup after 0.8 s', async () => {
    signIn();
    fetchMock.mockResolvedValue(reply(500, { success: false, code: 500, message: 'Token invalid!' }));
    await rejection(request('/x'));
    expect(notice.error).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Token失效', description: 'Sorry, your login has expired, please log in again' }),
    );
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('500 "token invalid" without a token is an ordinary error', async () => {
    fetchMock.mockResolvedValue(reply(500, { success: false, code: 500, message: 'token invalid' }));
    const error = await rejection(request('/x'));
    expect(error.status).toBe(500);
    expect(notice.error).not.toHaveBeenCalled();
  });

  it('401 with a token and a message containing "token invalid" is treated like the 500 case', async () => {
    signIn();
    fetchMock.mockResolvedValue(
      reply(401, { success: false, code: 401, message: '登录已失效 (token invalid)，请重新登录', error: 'token_invalid' }),
    );
    const error = await rejection(request('/sys/user/info'));
    expect(error.error).toBe('token_invalid');
    expect(notice.error).toHaveBeenCalledWith(expect.objectContaining({ message: 'Token失效' }));
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalled();
  });

  it('401 without a response body: notice Login invalid, same cleanup', async () => {
    signIn();
    fetchMock.mockResolvedValue(reply(401, undefined));
    await rejection(request('/x'));
    expect(notice.error).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Login invalid', description: 'please log in again' }),
    );
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a wrong password (401 with a body, no token) rejects with the Chinese message and no notice', async () => {
    fetchMock.mockResolvedValue(
      reply(401, { success: false, code: 401, message: '用户名或密码错误，还可尝试 4 次', error: 'bad_credentials' }),
    );
    const error = await rejection(request('/sys/login', { method: 'POST', data: {} }));
    expect(error).toMatchObject({ status: 401, message: '用户名或密码错误，还可尝试 4 次', error: 'bad_credentials' });
    expect(notice.error).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(reload).not.toHaveBeenCalled();
  });

  it('other errors reject with the server body and leave the session alone', async () => {
    signIn();
    fetchMock.mockResolvedValue(reply(422, { success: false, code: 422, message: '原密码错误', error: 'wrong_old_password' }));
    const error = await rejection(request('/sys/user/updatePassword', { method: 'PUT', data: {} }));
    expect(error).toMatchObject({ status: 422, message: '原密码错误' });
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(session.token()).toBe('tok-1');
    expect(notice.error).not.toHaveBeenCalled();
  });

  it('a body that is not JSON gives a Chinese message', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502 }));
    const error = await rejection(request('/x'));
    expect(error.status).toBe(502);
    expect(error.message).toBe('系统繁忙，请稍后重试');
  });

  it('a read refused with 503 and Retry-After is tried again after that many seconds; a write is not', async () => {
    const busy = () => new Response(JSON.stringify({ success: false, code: 503, message: '系统繁忙，请稍后重试', error: 'busy_retry' }), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '2' } });
    fetchMock.mockResolvedValueOnce(busy()).mockResolvedValueOnce(reply(200, { success: true, code: 0, result: 'ok' }));
    const pending = request('/x');
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).result).toBe('ok');
    expect(fetchMock).toHaveBeenCalledTimes(2);

    fetchMock.mockReset();
    fetchMock.mockResolvedValue(busy());
    const write = await rejection(request('/y', { method: 'POST', data: {} }));
    expect(write).toMatchObject({ status: 503, message: '系统繁忙，请稍后重试' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // a read gives up after two more tries, with the server's message
    fetchMock.mockClear();
    const read = rejection(request('/z'));
    await vi.advanceTimersByTimeAsync(4000);
    expect(await read).toMatchObject({ status: 503, message: '系统繁忙，请稍后重试' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('times out after 20000 ms', async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = rejection(request('/slow'));
    vi.advanceTimersByTime(19999);
    await Promise.resolve();
    vi.advanceTimersByTime(1);
    const error = await pending;
    expect(error).toMatchObject({ status: 0, message: '请求超时，请稍后重试' });
  });

  it('a network failure rejects with a Chinese message', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect((await rejection(request('/x'))).message).toBe('网络异常，请检查网络连接');
  });

  it('skipErrorHandler leaves the notice and cleanup to the caller', async () => {
    signIn();
    fetchMock.mockResolvedValue(reply(403, { success: false, code: 403, message: 'no' }));
    await rejection(request('/x', { skipErrorHandler: true }));
    vi.advanceTimersByTime(CLEANUP_DELAY_MS);
    expect(notice.error).not.toHaveBeenCalled();
    expect(session.token()).toBe('tok-1');
  });
});

describe('requestResult', () => {
  it('gives the result of a code-0 answer', async () => {
    fetchMock.mockResolvedValue(reply(200, { success: true, code: 0, message: 'ok', result: [1], timestamp: 1 }));
    await expect(requestResult('/x')).resolves.toEqual([1]);
  });

  it('rejects a non-zero code with the body (upload and area calls)', async () => {
    fetchMock.mockResolvedValue(reply(200, { success: false, code: 1, message: '文件类型不支持', result: null }));
    await expect(requestResult('/x')).rejects.toMatchObject({ message: '文件类型不支持' });
  });
});

describe('withEmptyPageFallback', () => {
  it('falls back to an empty first page of 10 when a trade table fails', async () => {
    await expect(withEmptyPageFallback(() => Promise.reject(new Error('x')))).resolves.toEqual({
      records: [],
      total: 0,
      current: 1,
      size: 10,
    });
  });
});

describe('grants version', () => {
  const userInfo = (grantsVersion: string): UserInfo => ({
    id: '1', username: 'u', realname: 'u', name: 'u', avatar: '', mobile: '', isFirstLogin: '0', grantsVersion,
    role: { id: '9', code: 'trader', name: '交易员', permissions: [] },
  });
  const answer = (version: string) =>
    new Response(JSON.stringify({ success: true, code: 0, message: '', result: null }), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Grants-Version': version } });

  it('reloads the menu once when a signed-in answer carries another version, not when it carries the same', async () => {
    vi.useRealTimers();
    signIn();
    session.loaded(userInfo('v1'), [], []);
    const reloadMenu = vi.fn(async () => session.loaded(userInfo('v2'), [], []));
    onGrantsChanged(reloadMenu);

    fetchMock.mockResolvedValueOnce(answer('v1'));
    await request('/api/x');
    expect(reloadMenu).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(answer('v2')).mockResolvedValueOnce(answer('v2'));
    await Promise.all([request('/api/x'), request('/api/y')]);
    expect(reloadMenu).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(session.get().userInfo?.grantsVersion).toBe('v2'));
    fetchMock.mockResolvedValueOnce(answer('v2'));
    await request('/api/x');
    expect(reloadMenu).toHaveBeenCalledTimes(1);
  });

  it('waits for the first menu load: nothing to compare before it', async () => {
    vi.useRealTimers();
    signIn();
    const reloadMenu = vi.fn(async () => undefined);
    onGrantsChanged(reloadMenu);
    fetchMock.mockResolvedValueOnce(answer('v9'));
    await request('/api/x');
    expect(reloadMenu).not.toHaveBeenCalled();
  });
});
