import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { recordOrderEvent } from '../modules/order/order.service';
import { settlementPolicy } from '../modules/settlement/settlement.policy';
import { moveStatement, present, statementForActor } from '../modules/settlement/settlement.service';

/** 结算单异议: the buyer disputes the statement; the operator rules on it (settle-statement.ts). */
export async function disputeStatement(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string }) {
  const row = await statementForActor(db, actor, id);
  settlementPolicy.can(actor, 'answer', row);
  const moved = await db.transaction(async (tx) => {
    const now = clock.now();
    const m = await moveStatement(tx, id, 'dispute', { disputeReason: input.reason, updatedAt: now });
    await recordOrderEvent(tx, { orderId: row.orderId, action: '结算单异议', actor, note: `结算单 ${row.statementNo}：${input.reason}`, at: now });
    return m;
  });
  return present(db, moved, actor);
}
