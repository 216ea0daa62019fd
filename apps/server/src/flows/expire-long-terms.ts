import type { Db } from '../db/client';
import { markContractCompleted } from '../modules/contract/contract.service';
import { endedLongTerms, expireLongTerm } from '../modules/long-term/lifecycle.service';

/** Scheduled: deals whose last month is over are 已到期 and their framework contracts 已完成. */
export async function expireLongTerms(db: Db, now: Date): Promise<number> {
  let expired = 0;
  for (const deal of await endedLongTerms(db, now)) {
    await db.transaction(async (tx) => {
      if (!(await expireLongTerm(tx, deal.id, now))) return;
      expired++;
      if (deal.contractId !== null) await markContractCompleted(tx, deal.contractId, now, '长协合同期满');
    });
  }
  return expired;
}
