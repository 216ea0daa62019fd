import { buildApp } from './app';
import { recordNotifyingEvents } from './plugins/notifications';
import { systemClock } from './lib/clock';
import { loadConfig } from './config';
import type { Database } from './db/client';
import { openPglite, openPostgres } from './lib/database';
import { loadDemoData } from './demo/index';
import { readAllButNewest } from './demo/messages';
import { CA_PASSPHRASE_MIN_LENGTH, CA_PASSPHRASE_MISSING, caInDatabase, caSourcesOf, loadPlatformCaFor, PlatformCaError, type PlatformCa } from './modules/ukey/ca';
import { platformCaVerifier } from './modules/ukey/ukey.verifier';
import { seedSystemData } from './flows/seed-system-data';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { loggerOptions } from './lib/log-redaction';
import { ensureAreas } from './modules/area/area.service';
import { DatabaseFileStorage, fileStorageFor, type FileStorage } from './modules/files/storage';
import { demoBiddersJob, ensureLiveDemoAuction } from './demo/auctions';
import type { ScheduledJob } from './plugins/scheduler';
import path from 'node:path';

/** A stopping process exits by then at the latest (orchestrators send SIGKILL at 10 s). */
const SHUTDOWN_DEADLINE_MS = 8_000;

async function main() {
  const config = loadConfig();
  let unlock = () => {};
  try {
    unlock = lockDataDir(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const caSources = caSourcesOf(config);
  if (caInDatabase(config.databaseUrl ? 'postgres' : 'pglite', caSources) && (caSources.passphrase ?? '').length < CA_PASSPHRASE_MIN_LENGTH) {
    // before anything is opened or migrated: the operator sees the one line saying what to set
    console.error(CA_PASSPHRASE_MISSING);
    unlock();
    process.exit(1);
  }

  let database: Database;
  let storage: FileStorage;
  let started: { platformCa: PlatformCa; demoAuction: string | null; demoLoaded?: boolean };
  // how long each start-up step took, in the started log line (a slow start says where its time went)
  const phases: Record<string, number> = {};
  // performance.now() counts from the process's start: the first phase is Node loading the server's code
  let phaseStart = 0;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  phase('loadMs');
  try {
    database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(path.join(config.dataDir, 'pglite'));
    phase('openMs');
    await database.migrate();
    phase('migrateMs');
    // servers started together on one PostgreSQL: one at a time seeds and loads the demo, the rest find it there
    storage = fileStorageFor(database, config.dataDir);
    started = await database.exclusively('startup', async () => {
      await seedSystemData(database.db);
      await ensureAreas(database.db);
      // files this machine kept on disk before they moved to the database (once; the folder stays as a backup)
      if (storage instanceof DatabaseFileStorage) {
        const copied = await (storage as DatabaseFileStorage).importLocalFolder(path.join(config.dataDir, 'files'));
        if (copied) console.warn(`已将 ${copied} 个本机文件 (DATA_DIR/files) 复制到数据库`);
      }
      // made here on the first start; it issues the demo's certificates, and the app is given the same one
      const platformCa = await loadPlatformCaFor(database, caSources);
      if (!config.demoData) return { platformCa, demoAuction: null };
      // the demo's deals, contracts and trucks leave their messages like any others (made once the app runs)
      recordNotifyingEvents(database.db, systemClock);
      const demoLoaded = await loadDemoData(database.db, storage, platformCa);
      // a live auction at every start-up, kept moving by demo bidders for the first minutes
      return { platformCa, demoLoaded, demoAuction: await ensureLiveDemoAuction(database.db, platformCaVerifier(platformCa), new Date()) };
    });
  } catch (err) {
    unlock();
    if (err instanceof PlatformCaError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  phase('seedMs');

  const { platformCa, demoAuction, demoLoaded } = started;
  // exactly one process at a time drives the demo bidders, or every process would bid for them
  const extraJobs: ScheduledJob[] = [];
  const demoLease = demoAuction ? await database.lease('demoBidders') : null;
  if (demoAuction && demoLease) extraJobs.push(demoBiddersJob(Date.now(), demoAuction, demoLease));

  const app = await buildApp({
    config,
    database,
    storage,
    logger: loggerOptions(config.logLevel),
    platformCa,
    extraJobs,
  });
  phase('buildMs');
  if (demoLoaded) {
    // the demo's messages are made now, and its people have read all but the newest few
    while ((await app.notifications.dispatch()).processed > 0);
    await readAllButNewest(database.db);
    phase('demoMessagesMs');
  }
  if (demoLease?.held()) app.log.info({ tradeNo: demoAuction }, '本进程驱动演示竞价');

  let closing = false;
  // SIGTERM (a rolling deploy, docker stop): /trade-api/ready turns 503 at once so the load balancer sends nothing
  // new, then the listener closes, requests in flight are answered, sockets are told to reconnect elsewhere (1012)
  // and the process exits, within SHUTDOWN_DEADLINE_MS whatever the database does meanwhile
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.draining = true;
    app.log.info({ signal }, '正在停止服务');
    const deadline = setTimeout(() => {
      app.log.error({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, '停止超时，强制退出');
      unlock();
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    try {
      await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      await app.close();
      await database.close();
    } catch (err) {
      app.log.error({ err }, '停止服务时出错');
    } finally {
      clearTimeout(deadline);
      unlock();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    app.log.error(err);
    await database.close();
    unlock();
    process.exit(1);
  }
  app.log.info(
    { database: database.kind, dataDir: config.dataDir, startupMs: Math.round(performance.now()), ...phases, listenMs: Math.round(performance.now() - phaseStart) },
    `CoalX 已启动: http://localhost:${config.port}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
