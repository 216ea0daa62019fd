import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';

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

/** One round: every job of the app in turn; a failing job is logged and the next one still runs. */
export async function runScheduledJobs(app: FastifyInstance) {
  const now = app.clock.now();
  for (const job of app.scheduledJobs) {
    try {
      await job.run(app.db, now);
    } catch (err) {
      app.log.error({ err, job: job.name }, 'scheduled job failed');
    }
  }
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
