import { useEffect, useState } from 'react';
import { COUNTDOWN_TICK_MS } from '@coalx/shared';
import { formatCountdown } from '@/pages/deal/bidding/useAuctionLive';

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

export function countdownText(ms: number | null): string {
  if (ms === null) return '--:--';
  const days = Math.floor(ms / 86_400_000);
  return days > 0 ? `${days} 天 ${formatCountdown(ms - days * 86_400_000)}` : formatCountdown(ms);
}
