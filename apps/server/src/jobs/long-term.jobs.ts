import type { ScheduledJob } from '../plugins/scheduler';
import { expireLongTerms } from '../flows/expire-long-terms';
import { priceAllBegunMonths } from '../modules/long-term/pricing.service';

export const longTermJobs: ScheduledJob[] = [
  /** Each month's price is fixed on its first day: the scheduler's round after 00:00 prices the months just begun. */
  { name: 'longterm.price', run: (db, now) => priceAllBegunMonths(db, now) },
  /** Deals whose last month is over are 已到期, their framework contracts 已完成. */
  { name: 'longterm.expire', run: expireLongTerms },
];
