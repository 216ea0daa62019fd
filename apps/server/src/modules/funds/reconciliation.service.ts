import type { FundsFlowDay, FundsOverview, Reconciliation, ReconciliationDifference, ReconciliationFigures } from '@coalx/shared';
import { formatDateTime } from '@coalx/shared';
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { depositInApplications, fundAccounts, fundJournal, fundsReconciliations, tradeDeposits, withdrawals } from '../../db/schema/index';
import { businessRule } from '../../errors';
import { publish } from '../../lib/events';
import { shanghaiDate } from '../../lib/shanghai-time';
import { enterpriseNames, existingPlatformEnterpriseId } from '../enterprise/enterprise.service';
import { ORDER_ESCROW_REF } from './escrow.service';

/**
 * 资金总览 and the daily funds reconciliation (资金对账). Money enters the platform only by a confirmed 入金 and leaves
 * only by a paid 出金; every other movement (deposits, escrow, settlement, fees, breach compensation) moves money
 * between accounts of the one ledger, the platform's fee account included. So:
 *   Σ accounts (available + frozen) = Σ confirmed 入金 − Σ paid 出金,
 * and each account's journal, replayed from zero, gives its balances (funds/ledger.ts's kinds).
 */

const num = (v: unknown) => Number(v ?? 0);
const SHANGHAI = sql.raw(`'Asia/Shanghai'`);

// ---------- 资金总览 ----------

export async function fundsOverview(db: Db, now: Date): Promise<FundsOverview> {
  const platformId = await existingPlatformEnterpriseId(db);
  const notPlatform = platformId === null ? sql`TRUE` : sql`${fundAccounts.enterpriseId} <> ${platformId}`;
  const [clients] = await db
    .select({
      available: sql<string>`COALESCE(SUM(${fundAccounts.available}), 0)::text`,
      frozen: sql<string>`COALESCE(SUM(${fundAccounts.frozen}), 0)::text`,
      n: sql<string>`COUNT(*)::text`,
    })
    .from(fundAccounts)
    .where(notPlatform);
  const deposits = await db
    .select({ status: tradeDeposits.status, sum: sql<string>`COALESCE(SUM(${tradeDeposits.amount}), 0)::text` })
    .from(tradeDeposits)
    .groupBy(tradeDeposits.status);
  const depositOf = (status: string) => num(deposits.find((d) => d.status === status)?.sum);
  const [escrow] = await db
    .select({
      sum: sql<string>`COALESCE(SUM(CASE ${fundJournal.kind} WHEN 'freeze' THEN ${fundJournal.amount} WHEN 'release' THEN -${fundJournal.amount} WHEN 'pay_out_frozen' THEN -${fundJournal.amount} ELSE 0 END), 0)::text`,
    })
    .from(fundJournal)
    .where(eq(fundJournal.refType, ORDER_ESCROW_REF));
  let platform: FundsOverview['platform'] = null;
  if (platformId !== null) {
    const [account] = await db.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, platformId)).limit(1);
    const [fees] = await db
      .select({ sum: sql<string>`COALESCE(SUM(${fundJournal.amount}), 0)::text` })
      .from(fundJournal)
      .where(and(eq(fundJournal.enterpriseId, platformId), eq(fundJournal.kind, 'credit'), eq(fundJournal.refType, 'settlement_fee')));
    platform = { available: account?.available ?? 0, frozen: account?.frozen ?? 0, feesTotal: num(fees?.sum) };
  }
  const clientFrozen = num(clients?.frozen);
  const tradeDepositsFrozen = depositOf('frozen');
  const performance = depositOf('performance');
  const escrowFen = num(escrow?.sum);
  return {
    clientAvailable: num(clients?.available),
    clientFrozen,
    tradeDeposits: tradeDepositsFrozen,
    performanceDeposits: performance,
    escrow: escrowFen,
    otherFrozen: clientFrozen - tradeDepositsFrozen - performance - escrowFen,
    accountCount: num(clients?.n),
    platform,
    at: formatDateTime(now),
  };
}

