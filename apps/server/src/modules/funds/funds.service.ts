import { formatDateTime } from '@coalx/shared';
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { inIdOrder, listPageIds } from '../../lib/list-page';
import type { Db } from '../../db/client';
import { depositInApplications, fundJournal, tradeDeposits, withdrawals } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { enterpriseNames } from '../enterprise/enterprise.service';
import { fundsPolicy } from './funds.policy';
import { ensureAccount } from './ledger';

// the account's services: transfers in and out, trade deposits and order escrow (imported from here as before)
export * from './transfers.service';
export * from './trade-deposits.service';
export * from './escrow.service';

const requireEnterprise = (actor: Actor): number => fundsPolicy.can(actor, 'ownAccount');

// ---------- lists ----------

type TransferKind = 'deposit_in' | 'withdrawal';

/** An enterprise sees its own applications; the trading centre (enterpriseId null) sees all. */
export async function listTransfers(
  db: Db,
  kind: TransferKind,
  enterpriseId: number | null,
  query: { pageNo: number; pageSize: number; status?: string },
) {
  const table = kind === 'deposit_in' ? depositInApplications : withdrawals;
  const where = and(
    enterpriseId === null ? undefined : eq(table.enterpriseId, enterpriseId),
    query.status ? eq(table.status, query.status) : undefined,
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(table).where(where);
  const rows = await db
    .select()
    .from(table)
    .where(where)
    .orderBy(desc(table.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const names = await enterpriseNames(db, rows.map((row) => row.enterpriseId));
  return {
    records: rows.map((row) => presentTransfer(row, names.get(row.enterpriseId) ?? '')),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}

function presentTransfer(row: Record<string, unknown>, enterpriseName: string) {
  return {
    id: row.id as number,
    enterpriseName,
    amount: row.amount as number,
    bankName: row.bankName as string,
    accountNo: ((row.payerAccountNo ?? row.bankAccountNo) as string) ?? '',
    transferDate: (row.transferDate as string | undefined) ?? null,
    voucherUrl: (row.voucherUrl as string | undefined) ?? null,
    remark: row.remark as string,
    status: row.status as string,
    rejectReason: (row.rejectReason as string | null) ?? null,
    createdAt: formatDateTime(row.createdAt as Date),
    reviewedAt: row.reviewedAt ? formatDateTime(row.reviewedAt as Date) : null,
  };
}

export async function listTradeDeposits(db: Db, actor: Actor, query: { pageNo: number; pageSize: number }) {
  const enterpriseId = requireEnterprise(actor);
  const where = eq(tradeDeposits.enterpriseId, enterpriseId);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(tradeDeposits).where(where);
  const rows = await db.select().from(tradeDeposits).where(where).orderBy(desc(tradeDeposits.id)).limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize);
  return {
    records: rows.map((d) => ({
      id: d.id,
      tradeKind: d.tradeKind,
      tradeId: d.tradeId,
      refId: d.refId,
      amount: d.amount,
      status: d.status,
      createdAt: formatDateTime(d.createdAt),
      updatedAt: formatDateTime(d.updatedAt),
    })),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}

export function journalWhere(enterpriseId: number, query: { kind?: string; dateFrom?: string; dateTo?: string }): SQL | undefined {
  // dates are Shanghai calendar days
  const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);
  const nextDay = (d: string) => new Date(dayStart(d).getTime() + 24 * 3600 * 1000);
  return and(
    eq(fundJournal.enterpriseId, enterpriseId),
    query.kind ? eq(fundJournal.kind, query.kind) : undefined,
    query.dateFrom ? gte(fundJournal.createdAt, dayStart(query.dateFrom)) : undefined,
    query.dateTo ? lt(fundJournal.createdAt, nextDay(query.dateTo)) : undefined,
  );
}

export async function listJournal(
  db: Db,
  actor: Actor,
  query: { pageNo: number; pageSize: number; kind?: string; dateFrom?: string; dateTo?: string },
) {
  const enterpriseId = requireEnterprise(actor);
  const where = journalWhere(enterpriseId, query);
  const { ids, total, totalCapped } = await listPageIds(db, { table: fundJournal, id: fundJournal.id, where, order: [{ key: fundJournal.id, desc: true }], ...query });
  const rows = ids.length ? await db.select().from(fundJournal).where(inArray(fundJournal.id, ids)) : [];
  return { records: inIdOrder(ids, rows).map(presentJournal), total, totalCapped, current: query.pageNo, size: query.pageSize };
}

export function presentJournal(j: typeof fundJournal.$inferSelect) {
  return {
    id: j.id,
    kind: j.kind,
    amount: j.amount,
    availableAfter: j.availableAfter,
    frozenAfter: j.frozenAfter,
    refType: j.refType,
    refId: j.refId,
    remark: j.remark,
    createdAt: formatDateTime(j.createdAt),
  };
}

export async function journalForExport(db: Db, actor: Actor, query: { kind?: string; dateFrom?: string; dateTo?: string }) {
  const enterpriseId = requireEnterprise(actor);
  const EXPORT_LIMIT = 50_000;
  const rows = await db.select().from(fundJournal).where(journalWhere(enterpriseId, query)).orderBy(desc(fundJournal.id)).limit(EXPORT_LIMIT);
  return rows.map(presentJournal);
}
