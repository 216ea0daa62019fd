import { DepositInStates, formatDateTime, TradeDepositStates, WithdrawalStates, type MoveOf } from '@coalx/shared';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { depositInApplications, enterprises, fileObjects, fundJournal, tradeDeposits, withdrawals } from '../../db/schema/index';
import { businessRule, conflict, forbidden, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { transition } from '../../lib/transition';
import type { Actor } from '../../lib/actor';
import { ensureAccount, move } from './ledger';
import { verifyPaymentAuth } from './pay-auth';

function requireEnterprise(actor: Actor): number {
  if (actor.enterpriseId === null) throw forbidden('只有企业用户可以使用资金账户');
  return actor.enterpriseId;
}

export async function getFundInfo(db: Db, actor: Actor) {
  const enterpriseId = requireEnterprise(actor);
  const account = await ensureAccount(db, enterpriseId);
  const [deposits] = await db
    .select({ sum: sql<string>`COALESCE(SUM(${tradeDeposits.amount}), 0)::text` })
    .from(tradeDeposits)
    .where(and(eq(tradeDeposits.enterpriseId, enterpriseId), sql`${tradeDeposits.status} IN ('frozen', 'performance')`));
  const [pending] = await db
    .select({ sum: sql<string>`COALESCE(SUM(${withdrawals.amount}), 0)::text` })
    .from(withdrawals)
    .where(and(eq(withdrawals.enterpriseId, enterpriseId), eq(withdrawals.status, 'pending')));
  return {
    available: account.available,
    frozen: account.frozen,
    total: account.available + account.frozen,
    depositFrozen: Number(deposits?.sum ?? 0),
    withdrawalFrozen: Number(pending?.sum ?? 0),
  };
}

// ---------- 入金 ----------

/** The voucher must be a file this enterprise uploaded. */
async function assertOwnFile(db: Db, enterpriseId: number, key: string) {
  const [file] = await db.select().from(fileObjects).where(eq(fileObjects.storageKey, key)).limit(1);
  if (!file || file.ownerEnterpriseId !== enterpriseId) throw businessRule('转账凭证无效，请重新上传');
}

export async function applyDepositIn(
  db: Db,
  actor: Actor,
  input: { amount: number; bankName: string; payerAccountNo: string; transferDate: string; voucherUrl: string; remark: string; requestId: string },
) {
  const enterpriseId = requireEnterprise(actor);
  await assertOwnFile(db, enterpriseId, input.voucherUrl);
  const [created] = await db
    .insert(depositInApplications)
    .values({ ...input, enterpriseId, appliedBy: actor.userId })
    .onConflictDoNothing({ target: [depositInApplications.enterpriseId, depositInApplications.requestId] })
    .returning();
  if (created) return created;
  // the same submission again (double click, retry): the first one stands
  const [existing] = await db
    .select()
    .from(depositInApplications)
    .where(and(eq(depositInApplications.enterpriseId, enterpriseId), eq(depositInApplications.requestId, input.requestId)));
  return existing!;
}

export async function confirmDepositIn(db: Db, clock: Clock, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const application = await transition(tx, DepositInStates, 'confirm', {
      table: depositInApplications,
      where: eq(depositInApplications.id, id),
      set: { reviewedBy: actor.userId, reviewedAt: clock.now(), updatedAt: clock.now() },
      notFoundMessage: '申请不存在',
    });
    await move(tx, {
      enterpriseId: application.enterpriseId,
      kind: 'credit',
      amount: application.amount,
      refType: 'deposit_in',
      refId: String(id),
      idempotencyKey: `deposit_in:${id}:confirm`,
      remark: `入金 ${application.bankName}`,
      createdBy: actor.userId,
    });
    return application;
  });
}

export async function rejectDepositIn(db: Db, clock: Clock, actor: Actor, id: number, reason: string) {
  return transition(db, DepositInStates, 'reject', {
    table: depositInApplications,
    where: eq(depositInApplications.id, id),
    set: { rejectReason: reason, reviewedBy: actor.userId, reviewedAt: clock.now(), updatedAt: clock.now() },
    notFoundMessage: '申请不存在',
  });
}

// ---------- 出金 ----------

export async function applyWithdrawal(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { amount: number; remark: string; requestId: string; payPassword?: string; ukeySignature?: string },
) {
  const enterpriseId = requireEnterprise(actor);
  const [previous] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.enterpriseId, enterpriseId), eq(withdrawals.requestId, input.requestId)))
    .limit(1);
  if (previous) return previous;
  await verifyPaymentAuth(db, clock, actor, 'withdrawal', input);
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId)).limit(1);
  if (!enterprise || enterprise.auditStatus !== 'approved') throw forbidden('企业未通过审核，不能出金');
  if (!enterprise.bankAccountNo) throw businessRule('企业尚未登记结算银行账户，请先完善企业信息');
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(withdrawals)
      .values({
        enterpriseId,
        amount: input.amount,
        bankName: enterprise.bankName,
        bankBranch: enterprise.bankBranch,
        bankAccountNo: enterprise.bankAccountNo,
        accountName: enterprise.organName,
        remark: input.remark,
        requestId: input.requestId,
        appliedBy: actor.userId,
      })
      .returning();
    await move(tx, {
      enterpriseId,
      kind: 'freeze',
      amount: input.amount,
      refType: 'withdrawal',
      refId: String(created!.id),
      idempotencyKey: `withdrawal:${created!.id}:freeze`,
      remark: '出金申请冻结',
      createdBy: actor.userId,
    });
    return created!;
  });
}

export async function payWithdrawal(db: Db, clock: Clock, actor: Actor, id: number) {
  return settleWithdrawal(db, clock, actor, id, 'paid');
}

