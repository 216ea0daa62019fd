import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { startSweep } from '../lib/sweep';
import type { FileStorage } from '../modules/files/storage';
import { longTermsWithoutContract, signingLongTerms } from '../modules/long-term/lifecycle.service';
import { endLongTermOfVoidedContract } from './end-voided-long-term';
import { makeFrameworkContract } from './make-long-term-contract';
import { startLongTermOfContract } from './start-long-term';

async function sweep(db: Db, storage: FileStorage, clock: Clock, onError: (err: unknown, id: number) => void) {
  for (const id of await longTermsWithoutContract(db)) await makeFrameworkContract(db, storage, clock, id).catch((err) => onError(err, id));
  for (const deal of await signingLongTerms(db)) {
    if (deal.contractId !== null) await startLongTermOfContract(db, clock, deal.contractId).catch((err) => onError(err, deal.id));
  }
}

/**
 * What follows a long-term deal's framework contract (DESIGN.md §8 "Long-term deals"): it is made when the seller
 * accepts an application, its taking effect starts the deal's execution, its voiding ends the deal (the period's end
 * completing both is the scheduled expire-long-terms.ts). Every step is idempotent and swept every minute, so a crash
 * between two steps is caught up.
 */
export function longTermFollowUps(
  bus: EventBus,
  app: { db: Db; storage: FileStorage; clock: Clock; log: { error(obj: object, msg: string): void } },
  sweepEveryMs = 60_000,
): Array<() => void> {
  const onError = (err: unknown, id: number) => app.log.error({ err, id }, 'long-term follow-up failed');
  const run = () => sweep(app.db, app.storage, app.clock, onError).catch((err) => app.log.error({ err }, 'long-term sweep failed'));
  return [
    bus.on('longterm.accepted', ({ id }) => makeFrameworkContract(app.db, app.storage, app.clock, id).catch((err) => onError(err, id))),
    bus.on('contract.effective', ({ id }) => startLongTermOfContract(app.db, app.clock, id).catch((err) => onError(err, id))),
    bus.on('contract.voided', ({ id }) => endLongTermOfVoidedContract(app.db, app.clock, id).catch((err) => onError(err, id))),
    startSweep(run, sweepEveryMs),
  ];
}
