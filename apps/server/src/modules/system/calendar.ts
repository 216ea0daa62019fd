import { SYSTEM_PARAMETERS, parameterValueProblem, type SystemParameterCode } from '@coalx/shared';
import { and, eq, gte, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { holidays, systemParameters } from '../../db/schema/index';
import { shanghaiDate, shanghaiDayStart } from '../../lib/shanghai-time';

/** A system parameter's value, or its default when the admin has not set it (or set something unusable). */
export async function parameterNumber(db: Db | Tx, code: SystemParameterCode): Promise<number> {
  return (await parameterIfSet(db, code)) ?? SYSTEM_PARAMETERS[code].default;
}

/** The admin's value of a parameter, or null when not set: for readers whose default comes from elsewhere (config). */
export async function parameterIfSet(db: Db | Tx, code: SystemParameterCode): Promise<number | null> {
  const [row] = await db.select().from(systemParameters).where(eq(systemParameters.code, code)).limit(1);
  const value = row ? Number(row.value) : NaN;
  return row && parameterValueProblem(code, value) === null ? value : null;
}

/**
 * The same for reads on a hot path (the bid rate limit is asked on every bid): kept for a few seconds per database,
 * dropped by this process's own parameter updates at once; another process's update reaches it within the TTL.
 */
const PARAMETER_TTL_MS = 5000;
const parameterMemo = new WeakMap<object, Map<SystemParameterCode, { value: number | null; at: number }>>();
export async function cachedParameterIfSet(db: Db, code: SystemParameterCode): Promise<number | null> {
  let memo = parameterMemo.get(db);
  if (!memo) parameterMemo.set(db, (memo = new Map()));
  const hit = memo.get(code);
  if (hit && Date.now() - hit.at < PARAMETER_TTL_MS) return hit.value;
  const value = await parameterIfSet(db, code);
  memo.set(code, { value, at: Date.now() });
  return value;
}
export function forgetCachedParameters(db: Db) {
  parameterMemo.delete(db);
}

/** Saturday and Sunday are off, except the weekend days listed as worked (调休); listed holidays are off. */
export function isWorkingDay(day: string, exceptions: ReadonlyMap<string, boolean>): boolean {
  const listed = exceptions.get(day);
  if (listed !== undefined) return listed;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * The end (23:59:59.999, Asia/Shanghai) of the Nth working day after the day of `from`: a deal made on Monday has
 * until Tuesday night with one working day, one made on Friday or Saturday until Monday night.
 */
export async function workingDaysDeadline(db: Db | Tx, from: Date, workingDays: number): Promise<Date> {
  const startDay = shanghaiDayStart(from);
  // a year of listed days covers any deadline of up to 60 working days
  const listed = await db
    .select({ day: holidays.day, workday: holidays.workday })
    .from(holidays)
    .where(and(gte(holidays.day, shanghaiDate(startDay)), lte(holidays.day, shanghaiDate(startDay.getTime() + 366 * DAY_MS))));
  const exceptions = new Map(listed.map((h) => [h.day, h.workday]));
  let dayStart = startDay;
  for (let counted = 0; counted < workingDays; ) {
    dayStart = new Date(dayStart.getTime() + DAY_MS);
    if (isWorkingDay(shanghaiDate(dayStart), exceptions)) counted++;
  }
  return new Date(dayStart.getTime() + DAY_MS - 1);
}
