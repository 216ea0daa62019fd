import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { contractForOrder, markContractPerforming } from '../modules/contract/contract.service';
import { startExecution } from '../modules/long-term/lifecycle.service';

/** The framework contract took effect: the deal is in execution and the contract 履行中, in one transaction. */
export async function startLongTermOfContract(db: Db, clock: Clock, contractId: number) {
  const contract = await contractForOrder(db, contractId);
  if (!contract || contract.longTermId === null || contract.status !== 'effective') return false;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const started = await startExecution(tx, contract.longTermId!, now);
    await markContractPerforming(tx, contract.id, now, '长协执行期开始，按月发起调运');
    return started;
  });
}
