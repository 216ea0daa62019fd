import type { DictItemKey } from '@coalx/shared';
import { count, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { auctions, deals, enterprises, listings } from '../db/schema/index';
import type { DictUsage } from '../modules/system/dict-admin.service';

/**
 * Which records hold the values of which dictionary, so a value in use is never deleted (数据字典): the one place
 * that knows it, reading the other domains' tables. hang_state_total_select is only a search filter (no record
 * holds it); a dictionary not listed here is held by no record.
 */
interface Holder {
  label: string;
  table: PgTable;
  column: AnyPgColumn;
  /** the column holds integers (trade types, hang states): a value that is no integer is held by nothing */
  numeric: boolean;
}

const HOLDERS: Record<string, Holder[]> = {
  trade_type: [
    { label: '挂牌', table: listings, column: listings.tradeType, numeric: true },
    { label: '竞价', table: auctions, column: auctions.tradeType, numeric: true },
    { label: '成交', table: deals, column: deals.tradeType, numeric: true },
  ],
  hang_state_total_trans: [{ label: '挂牌', table: listings, column: listings.hangState, numeric: true }],
  bid_hang_state_hp: [{ label: '竞价', table: auctions, column: auctions.hangState, numeric: true }],
  enterprise_type: [{ label: '企业', table: enterprises, column: enterprises.enterpriseType, numeric: false }],
  enterprise_audit_status: [{ label: '企业', table: enterprises, column: enterprises.auditStatus, numeric: false }],
};

function usedByText(holders: Holder[]): string {
  return `${holders.map((h) => h.label).join('、')}记录`;
}

/** Counts of every held value of every dictionary, for the admin's list. */
export async function dictUsage(db: Db): Promise<DictUsage> {
  const counts = new Map<string, Map<string, number>>();
  const usedBy = new Map<string, string>();
  for (const [code, holders] of Object.entries(HOLDERS)) {
    usedBy.set(code, usedByText(holders));
    const byValue = new Map<string, number>();
    for (const holder of holders) {
      const rows = await db
        .select({ value: holder.column, n: count() })
        .from(holder.table)
        .groupBy(holder.column);
      for (const row of rows) byValue.set(String(row.value), (byValue.get(String(row.value)) ?? 0) + row.n);
    }
    counts.set(code, byValue);
  }
  return { counts, usedBy };
}

/** Records holding one value. */
export async function valueUsage(db: Db, key: DictItemKey): Promise<{ count: number; usedBy: string }> {
  const holders = HOLDERS[key.dictCode] ?? [];
  let total = 0;
  for (const holder of holders) {
    if (holder.numeric && !/^-?\d+$/.test(key.value)) continue;
    const where: SQL = eq(holder.column, holder.numeric ? Number(key.value) : key.value);
    const [row] = await db.select({ n: count() }).from(holder.table).where(where);
    total += row?.n ?? 0;
  }
  return { count: total, usedBy: holders.length ? usedByText(holders) : '记录' };
}
