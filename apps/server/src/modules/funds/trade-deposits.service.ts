import { TradeDepositStates, type MoveOf } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { tradeDeposits } from '../../db/schema/index';
import { businessRule } from '../../errors';
import { transition } from '../../lib/transition';
import { move } from './ledger';

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
