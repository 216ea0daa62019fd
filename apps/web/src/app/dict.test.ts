import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DictMap } from '@coalx/shared';

const getAllDictItems = vi.fn<() => Promise<DictMap>>();
vi.mock('@/services/system', () => ({ getAllDictItems: () => getAllDictItems() }));

const { DICT_STORAGE_KEY, DICT_VERSION_KEY, getDictText, loadDictionaries, loadDictionariesAtStart, syncDictionaries } = await import('./dict');

describe('the all_dict cache and the server dictionary version', () => {
  beforeEach(() => {
    localStorage.clear();
    getAllDictItems.mockReset();
  });

  it('reloads when the user info carries another version, and only then', async () => {
    getAllDictItems.mockResolvedValue({ enterprise_type: [{ value: 'mine', text: '煤矿' }] });
    await loadDictionaries(3);
    expect(localStorage.getItem(DICT_VERSION_KEY)).toBe('3');
    expect(getAllDictItems).toHaveBeenCalledTimes(1);

    await syncDictionaries(3);
    expect(getAllDictItems).toHaveBeenCalledTimes(1);

    getAllDictItems.mockResolvedValue({ enterprise_type: [{ value: 'mine', text: '煤矿企业' }] });
    await syncDictionaries(4);
    expect(getAllDictItems).toHaveBeenCalledTimes(2);
    expect(getDictText('enterprise_type', 'mine')).toBe('煤矿企业');
    expect(localStorage.getItem(DICT_VERSION_KEY)).toBe('4');
    expect(JSON.parse(localStorage.getItem(DICT_STORAGE_KEY)!).enterprise_type[0].text).toBe('煤矿企业');

    // a server without the version (older) changes nothing
    await syncDictionaries(undefined);
    expect(getAllDictItems).toHaveBeenCalledTimes(2);
  });

  it('keeps the old version when the load fails, so the next user info tries again', async () => {
    getAllDictItems.mockResolvedValue({});
    await loadDictionaries(5);
    getAllDictItems.mockRejectedValue(new Error('offline'));
    await syncDictionaries(6);
    expect(localStorage.getItem(DICT_VERSION_KEY)).toBe('5');
  });

  it('at start loads for visitors and for a cache of unknown version; a signed-in versioned cache waits for the user info', async () => {
    getAllDictItems.mockResolvedValue({});
    await loadDictionariesAtStart(false);
    expect(getAllDictItems).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(DICT_VERSION_KEY)).toBeNull();
    await loadDictionariesAtStart(true);
    expect(getAllDictItems).toHaveBeenCalledTimes(2);
    await loadDictionaries(7);
    await loadDictionariesAtStart(true);
    expect(getAllDictItems).toHaveBeenCalledTimes(3);
  });
});