const DAY_MS = 86_400_000;
const MAX_FLOW_DAYS = 366;

/** 入金 confirmed and 出金 paid per Asia/Shanghai day, every day of the range (a quiet day is a row of zeros). */
export async function fundsFlows(db: Db, range: { dateFrom: string; dateTo: string }): Promise<FundsFlowDay[]> {
  const from = new Date(`${range.dateFrom}T00:00:00+08:00`);
  const to = new Date(`${range.dateTo}T00:00:00+08:00`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw businessRule('日期格式不正确');
  if (to < from) throw businessRule('结束日期不能早于开始日期');
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  if (days > MAX_FLOW_DAYS) throw businessRule(`查询范围不能超过 ${MAX_FLOW_DAYS} 天`);
  const end = new Date(to.getTime() + DAY_MS);
  const dayOf = (column: typeof depositInApplications.reviewedAt | typeof withdrawals.reviewedAt) => sql<string>`to_char(${column} AT TIME ZONE ${SHANGHAI}, 'YYYY-MM-DD')`;
  const ins = await db
    .select({ day: dayOf(depositInApplications.reviewedAt), sum: sql<string>`SUM(${depositInApplications.amount})::text`, n: sql<string>`COUNT(*)::text` })
    .from(depositInApplications)
    .where(and(eq(depositInApplications.status, 'confirmed'), gte(depositInApplications.reviewedAt, from), lt(depositInApplications.reviewedAt, end)))
    .groupBy(sql`1`);
  const outs = await db
    .select({ day: dayOf(withdrawals.reviewedAt), sum: sql<string>`SUM(${withdrawals.amount})::text`, n: sql<string>`COUNT(*)::text` })
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 'paid'), gte(withdrawals.reviewedAt, from), lt(withdrawals.reviewedAt, end)))
    .groupBy(sql`1`);
  const inBy = new Map(ins.map((r) => [r.day, r]));
  const outBy = new Map(outs.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = shanghaiDate(from.getTime() + i * DAY_MS);
    const depositIn = num(inBy.get(day)?.sum);
    const withdrawal = num(outBy.get(day)?.sum);
    return { day, depositIn, depositInCount: num(inBy.get(day)?.n), withdrawal, withdrawalCount: num(outBy.get(day)?.n), net: depositIn - withdrawal };
  });
}

// ---------- 资金对账 ----------

