import { buildApp } from './app';
import { loadConfig } from './config';
import { openPglite, openPostgres, type Database } from './db/client';
import { loadDemoData } from './db/demo-data/index';
import { loadPlatformCa } from './modules/ukey/ca';
import { seedSystemData } from './db/seed';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { ensureAreas } from './modules/area/area.service';
import { LocalFileStorage } from './modules/files/storage';
import { demoBiddersJob, ensureLiveDemoAuction } from './db/demo-data/auctions';
import { registerScheduledJob } from './plugins/scheduler';
import path from 'node:path';

async function main() {
  const startedAt = performance.now();
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

  let database: Database;
  try {
    database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(path.join(config.dataDir, 'pglite'));
    await database.migrate();
    await seedSystemData(database.db);
    await ensureAreas(database.db);
    // demo certificates are issued by the platform CA, made here on the first start
    await loadPlatformCa({ dataDir: config.dataDir, certFile: config.caCertFile, keyFile: config.caKeyFile });
    if (config.demoData) await loadDemoData(database.db, new LocalFileStorage(path.join(config.dataDir, 'files')));
  } catch (err) {
    unlock();
    throw err;
  }

  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-access-token"]', 'req.headers.authorization'],
      serializers: {
        // ?token= of private file links must not reach the logs
        req: (req) => ({ method: req.method, url: req.url.replace(/([?&]token=)[^&]+/, '$1***'), remoteAddress: req.ip }),
      },
    },
  });

  if (config.demoData) {
    // a live auction at every start-up, kept moving by demo bidders for the first minutes
    const demoAuction = await ensureLiveDemoAuction(database.db, new Date());
    registerScheduledJob(demoBiddersJob(Date.now(), demoAuction));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, '正在停止服务');
    try {
      await app.close();
      await database.close();
    } finally {
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
    { database: database.kind, dataDir: config.dataDir, startupMs: Math.round(performance.now() - startedAt) },
    `CoalX 已启动: http://localhost:${config.port}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
