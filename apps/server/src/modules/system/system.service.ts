import type { DictMap, SystemSwitch } from '@coalx/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dictItems, switches } from '../../db/schema/index';

// Dictionaries are read by every page load and change only when the admin edits them: kept in memory, dropped on
// edit, and re-read at least every minute so several processes converge without coordination.
const DICT_CACHE_MS = 60_000;
const dictCache = new WeakMap<Db, { map: DictMap; loadedAt: number }>();

export function invalidateDictCache(db: Db) {
  dictCache.delete(db);
}

export async function getAllDictItems(db: Db): Promise<DictMap> {
  const cached = dictCache.get(db);
  if (cached && Date.now() - cached.loadedAt < DICT_CACHE_MS) return cached.map;
  const map = await readAllDictItems(db);
  dictCache.set(db, { map, loadedAt: Date.now() });
  return map;
}

async function readAllDictItems(db: Db): Promise<DictMap> {
  const rows = await db.select().from(dictItems).orderBy(asc(dictItems.dictCode), asc(dictItems.sort));
  const map: DictMap = {};
  for (const row of rows) (map[row.dictCode] ??= []).push({ value: row.value, text: row.text });
  return map;
}

export async function listSwitches(db: Db): Promise<SystemSwitch[]> {
  const rows = await db.select().from(switches).orderBy(asc(switches.code));
  return rows.map((r) => ({ code: r.code, content: r.content === '1' ? '1' : '0', remark: r.remark }));
}

/** Sets a switch; returns what it was before (null for an unknown code), for the audit trail's before/after. */
export async function updateSwitch(db: Db, code: string, content: '0' | '1'): Promise<string | null> {
  const [before] = await db.select({ content: switches.content }).from(switches).where(eq(switches.code, code));
  await db.update(switches).set({ content, updatedAt: new Date() }).where(eq(switches.code, code));
  return before?.content ?? null;
}
