import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { fundAccounts, fundJournal } from '../../db/schema/index';
import { appError, businessRule } from '../../errors';
import { formatFen } from '@coalx/shared';

/**
 * The one place balances move. Each movement is one conditional UPDATE of the account (so concurrent movements
 * can never take a balance below zero, even without a lock) and one journal row with the balances after it, in
 * the caller's transaction. The journal's unique idempotency key makes a replay move nothing.
 *
 *   kind            available   frozen    e.g.
 *   credit          +a                    入金 confirmed, payment received
 *   freeze          -a          +a        deposit frozen, withdrawal applied
 *   release         +a          -a        deposit released, withdrawal rejected
 *   debit_frozen                -a        withdrawal paid out to the bank
 *   pay_out_frozen              -a        frozen deposit applied to a payment (paired with the payee's credit)
 */
export type MovementKind = 'credit' | 'freeze' | 'release' | 'debit_frozen' | 'pay_out_frozen';

const EFFECTS: Record<MovementKind, { available: -1 | 0 | 1; frozen: -1 | 0 | 1 }> = {
  credit: { available: 1, frozen: 0 },
  freeze: { available: -1, frozen: 1 },
  release: { available: 1, frozen: -1 },
  debit_frozen: { available: 0, frozen: -1 },
  pay_out_frozen: { available: 0, frozen: -1 },
};

/** Largest single movement: 100 billion yuan, far above any coal trade, far below 2^53 fen. */
export const MAX_MOVEMENT_FEN = 10_000_000_000_000;

export interface Movement {
  enterpriseId: number;
  kind: MovementKind;
  amount: number;
  refType: string;
  refId: string;
  idempotencyKey: string;
  remark?: string;
  createdBy?: number | null;
}

export interface MovementResult {
  replayed: boolean;
  availableAfter: number;
  frozenAfter: number;
  journalId: number;
}

export async function ensureAccount(tx: Tx | Db, enterpriseId: number) {
  const [existing] = await tx.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, enterpriseId)).limit(1);
  if (existing) return existing;
  await tx.insert(fundAccounts).values({ enterpriseId }).onConflictDoNothing();
  const [account] = await tx.select().from(fundAccounts).where(eq(fundAccounts.enterpriseId, enterpriseId)).limit(1);
  return account!;
}

export async function move(tx: Tx, m: Movement): Promise<MovementResult> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0 || m.amount > MAX_MOVEMENT_FEN) {
    throw businessRule('金额须为大于 0 的整数分，且不超过 1000 亿元');
  }
  const [previous] = await tx.select().from(fundJournal).where(eq(fundJournal.idempotencyKey, m.idempotencyKey)).limit(1);
  if (previous) {
    if (previous.enterpriseId !== m.enterpriseId || previous.kind !== m.kind || previous.amount !== m.amount) {
      throw appError('conflict', '重复的请求编号，且内容与原请求不一致');
    }
    return { replayed: true, availableAfter: previous.availableAfter, frozenAfter: previous.frozenAfter, journalId: previous.id };
  }
  const account = await ensureAccount(tx, m.enterpriseId);
  const effect = EFFECTS[m.kind];
  const needsAvailable = effect.available < 0;
  const needsFrozen = effect.frozen < 0;
  const [updated] = await tx
    .update(fundAccounts)
    .set({
      available: sql`${fundAccounts.available} + ${effect.available * m.amount}`,
      frozen: sql`${fundAccounts.frozen} + ${effect.frozen * m.amount}`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(fundAccounts.id, account.id),
        needsAvailable ? gte(fundAccounts.available, m.amount) : undefined,
        needsFrozen ? gte(fundAccounts.frozen, m.amount) : undefined,
      ),
    )
    .returning({ available: fundAccounts.available, frozen: fundAccounts.frozen });
  if (!updated) {
    if (needsAvailable) {
      const [current] = await tx.select().from(fundAccounts).where(eq(fundAccounts.id, account.id));
      throw appError('funds_insufficient', `可用资金不足：需要 ¥${formatFen(m.amount)}，可用 ¥${formatFen(current?.available ?? 0)}`);
    }
    throw appError('frozen_insufficient');
  }
  const [row] = await tx
    .insert(fundJournal)
    .values({
      accountId: account.id,
      enterpriseId: m.enterpriseId,
      kind: m.kind,
      amount: m.amount,
      availableAfter: updated.available,
      frozenAfter: updated.frozen,
      refType: m.refType,
      refId: m.refId,
      idempotencyKey: m.idempotencyKey,
      remark: m.remark ?? '',
      createdBy: m.createdBy ?? null,
    })
    .returning({ id: fundJournal.id });
  return { replayed: false, availableAfter: updated.available, frozenAfter: updated.frozen, journalId: row!.id };
}

/** Σ of the journal's effects per account, beside the stored balances: they must agree. */
export async function reconcile(db: Db | Tx) {
  const result = await db.execute(sql`
    SELECT a.enterprise_id, a.available::text, a.frozen::text,
      COALESCE(SUM(CASE j.kind WHEN 'credit' THEN j.amount WHEN 'freeze' THEN -j.amount WHEN 'release' THEN j.amount ELSE 0 END), 0)::text AS journal_available,
      COALESCE(SUM(CASE j.kind WHEN 'freeze' THEN j.amount WHEN 'release' THEN -j.amount WHEN 'debit_frozen' THEN -j.amount WHEN 'pay_out_frozen' THEN -j.amount ELSE 0 END), 0)::text AS journal_frozen
    FROM fund_account a LEFT JOIN fund_journal j ON j.account_id = a.id
    GROUP BY a.id, a.enterprise_id, a.available, a.frozen`);
  // PGlite and node-postgres both answer with { rows }
  const list = (result as unknown as { rows: unknown[] }).rows;
  return (list as { enterprise_id: number; available: string; frozen: string; journal_available: string; journal_frozen: string }[]).map((r) => ({
    enterpriseId: Number(r.enterprise_id),
    available: Number(r.available),
    frozen: Number(r.frozen),
    journalAvailable: Number(r.journal_available),
    journalFrozen: Number(r.journal_frozen),
    balanced: r.available === r.journal_available && r.frozen === r.journal_frozen,
  }));
}
