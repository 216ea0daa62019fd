import { registerScheduledJob } from '../plugins/scheduler';
import { autoSignArrived } from '../flows/auto-sign-for';

/** Arrived trucks nobody signed for or disputed within the auto sign-for period count as signed. */
export function registerDeliveryJobs() {
  registerScheduledJob({ name: 'delivery.auto_sign', run: (db, now) => autoSignArrived(db, now) });
}
