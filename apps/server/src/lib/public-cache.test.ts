import { describe, expect, it } from 'vitest';
import { PublicCache } from './public-cache';

describe('public cache', () => {
  it('serves one load to a burst, expires, invalidates by prefix and stays bounded', async () => {
    const cache = new PublicCache(50, 3);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a:1', load), cache.get('a:1', load)])).toEqual([1, 1]);
    expect(await cache.get('a:1', load)).toBe(1);
    cache.invalidate('a:');
    expect(await cache.get('a:1', load)).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('a:1', load)).toBe(3);
    for (const key of ['b', 'c', 'd', 'e']) await cache.get(key, load);
    expect((cache as unknown as { entries: Map<string, unknown> }).entries.size).toBeLessThanOrEqual(3);
  });
});
