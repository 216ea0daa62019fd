import type { LongTermDetail } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { markContractTerminated } from '../modules/contract/contract.service';
import { checkTerminable, terminateExecution } from '../modules/long-term/lifecycle.service';
import { longTermDetail } from '../modules/long-term/long-term-query.service';
import { longTermPolicy } from '../modules/long-term/long-term.policy';

/**
 * The trading centre ends a deal in execution: pending call-offs are withdrawn and its framework contract is
 * 已终止, in one transaction; call-offs already confirmed keep their own contracts and orders.
 */
export async function terminateLongTerm(db: Db, clock: Clock, actor: Actor, id: number, reason: string): Promise<LongTermDetail> {
  longTermPolicy.can(actor, 'operate');
  const now = clock.now();
  await checkTerminable(db, id);
  await db.transaction(async (tx) => {
    const deal = await terminateExecution(tx, id, now, reason);
    if (deal.contractId !== null) await markContractTerminated(tx, deal.contractId, now, actor, reason);
  });
  return longTermDetail(db, clock, actor, id);
}
