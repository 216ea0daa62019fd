import type { DictAdminList, DictItemAddInput, DictItemEditInput, DictItemKey } from '@coalx/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dictItems, systemMeta } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';

/**
 * 数据字典 (admin). Every change bumps `dict_version` in sys_meta in the same transaction: the server's dictionary
 * cache (system.service.ts) is read again at the new version, and a web holding an older all_dict cache reloads it
 * (the version travels in the user info).
 */
const DICT_VERSION_KEY = 'dict_version';

export async function dictionaryVersion(db: Db | Tx): Promise<number> {
  const [row] = await db.select({ value: systemMeta.value }).from(systemMeta).where(eq(systemMeta.key, DICT_VERSION_KEY)).limit(1);
  const version = row ? Number(row.value) : 1;
  return Number.isInteger(version) ? version : 1;
}

async function bumpDictionaryVersion(tx: Tx): Promise<void> {
  // an installation that never edited starts at 1, so the first edit makes 2
  await tx
    .insert(systemMeta)
    .values({ key: DICT_VERSION_KEY, value: '2' })
    .onConflictDoUpdate({
      target: systemMeta.key,
      set: { value: sql`(CAST(${systemMeta.value} AS integer) + 1)::text`, updatedAt: new Date() },
    });
}

/** Records holding each value: dictCode → value → count, and which records hold the dictionary. */
export interface DictUsage {
  counts: ReadonlyMap<string, ReadonlyMap<string, number>>;
  usedBy: ReadonlyMap<string, string>;
}

export async function listDictionaries(db: Db, usage: DictUsage): Promise<DictAdminList> {
  const rows = await db.select().from(dictItems).orderBy(asc(dictItems.dictCode), asc(dictItems.sort), asc(dictItems.value));
  const dictionaries = new Map<string, DictAdminList['dictionaries'][number]>();
  for (const row of rows) {
    let dictionary = dictionaries.get(row.dictCode);
    if (!dictionary) {
      dictionary = { code: row.dictCode, name: row.dictName, usedBy: usage.usedBy.get(row.dictCode) ?? '', items: [] };
      dictionaries.set(row.dictCode, dictionary);
    }
    dictionary.items.push({
      value: row.value,
      text: row.text,
      sort: row.sort,
      enabled: row.enabled,
      inUse: usage.counts.get(row.dictCode)?.get(row.value) ?? 0,
    });
  }
  return { version: await dictionaryVersion(db), dictionaries: [...dictionaries.values()] };
}

async function findItem(db: Db | Tx, key: DictItemKey) {
  const [row] = await db
    .select()
    .from(dictItems)
    .where(and(eq(dictItems.dictCode, key.dictCode), eq(dictItems.value, key.value)))
    .limit(1);
  return row ?? null;
}

// The writes below run in the caller's transaction (flows/edit-dictionary.ts), which also tells the user-info
// caches of every process that the dictionaries changed.

export async function insertDictItem(tx: Tx, input: DictItemAddInput): Promise<void> {
  // only the dictionaries the platform defines take items: a new code would be read by no page
  const [dictionary] = await tx.select({ name: dictItems.dictName }).from(dictItems).where(eq(dictItems.dictCode, input.dictCode)).limit(1);
  if (!dictionary) throw notFound('数据字典不存在');
  const existing = await findItem(tx, input);
  if (existing) throw businessRule(`字典值「${input.value}」已存在（${existing.text}），请换一个值`);
  await tx.insert(dictItems).values({ dictCode: input.dictCode, dictName: dictionary.name, value: input.value, text: input.text, sort: input.sort });
  await bumpDictionaryVersion(tx);
}

export async function updateDictItem(tx: Tx, input: DictItemEditInput): Promise<void> {
  if (!(await findItem(tx, input))) throw notFound('字典项不存在，请刷新后重试');
  await tx
    .update(dictItems)
    .set({ text: input.text, sort: input.sort, enabled: input.enabled, updatedAt: new Date() })
    .where(and(eq(dictItems.dictCode, input.dictCode), eq(dictItems.value, input.value)));
  await bumpDictionaryVersion(tx);
}

/**
 * Deletes an item no record holds. `inUse` counts the records holding it (flows/dict-usage.ts, which reads the
 * other domains' tables); one that names records is refused, to be disabled instead.
 */
export async function deleteDictItem(tx: Tx, key: DictItemKey, inUse: { count: number; usedBy: string }): Promise<void> {
  const item = await findItem(tx, key);
  if (!item) throw notFound('字典项不存在，请刷新后重试');
  if (inUse.count > 0) {
    throw businessRule(`「${item.text}」已被 ${inUse.count} 条${inUse.usedBy}使用，不能删除，可改为停用`);
  }
  await tx.delete(dictItems).where(and(eq(dictItems.dictCode, key.dictCode), eq(dictItems.value, key.value)));
  await bumpDictionaryVersion(tx);
}
