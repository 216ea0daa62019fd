import type { Db } from '../db/client';
import { shanghaiDate } from '../lib/shanghai-time';
import { endPassedSuspensions } from '../modules/enterprise/trading-rights.service';
import { reconcileFunds, reconciliationOfDay } from '../modules/funds/reconciliation.service';
import type { ScheduledJob } from '../plugins/scheduler';

/**
 * 资金对账: once per Asia/Shanghai day, on the first round of the day that finds no row for it (the operator's
 * 立即对账 may add more runs the same day, each replacing the day's row).
 */
function dailyReconciliation(): ScheduledJob['run'] {
  // per database, so the database is asked once a day rather than every round
  const doneDays = new WeakMap<Db, string>();
  return async (db, now) => {
    const day = shanghaiDate(now);
    if (doneDays.get(db) === day) return;
    if (!(await reconciliationOfDay(db, day))) await reconcileFunds(db, now);
    doneDays.set(db, day);
  };
}

export const fundsJobs: ScheduledJob[] = [
  { name: 'funds.reconcile_daily', run: dailyReconciliation() },
  // a suspension of trading whose period has passed is marked ended (the trading check already ignores it)
  { name: 'enterprise.end_suspensions', run: (db, now) => endPassedSuspensions(db, now) },
];
