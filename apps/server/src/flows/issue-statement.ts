import { formatFen, formatTons, type StatementView } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { nextTradeNumber } from '../lib/trade-number';
import { findOrder, orderForActor, recordOrderEvent } from '../modules/order/order.service';
import { settlementPolicy } from '../modules/settlement/settlement.policy';
import { insertStatement, present, statementFigures } from '../modules/settlement/settlement.service';

/** 开具结算单: the seller freezes the order's figures into a statement; the order's timeline records it. */
export async function issueStatement(db: Db, clock: Clock, actor: Actor, orderId: number): Promise<StatementView> {
  const { order } = await orderForActor(db, actor, orderId);
  settlementPolicy.can(actor, 'issue', order);
  const row = await db.transaction(async (tx) => {
    const locked = await findOrder(tx, orderId, true);
    const figures = await statementFigures(tx, locked);
    const now = clock.now();
    const made = await insertStatement(tx, {
      statementNo: await nextTradeNumber(tx, 'JS', now),
      orderId,
      sellerEnterpriseId: locked.sellerEnterpriseId,
      buyerEnterpriseId: locked.buyerEnterpriseId,
      amountFen: figures.amountFen,
      escrowFen: figures.escrowFen,
      feeFen: figures.feeFen,
      settledKg: figures.settledKg,
      figures,
      issuedBy: actor.userId,
      issuedByName: actor.username,
      issuedAt: now,
    });
    await publish(tx, 'statement.issued', { id: made.id });
    await recordOrderEvent(tx, { orderId, action: '开具结算单', actor, note: `结算单 ${made.statementNo}：结算 ${formatTons(figures.settledKg)}，金额 ¥${formatFen(figures.amountFen)}`, at: now });
    return made;
  });
  return present(db, row, actor);
}
