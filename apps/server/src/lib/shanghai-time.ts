/** Calendar arithmetic in Asia/Shanghai (UTC+8, no daylight saving): trading days, numbers and deadlines. */
const OFFSET_MS = 8 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** Midnight of the Shanghai day `now` falls on, moved by `offsetDays`. */
export function shanghaiDayStart(now: Date, offsetDays = 0): Date {
  const local = new Date(now.getTime() + OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - OFFSET_MS + offsetDays * DAY_MS);
}

/** YYYY-MM-DD of the Shanghai day of an instant (a Date or epoch ms). */
export function shanghaiDate(instant: Date | number): string {
  return new Date(new Date(instant).getTime() + OFFSET_MS).toISOString().slice(0, 10);
}
