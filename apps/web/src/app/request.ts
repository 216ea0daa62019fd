import { API_PREFIX, REQUEST_TIMEOUT_MS, type ApiEnvelope } from '@coalx/shared';
import { noteGrantsVersion, session } from './session';
import { notice } from './notice';

/**
 * The request layer of spec §7/§8: fetch under {api}, 20 s timeout, the token header when one is stored, answers
 * unwrapped to their body, and the error catalogue handled in one place. Callers get the server's body on
 * rejection, so they can show its Chinese `message`.
 */

export const TOKEN_HEADER = 'X-Access-Token';
/** The server's version of the signed-in role's grants; a change reloads the menu (session.noteGrantsVersion). */
export const GRANTS_VERSION_HEADER = 'X-Grants-Version';
export const LOGIN_PATH = '/user/login';

/** What a rejected request gives its caller: the server's error body plus the HTTP status. */
export interface RequestError {
  success: false;
  code: number;
  message: string;
  error?: string;
  result: unknown;
  timestamp?: number;
  /** HTTP status; 0 for a network failure or a time-out. */
  status: number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  params?: Record<string, unknown>;
  /** JSON body, or FormData for uploads. */
  data?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  signal?: AbortSignal;
  /** Leave the catalogue's notices and cleanup to the caller. */
  skipErrorHandler?: boolean;
}

/** Browser effects behind one object so tests can watch them. */
export const browser = {
  pathname: (): string => window.location.pathname,
  reload: (): void => window.location.reload(),
};

export const CLEANUP_DELAY_MS = 800;

export const ERROR_NOTICES = {
  forbidden: 'Forbidden',
  tokenExpired: { message: 'Token失效', description: 'Sorry, your login has expired, please log in again' },
  loginInvalid: { message: 'Login invalid', description: 'please log in again' },
} as const;

let cleanupTimer: ReturnType<typeof setTimeout> | null = null;

/** After 0.8 s the token is removed and the page reloads unless already on the login page or the root. */
function scheduleCleanup() {
  if (cleanupTimer) return;
  cleanupTimer = setTimeout(() => {
    cleanupTimer = null;
    session.removeToken();
    const path = browser.pathname();
    if (path !== LOGIN_PATH && path !== '/') browser.reload();
  }, CLEANUP_DELAY_MS);
}

/** Test hook. */
export function cancelPendingCleanup() {
  if (cleanupTimer) clearTimeout(cleanupTimer);
  cleanupTimer = null;
}

function hasTokenInvalid(body: { message?: unknown } | null): boolean {
  return typeof body?.message === 'string' && body.message.toLowerCase().includes('token invalid');
}

/**
 * The error catalogue (spec §8). Returns true when it handled the error with a notice. `hadToken` is whether the
 * request carried a token: an expired-login notice only makes sense for a signed-in caller.
 */
export function handleErrorCatalogue(status: number, body: Partial<RequestError> | null, hadToken: boolean): boolean {
  if (status === 403) {
    notice.error({ message: ERROR_NOTICES.forbidden, description: body?.message ?? '' });
    scheduleCleanup();
    return true;
  }
  // Our server answers 401 for an invalid token; the catalogue's 500 case is kept for gateways that answer 500.
  if ((status === 500 || status === 401) && hadToken && hasTokenInvalid(body)) {
    notice.error({ key: 'token-expired', ...ERROR_NOTICES.tokenExpired });
    scheduleCleanup();
    return true;
  }
  if (status === 401 && body === null) {
    notice.error({ key: 'token-expired', ...ERROR_NOTICES.loginInvalid });
    scheduleCleanup();
    return true;
  }
  return false;
}

function buildUrl(url: string, params?: Record<string, unknown>): string {
  const full = /^https?:\/\//.test(url) || url.startsWith(API_PREFIX) ? url : `${API_PREFIX}${url}`;
  if (!params) return full;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) search.set(key, value.join(','));
    else search.set(key, String(value));
  }
  const query = search.toString();
  if (!query) return full;
  return `${full}${full.includes('?') ? '&' : '?'}${query}`;
}

