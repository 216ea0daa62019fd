import type { Config } from '../config';
import type { Db } from '../db/client';
import { shanghaiDate } from '../lib/shanghai-time';
import { chainAuditRows } from '../modules/audit/audit-chain';
import { isDaySealed, sealDay } from '../modules/audit/audit-seal';
import type { ScheduledJob } from '../plugins/scheduler';

/** After a failed seal (TSA unreachable) the next attempt waits this long, not one round. */
const SEAL_RETRY_MS = 10 * 60_000;
/** An empty chain (a new database) is looked at again after this long. */
const EMPTY_CHAIN_RETRY_MS = 60_000;
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/**
 * 审计链: every round links the audit rows written since the last one; with TSA_URL, the day's head is sealed once
 * per Asia/Shanghai day, from AUDIT_SEAL_HOUR on (README "审计链").
 */
export function auditJobs(config: Pick<Config, 'tsaUrl' | 'auditSealHour'>): ScheduledJob[] {
  const jobs: ScheduledJob[] = [{ name: 'audit.chain', run: (db) => chainAuditRows(db) }];
  if (config.tsaUrl) jobs.push({ name: 'audit.seal_daily', run: dailySeal(config.tsaUrl, config.auditSealHour) });
  return jobs;
}

function dailySeal(tsaUrl: string, sealHour: number): ScheduledJob['run'] {
  // per database, so the database is asked once a day rather than every round
  const sealedDays = new WeakMap<Db, string>();
  const retryAt = new WeakMap<Db, number>();
  return async (db, now) => {
    const day = shanghaiDate(now);
    if (sealedDays.get(db) === day || now.getTime() < (retryAt.get(db) ?? 0)) return;
    if (new Date(now.getTime() + SHANGHAI_OFFSET_MS).getUTCHours() < sealHour) return;
    try {
      // another process may have sealed the day: one seal a day, whoever makes it
      if ((await isDaySealed(db, now)) || (await sealDay(db, tsaUrl, now)) || (await isDaySealed(db, now))) sealedDays.set(db, day);
      else retryAt.set(db, now.getTime() + EMPTY_CHAIN_RETRY_MS); // nothing to seal yet
    } catch (err) {
      retryAt.set(db, now.getTime() + SEAL_RETRY_MS);
      throw err; // the scheduler logs it
    }
  };
}
