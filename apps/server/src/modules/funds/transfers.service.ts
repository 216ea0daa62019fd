import { DepositInStates, WithdrawalStates } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { depositInApplications, withdrawals } from '../../db/schema/index';
import { findEnterprise } from '../enterprise/enterprise.service';
import { businessRule } from '../../errors';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { transition } from '../../lib/transition';
import type { Actor } from '../../lib/actor';
import { findStoredFile } from '../files/files.service';
import { move } from './ledger';
import { fundsPolicy } from './funds.policy';
import { verifyPaymentAuth, type UkeyVerifier } from './pay-auth';

/** Money in and out of an enterprise's account: declared transfers in (入金) and withdrawals (出金), each reviewed by the operator. */
const requireEnterprise = (actor: Actor): number => fundsPolicy.can(actor, 'ownAccount');

// ---------- 入金 ----------

/** The voucher must be a file this enterprise uploaded. */
async function assertOwnFile(db: Db, enterpriseId: number, key: string) {
  const file = await findStoredFile(db, key);
  if (!file || file.ownerEnterpriseId !== enterpriseId) throw businessRule('转账凭证无效，请重新上传');
}

export async function applyDepositIn(
  db: Db,
  actor: Actor,
  input: { amount: number; bankName: string; payerAccountNo: string; transferDate: string; voucherUrl: string; remark: string; requestId: string },
) {
  const enterpriseId = requireEnterprise(actor);
  await assertOwnFile(db, enterpriseId, input.voucherUrl);
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(depositInApplications)
      .values({ ...input, enterpriseId, appliedBy: actor.userId })
      .onConflictDoNothing({ target: [depositInApplications.enterpriseId, depositInApplications.requestId] })
      .returning();
    if (row) await publish(tx, 'funds.deposit_in_applied', { id: row.id });
    return row;
  });
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
  // in a transaction: the move and its notifying event (the outbox row) commit together
  return db.transaction((tx) =>
    transition(tx, DepositInStates, 'reject', {
      table: depositInApplications,
      where: eq(depositInApplications.id, id),
      set: { rejectReason: reason, reviewedBy: actor.userId, reviewedAt: clock.now(), updatedAt: clock.now() },
      notFoundMessage: '申请不存在',
    }),
  );
}

// ---------- 出金 ----------

export async function applyWithdrawal(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier,
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
  await verifyPaymentAuth(db, clock, ukey, actor, 'withdrawal', input);
  const enterprise = fundsPolicy.can(actor, 'withdraw', await findEnterprise(db, enterpriseId));
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
    await publish(tx, 'funds.withdrawal_applied', { id: created!.id });
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
