/** Countdown texts of the auction pages (pure, so they are tested alone). */

/** 'HH:MM:SS' (or 'MM:SS' under an hour) of a remaining time, whole seconds rounded up: 0 only when it is over. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** Days + HH:MM:SS of a remaining time; '--:--' when there is no deadline. */
export function countdownText(ms: number | null): string {
  if (ms === null) return '--:--';
  const days = Math.floor(ms / 86_400_000);
  return days > 0 ? `${days} 天 ${formatCountdown(ms - days * 86_400_000)}` : formatCountdown(ms);
}
