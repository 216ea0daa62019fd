import { useSyncExternalStore } from 'react';
import { DICTIONARIES, dictText, type DictItem, type DictMap } from '@coalx/shared';
import { getAllDictItems } from '@/services/system';

/**
 * Dictionaries (spec §3): loaded at start and after login, cached in localStorage as `all_dict`. Until the first
 * load answers, the shared catalogue stands in so texts never show raw codes.
 *
 * The cache keeps the server's dictionary version it was loaded at (`all_dict_version`): the user info carries the
 * current one, and a different one reloads the dictionaries (the admin edited them). A signed-in start with a
 * versioned cache therefore waits for the user info instead of loading them again.
 */
export const DICT_STORAGE_KEY = 'all_dict';
export const DICT_VERSION_KEY = 'all_dict_version';

function builtIn(): DictMap {
  return Object.fromEntries(DICTIONARIES.map((d) => [d.code, d.items]));
}

function readCache(): DictMap {
  try {
    const raw = localStorage.getItem(DICT_STORAGE_KEY);
    if (raw) return { ...builtIn(), ...(JSON.parse(raw) as DictMap) };
  } catch {
    // a damaged cache is replaced by the next load
  }
  return builtIn();
}

let dicts: DictMap = readCache();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setDictionaries(next: DictMap) {
  dicts = { ...builtIn(), ...next };
  localStorage.setItem(DICT_STORAGE_KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

/** `version`: the server's dictionary version known when asking (from the user info), stored with the cache. */
export async function loadDictionaries(version?: number): Promise<void> {
  try {
    setDictionaries(await getAllDictItems());
    if (version === undefined) localStorage.removeItem(DICT_VERSION_KEY);
    else localStorage.setItem(DICT_VERSION_KEY, String(version));
  } catch {
    // keep the cached or built-in texts; the next start or login tries again
  }
}

let syncing: Promise<void> | null = null;

/** Reloads the dictionaries when the server's version differs from the one the cache was loaded at. */
export function syncDictionaries(serverVersion: number | undefined): Promise<void> {
  if (serverVersion === undefined || localStorage.getItem(DICT_VERSION_KEY) === String(serverVersion)) return Promise.resolve();
  syncing ??= loadDictionaries(serverVersion).finally(() => (syncing = null));
  return syncing;
}

/** At start: visitors (and a cache of unknown version) load now; a signed-in user's user info decides. */
export function loadDictionariesAtStart(signedIn: boolean): Promise<void> {
  const versioned = localStorage.getItem(DICT_VERSION_KEY) !== null && localStorage.getItem(DICT_STORAGE_KEY) !== null;
  return signedIn && versioned ? Promise.resolve() : loadDictionaries();
}

export function getDictionaries(): DictMap {
  return dicts;
}

/** Text of a dictionary value, e.g. getDictText('trade_type', 0) → '挂牌销售'. */
export function getDictText(code: string, value: string | number | null | undefined): string {
  return dictText(dicts, code, value);
}

export function useDictionaries(): DictMap {
  return useSyncExternalStore(subscribe, getDictionaries, getDictionaries);
}

/** Items to choose from (the admin's disabled ones left out) plus a text lookup of every item, for selects and cells. */
export function useDict(code: string): { items: DictItem[]; text: (value: string | number | null | undefined) => string } {
  const all = useDictionaries();
  return { items: (all[code] ?? []).filter((item) => !item.disabled), text: (value) => dictText(all, code, value) };
}

/** Value enum for ProTable/ProDescriptions columns (valueEnum). */
export function dictValueEnum(code: string, map: DictMap = dicts): Record<string, { text: string }> {
  return Object.fromEntries((map[code] ?? []).map((item) => [item.value, { text: item.text }]));
}
