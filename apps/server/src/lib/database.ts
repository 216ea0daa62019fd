import { openPgliteWith, openPostgresWith, type Database } from '../db/client';
import { deliverEventsAfterCommit } from './events';

/** Opens the embedded database with event delivery after commit: `dataDir` on disk, or in memory (tests). */
export function openPglite(dataDir?: string): Promise<Database> {
  return openPgliteWith(deliverEventsAfterCommit, dataDir);
}

/** Opens a PostgreSQL server's database with event delivery after commit (NOTIFY carries them to other processes). */
export function openPostgres(url: string, max?: number): Promise<Database> {
  return openPostgresWith(deliverEventsAfterCommit, url, max);
}
