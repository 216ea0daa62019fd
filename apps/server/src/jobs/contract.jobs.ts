import type { ScheduledJob } from '../plugins/scheduler';
import { expireOverdueContracts } from '../modules/contract/contract.service';

/** Contracts past their signing deadline become 逾期未签 on the scheduler's next round. */
export const contractJobs: ScheduledJob[] = [{ name: 'contract.expire', run: (db, now) => expireOverdueContracts(db, now) }];
