import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { contractForOrder } from '../modules/contract/contract.service';
import { terminateForVoidedContract } from '../modules/long-term/lifecycle.service';

/** The framework contract was voided: the deal ends (已终止). */
export async function endLongTermOfVoidedContract(db: Db, clock: Clock, contractId: number) {
  const contract = await contractForOrder(db, contractId);
  if (!contract || contract.longTermId === null || contract.status !== 'voided') return;
  await db.transaction((tx) => terminateForVoidedContract(tx, contract.longTermId!, clock.now(), `框架合同已作废：${contract.voidReason ?? ''}`));
}
