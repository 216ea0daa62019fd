import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWakeLock } from './useWakeLock';

class FakeSentinel extends EventTarget {
  released = false;
  release = vi.fn(async () => {
    this.released = true;
    this.dispatchEvent(new Event('release'));
  });
}

let sentinels: FakeSentinel[];
let request: ReturnType<typeof vi.fn>;
let visibility: DocumentVisibilityState;

const flush = () => act(async () => {
  await Promise.resolve();
  await Promise.resolve();
});
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  sentinels = [];
  visibility = 'visible';
  request = vi.fn(async (type: string) => {
    expect(type).toBe('screen');
    const s = new FakeSentinel();
    sentinels.push(s);
    return s;
  });
  Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request } });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'wakeLock');
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('useWakeLock', () => {
  it('asks for a screen lock while active and releases it on unmount', async () => {
    const hook = renderHook(() => useWakeLock(true));
    await flush();
    expect(request).toHaveBeenCalledTimes(1);
    expect(sentinels[0]!.released).toBe(false);
    hook.unmount();
    expect(sentinels[0]!.release).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing while inactive, and releases the lock when the auction ends', async () => {
    const hook = renderHook(({ live }) => useWakeLock(live), { initialProps: { live: false } });
    await flush();
    expect(request).not.toHaveBeenCalled();
    hook.rerender({ live: true });
    await flush();
    expect(request).toHaveBeenCalledTimes(1);
    hook.rerender({ live: false });
    expect(sentinels[0]!.released).toBe(true);
    hook.unmount();
    expect(sentinels[0]!.release).toHaveBeenCalledTimes(1);
  });

  it('asks again when the page is visible after the browser dropped the lock on hiding it', async () => {
    const hook = renderHook(() => useWakeLock(true));
    await flush();
    // the browser releases the lock itself when the page is hidden
    setVisibility('hidden');
    await sentinels[0]!.release();
    await flush();
    expect(request).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    await flush();
    expect(request).toHaveBeenCalledTimes(2);
    expect(sentinels[1]!.released).toBe(false);
    // visible again while still holding a lock: no second request
    setVisibility('visible');
    await flush();
    expect(request).toHaveBeenCalledTimes(2);
    hook.unmount();
    expect(sentinels[1]!.released).toBe(true);
  });

  it('gives back a lock granted after unmounting, and stops listening', async () => {
    let grant!: (s: FakeSentinel) => void;
    request.mockImplementationOnce(() => new Promise<FakeSentinel>((resolve) => (grant = resolve)));
    const hook = renderHook(() => useWakeLock(true));
    hook.unmount();
    const late = new FakeSentinel();
    await act(async () => grant(late));
    await flush();
    expect(late.release).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    await flush();
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('does nothing without the API, and survives a refusal', async () => {
    Reflect.deleteProperty(navigator, 'wakeLock');
    const none = renderHook(() => useWakeLock(true));
    await flush();
    none.unmount();

    Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request: vi.fn(async () => Promise.reject(new DOMException('refused', 'NotAllowedError'))) } });
    const refused = renderHook(() => useWakeLock(true));
    await flush();
    refused.unmount();
  });
});