/** Reads every sum and compares: the identity of all accounts, then each account against its replayed journal. */
export async function reconciliationFigures(db: Db): Promise<ReconciliationFigures> {
  const accounts = await db.select().from(fundAccounts);
  const [ins] = await db
    .select({ sum: sql<string>`COALESCE(SUM(${depositInApplications.amount}), 0)::text` })
    .from(depositInApplications)
    .where(eq(depositInApplications.status, 'confirmed'));
  const [outs] = await db.select({ sum: sql<string>`COALESCE(SUM(${withdrawals.amount}), 0)::text` }).from(withdrawals).where(eq(withdrawals.status, 'paid'));
  // the journal replayed per account with the ledger's effects (funds/ledger.ts)
  const replayed = await db
    .select({
      accountId: fundJournal.accountId,
      available: sql<string>`COALESCE(SUM(CASE ${fundJournal.kind} WHEN 'credit' THEN ${fundJournal.amount} WHEN 'freeze' THEN -${fundJournal.amount} WHEN 'release' THEN ${fundJournal.amount} ELSE 0 END), 0)::text`,
      frozen: sql<string>`COALESCE(SUM(CASE ${fundJournal.kind} WHEN 'freeze' THEN ${fundJournal.amount} WHEN 'release' THEN -${fundJournal.amount} WHEN 'debit_frozen' THEN -${fundJournal.amount} WHEN 'pay_out_frozen' THEN -${fundJournal.amount} ELSE 0 END), 0)::text`,
    })
    .from(fundJournal)
    .groupBy(fundJournal.accountId);
  const replayOf = new Map(replayed.map((r) => [Number(r.accountId), { available: num(r.available), frozen: num(r.frozen) }]));

  const available = accounts.reduce((s, a) => s + a.available, 0);
  const frozen = accounts.reduce((s, a) => s + a.frozen, 0);
  const depositInTotal = num(ins?.sum);
  const withdrawalTotal = num(outs?.sum);
  const expectedTotal = depositInTotal - withdrawalTotal;
  const differences: ReconciliationDifference[] = [];
  if (available + frozen !== expectedTotal) {
    differences.push({ enterpriseId: null, enterpriseName: '全部账户', item: '资金合计（入金 − 出金）', expected: expectedTotal, actual: available + frozen });
  }
  const accountDiffs: Omit<ReconciliationDifference, 'enterpriseName'>[] = [];
  for (const a of accounts) {
    const journal = replayOf.get(a.id) ?? { available: 0, frozen: 0 };
    if (journal.available !== a.available) accountDiffs.push({ enterpriseId: a.enterpriseId, item: '可用资金（流水回放）', expected: journal.available, actual: a.available });
    if (journal.frozen !== a.frozen) accountDiffs.push({ enterpriseId: a.enterpriseId, item: '冻结资金（流水回放）', expected: journal.frozen, actual: a.frozen });
  }
  const names = await enterpriseNames(db, [...new Set(accountDiffs.map((d) => d.enterpriseId!))]);
  for (const d of accountDiffs) differences.push({ ...d, enterpriseName: names.get(d.enterpriseId!) ?? `企业 ${d.enterpriseId}` });
  return { accountCount: accounts.length, available, frozen, accountsTotal: available + frozen, depositInTotal, withdrawalTotal, expectedTotal, differences };
}

type ReconciliationRow = typeof fundsReconciliations.$inferSelect;

function presentReconciliation(row: ReconciliationRow): Reconciliation {
  return { id: row.id, day: row.day, balanced: row.balanced, differenceFen: row.differenceFen, figures: row.figures as unknown as ReconciliationFigures, madeAt: formatDateTime(row.madeAt) };
}

/**
 * Reconciles now and keeps the result as the day's row (Asia/Shanghai; a re-run the same day replaces it). A
 * difference newly found, or a different one, is announced: an urgent to-do for the trading centre.
 */
export async function reconcileFunds(db: Db, now: Date): Promise<Reconciliation> {
  const figures = await reconciliationFigures(db);
  const differenceFen = figures.differences.reduce((s, d) => s + Math.abs(d.actual - d.expected), 0);
  const balanced = figures.differences.length === 0;
  const day = shanghaiDate(now);
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(fundsReconciliations).where(eq(fundsReconciliations.day, day)).for('update').limit(1);
    const values = { day, balanced, differenceFen, figures: figures as unknown as Record<string, unknown>, madeAt: now };
    const [saved] = await tx
      .insert(fundsReconciliations)
      .values(values)
      .onConflictDoUpdate({ target: fundsReconciliations.day, set: { balanced, differenceFen, figures: values.figures, madeAt: now } })
      .returning();
    if (!balanced && (!before || before.balanced || before.differenceFen !== differenceFen)) {
      await publish(tx, 'funds.reconciliation_differs', { id: saved!.id, day });
    }
    return saved!;
  });
  return presentReconciliation(row);
}

export async function reconciliationHistory(db: Db, query: { pageNo: number; pageSize: number }) {
  const [{ total }] = (await db.select({ total: sql<string>`COUNT(*)::text` }).from(fundsReconciliations)) as [{ total: string }];
  const rows = await db
    .select()
    .from(fundsReconciliations)
    .orderBy(desc(fundsReconciliations.day))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: rows.map(presentReconciliation), total: Number(total), current: query.pageNo, size: query.pageSize };
}

export async function reconciliationOfDay(db: Db, day: string): Promise<ReconciliationRow | null> {
  const [row] = await db.select().from(fundsReconciliations).where(eq(fundsReconciliations.day, day)).limit(1);
  return row ?? null;
}
