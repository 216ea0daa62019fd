import { useEffect, useState } from 'react';
import { COUNTDOWN_TICK_MS } from '@coalx/shared';

/** Days + HH:MM:SS to a Shanghai wall-clock time ('YYYY-MM-DD HH:mm:ss'), ticking every 1000 ms on the local clock. */
export function useWallCountdown(wall: string | null | undefined, offset = 0): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (!wall) return null;
  const target = Date.parse(`${wall.replace(' ', 'T')}+08:00`);
  return Number.isNaN(target) ? null : Math.max(0, target - (now + offset));
}
