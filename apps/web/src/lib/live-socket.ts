import { API_PREFIX } from '@coalx/shared';

/**
 * What the live channels (the auction room, the message bell) share: the bits of a WebSocket they use, the
 * reconnect backoff and the socket address under the API prefix. The token is never in the address: each channel
 * sends it as its first message.
 */

/** The bits of a WebSocket the clients use (a fake one drives them in tests). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 15_000;

/**
 * Delay before reconnect attempt `attempt` (0 first): 0.5 s, 1 s, 2 s … capped at 15 s, with "equal jitter" (half
 * fixed, half random) so a server restart is not met by every watcher at the same millisecond.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 20)));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** ws(s)://host/trade-api/ws/<channel>?query, the scheme following the page's. */
export function liveSocketUrl(
  channel: string,
  query: Record<string, string> = {},
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const search = new URLSearchParams(query).toString();
  return `${scheme}://${location.host}${API_PREFIX}/ws/${channel}${search ? `?${search}` : ''}`;
}