export async function rejectWithdrawal(db: Db, clock: Clock, actor: Actor, id: number, reason: string) {
  return settleWithdrawal(db, clock, actor, id, 'rejected', reason);
}

async function settleWithdrawal(db: Db, clock: Clock, actor: Actor, id: number, outcome: 'paid' | 'rejected', reason?: string) {
  return db.transaction(async (tx) => {
    const withdrawal = await transition(tx, WithdrawalStates, outcome === 'paid' ? 'pay' : 'reject', {
      table: withdrawals,
      where: eq(withdrawals.id, id),
      set: { rejectReason: reason ?? null, reviewedBy: actor.userId, reviewedAt: clock.now(), updatedAt: clock.now() },
      notFoundMessage: '申请不存在',
    });
    await move(tx, {
      enterpriseId: withdrawal.enterpriseId,
      kind: outcome === 'paid' ? 'debit_frozen' : 'release',
      amount: withdrawal.amount,
      refType: 'withdrawal',
      refId: String(id),
      idempotencyKey: `withdrawal:${id}:${outcome}`,
      remark: outcome === 'paid' ? `出金至 ${withdrawal.bankName} ${withdrawal.bankAccountNo.slice(-4)}` : `出金驳回：${reason}`,
      createdBy: actor.userId,
    });
    return withdrawal;
  });
}

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
    .select({ row: table, enterpriseName: enterprises.organName })
    .from(table)
    .innerJoin(enterprises, eq(enterprises.id, table.enterpriseId))
    .where(where)
    .orderBy(desc(table.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return {
    records: rows.map(({ row, enterpriseName }) => presentTransfer(row, enterpriseName)),
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
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(fundJournal).where(where);
  const rows = await db.select().from(fundJournal).where(where).orderBy(desc(fundJournal.id)).limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize);
  return { records: rows.map(presentJournal), total, current: query.pageNo, size: query.pageSize };
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

// ---------- trade deposits: the service the listing and auction work calls, inside its own transaction ----------

export interface FreezeTradeDeposit {
  enterpriseId: number;
  tradeKind: 'listing' | 'auction';
  tradeId: string;
  refId: string;
  amount: number;
  createdBy?: number;
}

/** Freezes the deposit for one subscription or enrolment; a second call for the same ref changes nothing. */
export async function freezeTradeDeposit(tx: Tx, input: FreezeTradeDeposit) {
  const [created] = await tx
    .insert(tradeDeposits)
    .values({ enterpriseId: input.enterpriseId, tradeKind: input.tradeKind, tradeId: input.tradeId, refId: input.refId, amount: input.amount })
    .onConflictDoNothing({ target: [tradeDeposits.tradeKind, tradeDeposits.refId] })
    .returning();
  if (!created) {
    const [existing] = await tx
      .select()
      .from(tradeDeposits)
      .where(and(eq(tradeDeposits.tradeKind, input.tradeKind), eq(tradeDeposits.refId, input.refId)));
    return existing!;
  }
  await move(tx, {
    enterpriseId: input.enterpriseId,
    kind: 'freeze',
    amount: input.amount,
    refType: 'trade_deposit',
    refId: String(created.id),
    idempotencyKey: `trade_deposit:${created.id}:freeze`,
    remark: `交易 ${input.tradeId} 保证金`,
    createdBy: input.createdBy ?? null,
  });
  return created;
}

/** A deposit already in the target state is left alone (null): releasing twice moves no money twice. */
function transitionDeposit(tx: Tx, id: number, move: MoveOf<typeof TradeDepositStates>) {
  return transition(tx, TradeDepositStates, move, {
    table: tradeDeposits,
    where: eq(tradeDeposits.id, id),
    set: { updatedAt: sql`now()` },
    notFoundMessage: '保证金记录不存在',
    idempotent: true,
  });
}

/** Gives a frozen or performance deposit back to the available balance. */
export async function releaseTradeDeposit(tx: Tx, id: number) {
  const deposit = await transitionDeposit(tx, id, 'release');
  if (!deposit) return;
  await move(tx, {
    enterpriseId: deposit.enterpriseId,
    kind: 'release',
    amount: deposit.amount,
    refType: 'trade_deposit',
    refId: String(id),
    idempotencyKey: `trade_deposit:${id}:release`,
    remark: `交易 ${deposit.tradeId} 保证金释放`,
  });
}

/** The winner's deposit stays frozen as a performance deposit (履约保证金). */
export async function convertToPerformanceDeposit(tx: Tx, id: number) {
  await transitionDeposit(tx, id, 'toPerformance');
}

/** Applies a frozen deposit to a payment: it leaves the payer's frozen balance and reaches the payee. */
export async function applyDepositToPayment(tx: Tx, id: number, payeeEnterpriseId: number) {
  const deposit = await transitionDeposit(tx, id, 'apply');
  if (!deposit) return;
  if (deposit.enterpriseId === payeeEnterpriseId) throw businessRule('收款方不能是付款方本身');
  await move(tx, {
    enterpriseId: deposit.enterpriseId,
    kind: 'pay_out_frozen',
    amount: deposit.amount,
    refType: 'trade_deposit',
    refId: String(id),
    idempotencyKey: `trade_deposit:${id}:pay_out`,
    remark: `交易 ${deposit.tradeId} 保证金抵扣货款`,
  });
  await move(tx, {
    enterpriseId: payeeEnterpriseId,
    kind: 'credit',
    amount: deposit.amount,
    refType: 'payment',
    refId: String(id),
    idempotencyKey: `trade_deposit:${id}:receive`,
    remark: `交易 ${deposit.tradeId} 货款 (保证金抵扣)`,
  });
}

