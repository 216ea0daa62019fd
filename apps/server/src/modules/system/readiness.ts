import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR } from '../../config';
import type { Database } from '../../db/client';

/** What a stopping process tells the load balancer through /trade-api/ready before it stops taking requests. */
export interface Lifecycle {
  draining: boolean;
}

/** A question to the database that takes longer than this counts as no answer: a load balancer asks every few seconds. */
const PROBE_TIMEOUT_MS = 2_000;

let migrationsInCode: number | null = null;
/** How many migrations this build carries (its journal), read once. */
function migrationCount(): number {
  migrationsInCode ??= (JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  return migrationsInCode;
}

function withinProbeTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Whether the database answers now (health reports it; readiness requires it). */
export async function databaseAnswers(database: Database): Promise<boolean> {
  return withinProbeTime(database.db.execute(sql`SELECT 1`)).then(
    () => true,
    () => false,
  );
}

/**
 * Ready to serve: the database answers, holds every migration this build knows (a node of a newer build waits for
 * its migrations), this process hears the notifications other processes send (a deaf one would serve stale auction
 * states and sessions), and it is not stopping.
 */
export async function readiness(database: Database, lifecycle: Lifecycle) {
  let migrations = false;
  const answers = await databaseAnswers(database);
  if (answers) {
    migrations = await withinProbeTime(database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).then(
      (result) => Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) >= migrationCount(),
      () => false,
    );
  }
  const checks = { database: answers, migrations, notifications: database.listenHealth().listening, draining: lifecycle.draining };
  return { ready: checks.database && checks.migrations && checks.notifications && !checks.draining, checks };
}

/** The reasons a process is not ready, in Chinese, for the 503's message. */
export function notReadyReasons(checks: Awaited<ReturnType<typeof readiness>>['checks']): string[] {
  const reasons: string[] = [];
  if (!checks.database) reasons.push('数据库不可用');
  else if (!checks.migrations) reasons.push('数据库迁移未完成');
  if (!checks.notifications) reasons.push('数据库通知连接中断');
  if (checks.draining) reasons.push('正在停止服务');
  return reasons;
}
