import type { FastifyInstance } from 'fastify';
import { recordReminders } from '../modules/message/message.service';
import type { ScheduledJob } from '../plugins/scheduler';
import { REMINDERS } from '../queries/notices/index';

/**
 * The reminders (issue 28): each round records what has come due (a contract 4 hours before its deadline, an auction
 * 30 and 5 minutes before bidding starts …) as notifying events, each once by its key, on every process and after
 * any restart; the dispatcher then makes the messages.
 */
export function messageJobs(app: FastifyInstance): ScheduledJob[] {
  return [
    {
      name: 'message.reminders',
      async run(db, now) {
        let recorded = 0;
        for (const reminder of REMINDERS) recorded += await recordReminders(db, reminder.name, await reminder.due(db, now), now);
        if (recorded > 0) app.notifications.kick();
        return recorded;
      },
    },
  ];
}
