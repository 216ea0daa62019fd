import { useSyncExternalStore } from 'react';
import { DICTIONARIES, dictText, type DictItem, type DictMap } from '@coalx/shared';
import { getAllDictItems } from '@/services/system';

/**
 * Dictionaries (spec §3): loaded at start and after login, cached in localStorage as `all_dict`. Until the first
 * load answers, the shared catalogue stands in so texts never show raw codes.
 */
export const DICT_STORAGE_KEY = 'all_dict';

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

export async function loadDictionaries(): Promise<void> {
  try {
    setDictionaries(await getAllDictItems());
  } catch {
    // keep the cached or built-in texts; the next start or login tries again
  }
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

/** Items of one dictionary plus a text lookup, for selects and table cells. */
export function useDict(code: string): { items: DictItem[]; text: (value: string | number | null | undefined) => string } {
  const all = useDictionaries();
  return { items: all[code] ?? [], text: (value) => dictText(all, code, value) };
}

/** Value enum for ProTable/ProDescriptions columns (valueEnum). */
export function dictValueEnum(code: string, map: DictMap = dicts): Record<string, { text: string }> {
  return Object.fromEntries((map[code] ?? []).map((item) => [item.value, { text: item.text }]));
}
