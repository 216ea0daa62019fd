import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userWith } from '@/test/fixtures';
import { session } from './session';

const auth = vi.hoisted(() => ({ failure: null as unknown }));
vi.mock('@/services/auth', () => ({
  getUserInfo: vi.fn(async () => Promise.reject(auth.failure)),
  getUserPermission: vi.fn(async () => Promise.reject(auth.failure)),
}));
vi.mock('./notice', () => ({ notice: { error: vi.fn() } }));

const { default: AppRoutes } = await import('./router');

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

beforeEach(() => {
  localStorage.clear();
  session.reset();
  session.signIn('token-1', userWith({ index: ['query'] }), null);
});
afterEach(() => {
  cleanup();
  window.dispatchEvent(new Event('pageshow'));
});

describe('the guard when user info cannot be loaded', () => {
  it('signs the user out when the server refuses', async () => {
    auth.failure = { success: false, code: 500, message: '服务器开小差了', status: 500 };
    open('/companyInfo');
    await pause(50);
    expect(session.token()).toBeNull();
  });

  it('keeps the session when the load was aborted by leaving the page (reload, another address)', async () => {
    auth.failure = { success: false, code: 0, message: '网络异常，请检查网络连接', status: 0 };
    open('/companyInfo');
    window.dispatchEvent(new Event('pagehide'));
    await pause(700);
    expect(session.token()).toBe('token-1');
  });

  it('still signs out after a network failure when the page stays', async () => {
    auth.failure = { success: false, code: 0, message: '网络异常，请检查网络连接', status: 0 };
    open('/companyInfo');
    await pause(50);
    expect(session.token()).toBe('token-1');
    await pause(700);
    expect(session.token()).toBeNull();
  });
});
