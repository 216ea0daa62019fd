import { registerScheduledJob } from '../plugins/scheduler';
import { priceAllBegunMonths } from '../modules/long-term/pricing.service';

/** Each month's price is fixed on its first day: the scheduler's round after 00:00 prices the months just begun. */
export function registerLongTermJobs() {
  registerScheduledJob({ name: 'longterm.price', run: (db, now) => priceAllBegunMonths(db, now) });
}
