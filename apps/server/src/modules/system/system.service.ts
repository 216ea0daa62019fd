import { noteAuditChanges } from '../../lib/audit-scope';
import type { DictMap, SystemSwitch } from '@coalx/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dictItems, switches } from '../../db/schema/index';
import { dictionaryVersion } from './dict-admin.service';

// Dictionaries are read by every page load and change only when the admin edits them: kept in memory with the
// version they were read at, re-read when another process's edit bumped the version (one small read per request),
// and at least every minute in case rows were changed outside the admin page.
const DICT_CACHE_MS = 60_000;
const dictCache = new WeakMap<Db, { map: DictMap; version: number; loadedAt: number }>();

export async function getAllDictItems(db: Db): Promise<DictMap> {
  const version = await dictionaryVersion(db);
  const cached = dictCache.get(db);
  if (cached && cached.version === version && Date.now() - cached.loadedAt < DICT_CACHE_MS) return cached.map;
  const map = await readAllDictItems(db);
  dictCache.set(db, { map, version, loadedAt: Date.now() });
  return map;
}

/** Disabled items are served too, marked, so records holding them still read as text; pages offer only enabled ones. */
async function readAllDictItems(db: Db): Promise<DictMap> {
  const rows = await db.select().from(dictItems).orderBy(asc(dictItems.dictCode), asc(dictItems.sort), asc(dictItems.value));
  const map: DictMap = {};
  for (const row of rows) (map[row.dictCode] ??= []).push(row.enabled ? { value: row.value, text: row.text } : { value: row.value, text: row.text, disabled: true });
  return map;
}

export async function listSwitches(db: Db): Promise<SystemSwitch[]> {
  const rows = await db.select().from(switches).orderBy(asc(switches.code));
  return rows.map((r) => ({ code: r.code, content: r.content === '1' ? '1' : '0', remark: r.remark }));
}

/** Sets a switch; returns what it was before (null for an unknown code), for the audit trail's before/after. */
export async function updateSwitch(db: Db, code: string, content: '0' | '1'): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ content: switches.content }).from(switches).where(eq(switches.code, code)).for('update');
    await tx.update(switches).set({ content, updatedAt: new Date() }).where(eq(switches.code, code));
    // the trail keeps the before and after, written with the change
    noteAuditChanges({ [code]: [before?.content ?? null, content] });
  });
}
