import type { Database } from '../db/client';
import { loadDemoData } from '../demo/index';
import { seedSystemData } from '../flows/seed-system-data';
import { systemClock } from '../lib/clock';
import { ensureAreas } from '../modules/area/area.service';
import { fileStorageFor } from '../modules/files/storage';
import { loadPlatformCaFor } from '../modules/ukey/ca';
import { recordNotifyingEvents } from '../plugins/notifications';

/**
 * Brings a database to what `npm start` leaves on its first start: migrated, system data, areas, the platform CA
 * (in `dataDir` or the database, or the configured files) and the demo market, whose events wait in the outbox for the server.
 * Answers whether the demo was loaded now (false: it was there already).
 */
export async function prepareDemoDatabase(
  database: Database,
  files: { dataDir: string; caCertFile?: string | null; caKeyFile?: string | null; caKeyPassphrase?: string | null },
  log: (line: string) => void = () => {},
): Promise<boolean> {
  await database.migrate();
  await seedSystemData(database.db);
  await ensureAreas(database.db);
  const ca = await loadPlatformCaFor(database, { dataDir: files.dataDir, certFile: files.caCertFile ?? null, keyFile: files.caKeyFile ?? null, passphrase: files.caKeyPassphrase ?? null });
  recordNotifyingEvents(database.db, systemClock);
  const started = performance.now();
  const loaded = await loadDemoData(database.db, fileStorageFor(database, files.dataDir), ca);
  if (loaded) log(`演示数据已载入 (${Math.round(performance.now() - started)} ms)`);
  return loaded;
}
