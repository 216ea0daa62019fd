import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { isDatabaseUnavailable } from '../lib/db-errors';

/**
 * Scheduled steps: each is an idempotent SQL update guarded by its own WHERE, safe to run on every process at
 * once and after a restart. They run every `intervalMs`; tests call runScheduledJobs with their own clock.
 */
export type ScheduledJob = { name: string; run: (db: Db, now: Date) => Promise<unknown> };

declare module 'fastify' {
  interface FastifyInstance {
    /** the jobs the app assembled, in the order each round runs them */
    scheduledJobs: readonly ScheduledJob[];
  }
}

/** Apps whose last round found the database away (said once per outage, not once per job and second). */
const awayFor = new WeakSet<FastifyInstance>();

/**
 * One round: every job of the app in turn; a failing job is logged and the next one still runs. A database that is
 * away ends the round: the next rounds try again, and the jobs' own WHERE clauses catch up what is due.
 */
export async function runScheduledJobs(app: FastifyInstance) {
  const now = app.clock.now();
  for (const job of app.scheduledJobs) {
    try {
      await job.run(app.db, now);
    } catch (err) {
      if (isDatabaseUnavailable(err)) {
        if (!awayFor.has(app)) app.log.warn({ job: job.name, err: (err as Error).message }, '数据库不可用，定时任务暂停，恢复后继续');
        awayFor.add(app);
        return;
      }
      app.log.error({ err, job: job.name }, 'scheduled job failed');
    }
  }
  if (awayFor.delete(app)) app.log.info('数据库已恢复，定时任务继续');
}

/** Gives the app its jobs and runs them every `intervalMs` (never when it is 0: tests run rounds themselves). */
export function startScheduler(app: FastifyInstance, jobs: readonly ScheduledJob[], intervalMs: number) {
  const names = new Set(jobs.map((j) => j.name));
  if (names.size !== jobs.length) throw new Error(`scheduled jobs must have distinct names: ${jobs.map((j) => j.name).join(', ')}`);
  app.decorate('scheduledJobs', jobs);
  if (intervalMs <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow round is not overlapped by the next
    running = true;
    void runScheduledJobs(app).finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
