import { formatFen, TradeDepositStates, type MoveOf } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import { queryPrepared, type Db, type Tx } from '../../db/client';
import { tradeDeposits } from '../../db/schema/index';
import { appError, businessRule } from '../../errors';
import { transition } from '../../lib/transition';
import { MAX_MOVEMENT_FEN, move } from './ledger';

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

/**
 * Deposits of many subscriptions to one trade, frozen together (group commit): the accounts are locked once, each
 * freeze is judged in order against what the earlier ones left, and all of them are written in one statement.
 * A freeze `hold` refuses leaves no trace, so only its own subscription is refused.
 */
/** The accounts of a batch, locked in id order (two batches never wait on each other in a cycle). */
const LOCK_ACCOUNTS = {
  name: 'coalx_lock_deposit_accounts_v1',
  text: 'SELECT id, enterprise_id, available, frozen FROM fund_account WHERE enterprise_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
};

/** A batch's freezes: the deposit rows, one journal row each (balances after it) and each account's balance. */
const FREEZE_DEPOSITS = {
  name: 'coalx_freeze_deposits_v1',
  text: `
    WITH input AS (
      SELECT * FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[])
        AS i(ord, enterprise_id, account_id, ref_id, amount, available_after, frozen_after, created_by)
    ),
    deposit AS (
      INSERT INTO fund_trade_deposit (enterprise_id, trade_kind, trade_id, ref_id, amount)
      SELECT enterprise_id, $9::text, $10::text, ref_id, amount FROM input ORDER BY ord
      RETURNING id, ref_id
    ),
    journal AS (
      INSERT INTO fund_journal (account_id, enterprise_id, kind, amount, available_after, frozen_after, ref_type, ref_id, idempotency_key, remark, created_by)
      SELECT i.account_id, i.enterprise_id, 'freeze', i.amount, i.available_after, i.frozen_after, 'trade_deposit', d.id::text,
        'trade_deposit:' || d.id || ':freeze', $11::text, i.created_by
      FROM input i JOIN deposit d ON d.ref_id = i.ref_id ORDER BY i.ord
    ),
    account AS (
      UPDATE fund_account f SET available = f.available - t.total, frozen = f.frozen + t.total, updated_at = now()
      FROM (SELECT account_id, sum(amount) AS total FROM input GROUP BY account_id) t WHERE f.id = t.account_id
    )
    SELECT id, ref_id FROM deposit`,
};

export class DepositBatch {
  private readonly left = new Map<number, number>();

  private constructor(private readonly accounts: Map<number, { id: number; available: number; frozen: number }>) {
    for (const [enterpriseId, account] of accounts) this.left.set(enterpriseId, account.available);
  }

  /** Locks the accounts of these enterprises (in id order, so two batches never wait on each other in a cycle). */
  static async lock(tx: Tx, enterpriseIds: readonly number[]) {
    const ids = [...new Set(enterpriseIds)];
    const rows = ids.length ? await queryPrepared<{ id: number; enterprise_id: number; available: number; frozen: number }>(tx, LOCK_ACCOUNTS, [ids]) : [];
    return new DepositBatch(new Map(rows.map((r) => [Number(r.enterprise_id), { id: Number(r.id), available: Number(r.available), frozen: Number(r.frozen) }])));
  }

  /** Judges one freeze as move() would and holds its amount; throws move()'s refusal when the balance is short. */
  hold(enterpriseId: number, amount: number) {
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_MOVEMENT_FEN) {
      throw businessRule('金额须为大于 0 的整数分，且不超过 1000 亿元');
    }
    // an enterprise with no account has nothing available: refused like an empty account
    const left = this.left.get(enterpriseId) ?? 0;
    if (left < amount) throw appError('funds_insufficient', `可用资金不足：需要 ¥${formatFen(amount)}，可用 ¥${formatFen(left)}`);
    this.left.set(enterpriseId, left - amount);
  }

  /**
   * Writes the held freezes, in the order they were held: the deposit rows, one journal row each (with the
   * balances after it) and each account's balance. Answers the deposit ids in the same order.
   */
  async freeze(tx: Tx, tradeKind: 'listing' | 'auction', tradeId: string, items: readonly { enterpriseId: number; refId: string; amount: number; createdBy?: number }[]) {
    if (!items.length) return [];
    const balance = new Map([...this.accounts].map(([enterpriseId, a]) => [enterpriseId, { available: a.available, frozen: a.frozen }]));
    const rows = items.map((item, ord) => {
      const account = balance.get(item.enterpriseId);
      if (!account || account.available < item.amount) throw new Error(`deposit of ${item.refId} was not held`);
      account.available -= item.amount;
      account.frozen += item.amount;
      return { ...item, ord, accountId: this.accounts.get(item.enterpriseId)!.id, availableAfter: account.available, frozenAfter: account.frozen };
    });
    const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
    const written = await queryPrepared<{ id: number | string; ref_id: string }>(tx, FREEZE_DEPOSITS, [
      column((r) => r.ord), column((r) => r.enterpriseId), column((r) => r.accountId), column((r) => r.refId), column((r) => r.amount),
      column((r) => r.availableAfter), column((r) => r.frozenAfter), column((r) => r.createdBy ?? null), tradeKind, tradeId, `交易 ${tradeId} 保证金`,
    ]);
    const idOf = new Map(written.map((r) => [r.ref_id, Number(r.id)]));
    return items.map((item) => idOf.get(item.refId)!);
  }
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

/**
 * A contract voided for this side's breach: its deposit leaves its frozen balance and reaches the other side
 * (both journals show it as 违约划转).
 */
export async function forfeitTradeDeposit(tx: Tx, id: number, payeeEnterpriseId: number, contractNo: string) {
  const deposit = await transitionDeposit(tx, id, 'forfeit');
  if (!deposit) return null;
  if (deposit.enterpriseId === payeeEnterpriseId) throw businessRule('收款方不能是违约方本身');
  await move(tx, {
    enterpriseId: deposit.enterpriseId,
    kind: 'pay_out_frozen',
    amount: deposit.amount,
    refType: 'trade_deposit',
    refId: String(id),
    idempotencyKey: `trade_deposit:${id}:forfeit`,
    remark: `合同 ${contractNo} 违约，履约保证金划转对方`,
  });
  await move(tx, {
    enterpriseId: payeeEnterpriseId,
    kind: 'credit',
    amount: deposit.amount,
    refType: 'breach_compensation',
    refId: String(id),
    idempotencyKey: `trade_deposit:${id}:compensation`,
    remark: `合同 ${contractNo} 对方违约，收到其履约保证金`,
  });
  return deposit;
}

/** The performance deposit (履约保证金) an enterprise holds for a deal, if any: by its subscription or enrolment. */
export async function performanceDepositOf(db: Db | Tx, input: { tradeKind: 'listing' | 'auction'; tradeId: string; enterpriseId: number; refId?: string }) {
  const [row] = await db
    .select({ id: tradeDeposits.id, amount: tradeDeposits.amount })
    .from(tradeDeposits)
    .where(
      and(
        eq(tradeDeposits.tradeKind, input.tradeKind),
        eq(tradeDeposits.tradeId, input.tradeId),
        eq(tradeDeposits.enterpriseId, input.enterpriseId),
        eq(tradeDeposits.status, 'performance'),
        input.refId ? eq(tradeDeposits.refId, input.refId) : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}