function failure(status: number, message: string): RequestError {
  return { success: false, code: status, message, result: null, timestamp: Date.now(), status };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON (a proxy's HTML page)
  }
}

/** A read refused with 503 and Retry-After (the database restarting or failing over) is tried again this often. */
const READ_RETRIES = 2;
const MAX_RETRY_AFTER_S = 5;

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<ApiEnvelope<T>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await requestOnce<T>(url, options, attempt < READ_RETRIES);
    } catch (err) {
      const retryAfter = (err as { retryAfterS?: number }).retryAfterS;
      if (retryAfter === undefined || attempt >= READ_RETRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    }
  }
}

/** One try; `mayRetry`: a GET answered 503 with a short Retry-After rejects with `retryAfterS` and no notice shown. */
async function requestOnce<T>(url: string, options: RequestOptions, mayRetry: boolean): Promise<ApiEnvelope<T>> {
  const { method = 'GET', params, data, timeout = REQUEST_TIMEOUT_MS, signal, skipErrorHandler } = options;
  const token = session.token();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers[TOKEN_HEADER] = token;
  let body: BodyInit | undefined;
  if (data instanceof FormData) body = data;
  else if (data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(data);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);

  let response: Response;
  try {
    response = await fetch(buildUrl(url, params), { method, headers, body, signal: controller.signal });
  } catch {
    throw failure(0, timedOut ? '请求超时，请稍后重试' : signal?.aborted ? '请求已取消' : '网络异常，请检查网络连接');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }

  const grantsVersion = response.headers.get(GRANTS_VERSION_HEADER);
  if (token && grantsVersion) noteGrantsVersion(grantsVersion);

  const parsed = await readBody(response).catch(() => undefined);
  if (response.ok) {
    if (parsed === null || parsed === undefined) throw failure(response.status, '服务器返回了无法识别的内容');
    return parsed as ApiEnvelope<T>;
  }

  const errorBody: RequestError =
    parsed && typeof parsed === 'object'
      ? { ...failure(response.status, '请求失败'), ...(parsed as object), status: response.status }
      : failure(response.status, defaultMessage(response.status));
  // only reads: a write refused with 503 did nothing, but whether to send it again is the person's decision
  const retryAfter = Number(response.headers.get('retry-after'));
  if (mayRetry && method === 'GET' && response.status === 503 && retryAfter > 0 && retryAfter <= MAX_RETRY_AFTER_S) {
    throw Object.assign(errorBody, { retryAfterS: retryAfter });
  }
  if (!skipErrorHandler) {
    handleErrorCatalogue(response.status, parsed === null ? null : errorBody, Boolean(token));
  }
  throw errorBody;
}

function defaultMessage(status: number): string {
  if (status === 401) return '未登录或登录已过期，请重新登录';
  if (status === 403) return '没有权限执行此操作';
  if (status === 404) return '请求的资源不存在';
  if (status === 504 || status === 408) return '请求超时，请稍后重试';
  if (status === 502 || status === 503) return '系统繁忙，请稍后重试';
  if (status >= 500) return '服务器开小差了，请稍后再试';
  return '请求失败';
}

/** The result of a code-0 answer; anything else rejects with the body (upload and area calls use code, spec §8). */
export async function requestResult<T>(url: string, options?: RequestOptions): Promise<T> {
  const body = await request<T>(url, options);
  if (body.code !== 0 && body.success !== true) {
    throw { ...body, status: 200 } as RequestError;
  }
  return body.result;
}

/** The Chinese message of a rejection, whatever was thrown. */
export function errorMessage(error: unknown, fallback = '操作失败，请稍后重试'): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return fallback;
}

export function isRequestError(error: unknown): error is RequestError {
  return Boolean(error && typeof error === 'object' && 'status' in error && 'message' in error);
}

export interface PageResult<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
  /** the list counted only up to `total` and has more */
  totalCapped?: boolean;
}

/** Trade tables fall back to an empty first page of 10 when their call fails (spec §8). */
export async function withEmptyPageFallback<T>(load: () => Promise<PageResult<T>>): Promise<PageResult<T>> {
  try {
    return await load();
  } catch {
    return { records: [], total: 0, current: 1, size: 10 };
  }
}
