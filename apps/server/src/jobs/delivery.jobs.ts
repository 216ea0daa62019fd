import type { ScheduledJob } from '../plugins/scheduler';
import { autoSignArrived } from '../flows/auto-sign-for';

/** Arrived trucks nobody signed for or disputed within the auto sign-for period count as signed. */
export const deliveryJobs: ScheduledJob[] = [{ name: 'delivery.auto_sign', run: (db, now) => autoSignArrived(db, now) }];
