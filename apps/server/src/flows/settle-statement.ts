import { StatementStates, isListing, stateLabel } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import type { SettlementStatement } from '../db/schema/index';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { platformEnterpriseId } from '../modules/enterprise/enterprise.service';
import { verifyPaymentAuth, type UkeyVerifier } from '../modules/funds/pay-auth';
import { settleStatementMoney } from '../modules/funds/settlement-money.service';
import { performanceDepositOf } from '../modules/funds/trade-deposits.service';
import { findOrder, markOrderSettled, recordOrderEvent } from '../modules/order/order.service';
import { settlementPolicy } from '../modules/settlement/settlement.policy';
import { STATEMENT_CONFIRM_ACTION, moveStatement, present, statementForActor } from '../modules/settlement/settlement.service';

/**
 * 结算: the buyer confirms the statement, or the operator upholds it over the buyer's dispute. Either way the
 * statement, the money (escrow to the seller, the fee to the centre, performance deposits released) and the order
 * move in one transaction.
 */
/** Moves the statement and its money, then settles the order: one transaction. */
async function settleInTx(tx: Tx, clock: Clock, actor: Actor, row: SettlementStatement, moveName: 'confirm' | 'uphold', set: Partial<SettlementStatement>) {
  const now = clock.now();
  const moved = await moveStatement(tx, row.id, moveName, { ...set, confirmedAt: now, confirmedBy: actor.userId, updatedAt: now });
  const order = await findOrder(tx, row.orderId, true);
  const tradeKind = isListing(order.tradeType) ? 'listing' : 'auction';
  const deposits = await Promise.all(
    [order.sellerEnterpriseId, order.buyerEnterpriseId].map((enterpriseId) => performanceDepositOf(tx, { tradeKind, tradeId: order.tradeNo, enterpriseId })),
  );
  await settleStatementMoney(tx, {
    statementId: row.id,
    statementNo: row.statementNo,
    orderId: order.id,
    orderNo: order.orderNo,
    buyerEnterpriseId: order.buyerEnterpriseId,
    sellerEnterpriseId: order.sellerEnterpriseId,
    platformEnterpriseId: row.feeFen > 0 ? await platformEnterpriseId(tx) : null,
    amountFen: row.amountFen,
    escrowFen: order.escrowFen,
    feeFen: row.feeFen,
    depositIds: deposits.flatMap((d) => (d ? [d.id] : [])),
    createdBy: actor.userId,
  });
  await markOrderSettled(tx, order.id, { statementNo: row.statementNo, settledFen: row.amountFen, at: now, actor });
  return moved;
}

export async function confirmStatement(
  db: Db,
  clock: Clock,
  ukey: UkeyVerifier,
  actor: Actor,
  id: number,
  input: { payPassword?: string; ukeySignature?: string },
) {
  const row = await statementForActor(db, actor, id);
  settlementPolicy.can(actor, 'answer', row);
  if (row.status !== 'pending') throw businessRule(`结算单当前状态为「${stateLabel(StatementStates, row.status)}」，不能确认`);
  await verifyPaymentAuth(db, clock, ukey, actor, STATEMENT_CONFIRM_ACTION, { ...input, statementId: id });
  const moved = await db.transaction((tx) => settleInTx(tx, clock, actor, row, 'confirm', {}));
  return present(db, moved, actor);
}

export async function ruleStatement(db: Db, clock: Clock, actor: Actor, id: number, input: { uphold: boolean; note: string }) {
  settlementPolicy.can(actor, 'rule');
  const row = await statementForActor(db, actor, id);
  const moved = await db.transaction(async (tx) => {
    const now = clock.now();
    await recordOrderEvent(tx, { orderId: row.orderId, action: '结算异议裁定', actor, note: `${input.uphold ? '维持结算单' : '退回卖方重开'}：${input.note}`, at: now });
    if (input.uphold) return settleInTx(tx, clock, actor, row, 'uphold', { rulingNote: input.note });
    return moveStatement(tx, id, 'sendBack', { rulingNote: input.note, updatedAt: now });
  });
  return present(db, moved, actor);
}

