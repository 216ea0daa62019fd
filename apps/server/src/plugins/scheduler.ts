import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';

/**
 * Scheduled steps: each is an idempotent SQL update guarded by its own WHERE, safe to run on every process at
 * once and after a restart. They run every `intervalMs`; tests call runScheduledJobs with their own clock.
 */
export type ScheduledJob = { name: string; run: (db: Db, now: Date) => Promise<unknown> };

const jobs: ScheduledJob[] = [];
export function registerScheduledJob(job: ScheduledJob) {
  if (!jobs.some((j) => j.name === job.name)) jobs.push(job);
}

export async function runScheduledJobs(app: FastifyInstance) {
  const now = app.clock.now();
  for (const job of jobs) {
    try {
      await job.run(app.db, now);
    } catch (err) {
      app.log.error({ err, job: job.name }, 'scheduled job failed');
    }
  }
}

export function startScheduler(app: FastifyInstance, intervalMs: number) {
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
