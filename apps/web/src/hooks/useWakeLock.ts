import { useEffect } from 'react';

/** The part of the Screen Wake Lock API the hook uses (typed here: older TypeScript DOM libraries lack it). */
interface Sentinel {
  readonly released: boolean;
  release(): Promise<void>;
  addEventListener(type: 'release', listener: () => void): void;
}
interface WakeLockLike {
  request(type: 'screen'): Promise<Sentinel>;
}

/**
 * Keeps the screen on while `active` (the auction room: live and the user may bid), where the browser has the Screen
 * Wake Lock API. The browser drops the lock whenever the page is hidden, so it is asked for again when the page is
 * visible; it is released when `active` turns false or the component unmounts. A refusal (battery saver, no user
 * gesture yet, an insecure origin) leaves the page working as before: the lock is a comfort, not a condition.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    const wakeLock = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
    if (!active || !wakeLock) return;
    let sentinel: Sentinel | null = null;
    let stopped = false;
    let pending = false;

    const acquire = async () => {
      if (stopped || pending || document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      pending = true;
      try {
        const lock = await wakeLock.request('screen');
        // unmounted (or no longer live) while the request was on its way: give the lock straight back
        if (stopped) void lock.release().catch(() => undefined);
        else sentinel = lock;
      } catch {
        // refused: the page goes on without it
      } finally {
        pending = false;
      }
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void acquire();
    };

    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release().catch(() => undefined);
      sentinel = null;
    };
  }, [active]);
}
