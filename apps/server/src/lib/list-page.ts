import { LIST_COUNT_LIMIT } from '@coalx/shared';
import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/** One key of a list's order: an indexed column or expression, and its direction. */
export interface SortKey {
  key: SQL | PgColumn;
  desc?: boolean;
}

/** What a list page reads: which table, its filter, its order (ending in the id, so the order is total). */
export interface ListPageQuery {
  table: PgTable;
  id: PgColumn;
  where: SQL | undefined;
  order: readonly SortKey[];
  pageNo: number;
  pageSize: number;
}

/**
 * An enterprise sees the rows where it is the seller or the buyer. Each side is read on its own, so each walks its
 * own index in the list's order: a busy enterprise's first page reads a page of each index, not a sort of all its
 * rows. The sides never overlap: an enterprise never trades with itself (the listing, auction and long-term policies
 * refuse their own trades), so the total is the sum of the two.
 */
export interface PartySides {
  enterpriseId: number;
  seller: PgColumn;
  buyer: PgColumn;
}

const direction = (k: SortKey) => (k.desc ? sql.raw('DESC') : sql.raw('ASC'));
const orderBy = (order: readonly SortKey[], named: boolean) =>
  sql.join(
    order.map((k, i) => sql`${named ? sql.raw(`k${i}`) : k.key} ${direction(k)}`),
    sql`, `,
  );

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

function sides(party: PartySides | null, where: SQL | undefined): Array<SQL | undefined> {
  if (!party) return [where];
  return [and(sql`${party.seller} = ${party.enterpriseId}`, where), and(sql`${party.buyer} = ${party.enterpriseId}`, where)];
}


/**
 * The ids of one page and the list's total (counted up to LIST_COUNT_LIMIT). The ids are found first, from the
 * index alone where it covers the filter and the order, and only the page's rows are read afterwards: a deep page
 * skips index entries, not whole rows, and never sorts the table.
 */
export async function listPageIds(
  db: Db,
  q: ListPageQuery,
  party: PartySides | null = null,
): Promise<{ ids: number[]; total: number; totalCapped?: true }> {
  const offset = (q.pageNo - 1) * q.pageSize;
  const parts = sides(party, q.where);
  const keys = sql.join(
    q.order.map((k, i) => sql`${k.key} AS ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const whereOf = (where: SQL | undefined) => (where ? sql`WHERE ${where}` : sql``);
  // each side needs at most offset + pageSize of its own rows for the merged page
  const branch = (where: SQL | undefined) => sql`(SELECT ${q.id} AS id, ${keys} FROM ${q.table} ${whereOf(where)} ORDER BY ${orderBy(q.order, false)} LIMIT ${offset + q.pageSize})`;
  const merged = sql.join(parts.map(branch), sql` UNION ALL `);
  const counted = sql.join(
    parts.map((where) => sql`(SELECT count(*) FROM (SELECT 1 FROM ${q.table} ${whereOf(where)} LIMIT ${LIST_COUNT_LIMIT + 1}) AS side)`),
    sql` + `,
  );
  const [page, totals] = await Promise.all([
    rowsOf<{ id: number | string }>(db, sql`SELECT id FROM (${merged}) AS page ORDER BY ${orderBy(q.order, true)} LIMIT ${q.pageSize} OFFSET ${offset}`),
    rowsOf<{ total: number | string }>(db, sql`SELECT (${counted})::int AS total`),
  ]);
  const total = Number(totals[0]?.total ?? 0);
  const ids = page.map((r) => Number(r.id));
  return total > LIST_COUNT_LIMIT ? { ids, total: LIST_COUNT_LIMIT, totalCapped: true } : { ids, total };
}

/** The rows of `ids`, in the order of `ids`. */
export function inIdOrder<T extends { id: number }>(ids: readonly number[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
