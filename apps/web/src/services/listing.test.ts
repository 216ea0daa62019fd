import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser, cancelPendingCleanup } from '@/app/request';
import { session } from '@/app/session';
import { subscribeListing } from './listing';

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  cancelPendingCleanup();
  session.reset();
});

describe('trading actions', () => {
  it('a 403 policy refusal reaches the page and does not sign the trader out', async () => {
    vi.useFakeTimers();
    session.signIn('tok', { id: '1' } as never, null);
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    answer(403, { success: false, code: 403, message: '不能摘本企业发布的挂牌', result: null });
    await expect(subscribeListing({ tradeId: 'GP1', quantity: 1000, requestId: 'abcdefgh1' })).rejects.toMatchObject({
      status: 403,
      message: '不能摘本企业发布的挂牌',
    });
    vi.advanceTimersByTime(2000);
    expect(reload).not.toHaveBeenCalled();
    expect(session.token()).toBe('tok');
  });

  it('an invalid token still goes through the catalogue', async () => {
    vi.useFakeTimers();
    session.signIn('tok', { id: '1' } as never, null);
    vi.spyOn(browser, 'pathname').mockReturnValue('/hang/hangSale');
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    answer(401, { success: false, code: 401, message: 'token invalid', result: null });
    await expect(subscribeListing({ tradeId: 'GP1', quantity: 1000, requestId: 'abcdefgh1' })).rejects.toMatchObject({ status: 401 });
    vi.advanceTimersByTime(2000);
    expect(reload).toHaveBeenCalled();
    expect(session.token()).toBeNull();
  });
});
