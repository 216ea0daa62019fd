import { openPgliteWith, openPostgresWith, type Database, type DbDecorator } from '../db/client';
import { auditedTransactions } from './audit-scope';
import { deliverEventsAfterCommit } from './events';

/** Every database the platform opens: events delivered after commit, and a request's audit row in its transaction. */
const platformDatabase: DbDecorator = (db, options) => auditedTransactions(deliverEventsAfterCommit(db, options));

/** Opens the embedded database: `dataDir` on disk, or in memory (tests). */
export function openPglite(dataDir?: string): Promise<Database> {
  return openPgliteWith(platformDatabase, dataDir);
}

/** Opens a PostgreSQL server's database (NOTIFY carries events to other processes). */
export function openPostgres(url: string, max?: number): Promise<Database> {
  return openPostgresWith(platformDatabase, url, max);
}
