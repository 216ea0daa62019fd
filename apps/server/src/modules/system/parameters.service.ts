import { noteAuditChanges } from '../../lib/audit-scope';
import { forgetCachedParameters } from './calendar';
import {
  SYSTEM_PARAMETERS,
  SYSTEM_PARAMETER_CODES,
  SYSTEM_PARAMETER_ORDER,
  formatDateTime,
  formatParameterValue,
  parameterValueProblem,
  type Holiday,
  type HolidayInput,
  type SystemParameter,
  type SystemParameterCode,
  type SystemParameterDefinition,
} from '@coalx/shared';
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { holidays, systemMeta, systemParameters } from '../../db/schema/index';
import { badRequest, businessRule, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { PRC_HOLIDAYS, PRC_HOLIDAYS_MARKER } from './prc-holidays';

/**
 * 系统参数 (spec §7 "common param"): one row per parameter the admin changed; the rest read as their default
 * (SYSTEM_PARAMETERS). Readers go through calendar.ts parameterNumber, so a value is read when a record is made and
 * a change never rewrites records already made.
 */

/** The value stored, when it is usable; a row that fails its definition (edited by hand) reads as the default. */
function storedValue(code: SystemParameterCode, raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  return parameterValueProblem(code, value) === null ? value : null;
}

export async function listParameters(db: Db): Promise<SystemParameter[]> {
  const rows = new Map((await db.select().from(systemParameters)).map((r) => [r.code, r]));
  return SYSTEM_PARAMETER_CODES.map((code) => {
    const definition: SystemParameterDefinition = SYSTEM_PARAMETERS[code];
    const row = rows.get(code);
    const stored = storedValue(code, row?.value);
    return {
      code,
      label: definition.label,
      group: definition.group,
      unit: definition.unit,
      kind: definition.kind,
      decimals: definition.kind === 'decimal' ? (definition.decimals ?? 0) : definition.kind === 'fen' ? 2 : 0,
      value: stored ?? definition.default,
      default: definition.default,
      min: definition.min,
      max: definition.max,
      remark: definition.remark,
      customized: stored !== null,
      updatedAt: stored !== null && row ? formatDateTime(row.updatedAt) : null,
    };
  });
}

/** The public parameters asked for (GET /sys/common/param?codes=a,b): code → value. */
export async function publicParameters(db: Db, codes: string[]): Promise<Record<string, number>> {
  const wanted = [...new Set(codes)].filter(
    (code): code is SystemParameterCode =>
      Object.hasOwn(SYSTEM_PARAMETERS, code) && (SYSTEM_PARAMETERS[code as SystemParameterCode] as SystemParameterDefinition).public === true,
  );
  if (wanted.length === 0) throw badRequest('没有可公开读取的参数');
  const rows = new Map((await db.select().from(systemParameters).where(inArray(systemParameters.code, wanted))).map((r) => [r.code, r.value]));
  return Object.fromEntries(wanted.map((code) => [code, storedValue(code, rows.get(code)) ?? SYSTEM_PARAMETERS[code].default]));
}

/** Sets one parameter after checking its range, and that ordered pairs (price lower < upper) stay ordered. */
export async function updateParameter(db: Db, clock: Clock, code: SystemParameterCode, value: number): Promise<void> {
  const problem = parameterValueProblem(code, value);
  if (problem) throw badRequest(problem);
  await db.transaction(async (tx) => {
    for (const [lower, upper] of SYSTEM_PARAMETER_ORDER) {
      if (code !== lower && code !== upper) continue;
      const other = code === lower ? upper : lower;
      const [row] = await tx.select().from(systemParameters).where(eq(systemParameters.code, other)).limit(1);
      const otherValue = storedValue(other, row?.value) ?? SYSTEM_PARAMETERS[other].default;
      const [low, high] = code === lower ? [value, otherValue] : [otherValue, value];
      if (low >= high) {
        throw businessRule(
          `${SYSTEM_PARAMETERS[lower].label}须低于${SYSTEM_PARAMETERS[upper].label}（当前${code === lower ? '上限' : '下限'} ${formatParameterValue(other, otherValue)}）`,
        );
      }
    }
    // the trail keeps the value it replaced (the default when the parameter was never set)
    const [before] = await tx.select({ value: systemParameters.value }).from(systemParameters).where(eq(systemParameters.code, code)).limit(1);
    noteAuditChanges({ [code]: [storedValue(code, before?.value) ?? SYSTEM_PARAMETERS[code].default, value] });
    await tx
      .insert(systemParameters)
      .values({ code, value: String(value) })
      .onConflictDoUpdate({ target: systemParameters.code, set: { value: String(value), updatedAt: clock.now() } });
  });
  forgetCachedParameters(db);
}

/* 节假日 (sys_holiday): read by calendar.ts workingDaysDeadline */

export async function listHolidays(db: Db, year: number): Promise<Holiday[]> {
  const rows = await db
    .select({ day: holidays.day, name: holidays.name, workday: holidays.workday })
    .from(holidays)
    .where(and(gte(holidays.day, `${year}-01-01`), lte(holidays.day, `${year}-12-31`)))
    .orderBy(asc(holidays.day));
  return rows;
}

/** Adds days, or changes the name and kind of days already listed (so a corrected notice can be entered again). */
export async function saveHolidays(db: Db, items: HolidayInput[]): Promise<void> {
  const byDay = new Map(items.map((item) => [item.day, item]));
  if (byDay.size !== items.length) throw badRequest('同一日期填写了多次，请检查');
  await db.transaction(async (tx) => {
    for (const item of byDay.values()) {
      await tx
        .insert(holidays)
        .values(item)
        .onConflictDoUpdate({ target: holidays.day, set: { name: item.name, workday: item.workday, updatedAt: new Date() } });
    }
  });
}

export async function deleteHoliday(db: Db, day: string): Promise<void> {
  const deleted = await db.delete(holidays).where(eq(holidays.day, day)).returning({ day: holidays.day });
  if (deleted.length === 0) throw notFound(`${day} 不在节假日列表中，请刷新后重试`);
}

/**
 * The PRC public holidays known at release, inserted once per installation (a marker in sys_meta), so a day the admin
 * deleted does not come back at the next start, and a day the admin entered first is kept as entered.
 */
export async function ensureDefaultHolidays(tx: Db | Tx): Promise<void> {
  const [marker] = await tx.select().from(systemMeta).where(eq(systemMeta.key, PRC_HOLIDAYS_MARKER)).limit(1);
  if (marker) return;
  await tx.insert(holidays).values([...PRC_HOLIDAYS]).onConflictDoNothing();
  await tx.insert(systemMeta).values({ key: PRC_HOLIDAYS_MARKER, value: new Date().toISOString() }).onConflictDoNothing();
}
