import type { DictItemAddInput, DictItemEditInput, DictItemKey } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import { invalidateWithin } from '../modules/auth/session-cache';
import { deleteDictItem, insertDictItem, updateDictItem } from '../modules/system/dict-admin.service';
import { valueUsage } from '../queries/dict-usage';

/**
 * 数据字典 changes: the item and the dictionary version in one transaction, and the user info every process holds in
 * memory (it carries the version) told at once, so each page reloads its dictionaries.
 */
function changeDictionaries(db: Db, work: (tx: Tx) => Promise<void>): Promise<void> {
  return db.transaction(async (tx) => {
    await work(tx);
    await invalidateWithin(tx, { dict: true });
  });
}

export const addDictItem = (db: Db, input: DictItemAddInput) => changeDictionaries(db, (tx) => insertDictItem(tx, input));

export const editDictItem = (db: Db, input: DictItemEditInput) => changeDictionaries(db, (tx) => updateDictItem(tx, input));

/** Deletes a dictionary item unless records hold its value (then the admin disables it instead). */
export async function removeDictItem(db: Db, key: DictItemKey): Promise<void> {
  const inUse = await valueUsage(db, key);
  await changeDictionaries(db, (tx) => deleteDictItem(tx, key, inUse));
}
