import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { buildApp, type AppOptions } from '../app';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { switches } from '../db/schema/index';
import { openPglite, openPostgres } from '../lib/database';
import { seedSystemData } from '../flows/seed-system-data';
import { ManualClock } from '../lib/clock';
import { createCaFiles } from '../modules/ukey/ca';
import { brokenBidLogs } from './bid-logs';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh database of its own on the PostgreSQL server, so test files never see each other's rows. */
async function openFreshPostgres(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `coalx_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 20);
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A migrated, seeded database. A fresh installation asks the pay password for every money action (SWITCH_DEFAULTS:
 * PayPassword on); test databases turn it off after the seed unless `installationSwitches`, since most suites test
 * trading rules, not the second factor. The factor is tested where money is the point: money-actions.test.ts walks
 * every money route with each switch on and off (and starts from the installation's switches), and the funds, order,
 * listing, ukey and demo suites turn it on themselves.
 */
export async function openTestDatabase(kind: TestDatabaseKind, options: { installationSwitches?: boolean } = {}): Promise<Database> {
  const database = kind === 'postgres' ? await openFreshPostgres() : await openPglite();
  await database.migrate();
  await seedSystemData(database.db);
  if (!options.installationSwitches) await database.db.update(switches).set({ content: '0' }).where(eq(switches.code, 'PayPassword'));
  return database;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

/**
 * One platform CA per test process: every app of a test file (PGlite and PostgreSQL) loads the same CA files, so
 * certificates a test made with one app still chain for another, and the key is made only once.
 */
let testCa: Promise<{ caCertFile: string; caKeyFile: string }> | null = null;
function testCaFiles() {
  return (testCa ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-test-ca-'));
    const files = { caCertFile: path.join(dir, 'ca-cert.pem'), caKeyFile: path.join(dir, 'ca-key.pem') };
    await createCaFiles(files.caCertFile, files.caKeyFile);
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return files;
  })());
}

/** What a test may hand the app instead of the platform's own (a fake sign trust, a failing SMS provider …). */
export type TestAppDeps = Omit<AppOptions, 'config' | 'database' | 'clock' | 'logger'>;

export async function createTestApp(kind: TestDatabaseKind = 'pglite', overrides: Partial<Config> = {}, deps: TestAppDeps = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-test-'));
  const config = { ...loadConfig({}), dataDir, ...(await testCaFiles()), demoData: false, loginRateLimit: 1000, schedulerIntervalMs: 0, deliveryIntervalMs: 0, webhookAllowPrivate: true, publicCacheMs: 0, webDist: path.join(dataDir, 'no-web'), ...overrides };
  const database = await openTestDatabase(kind);
  const clock = new ManualClock();
  const app = await buildApp({ ...deps, config, database, clock });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      // every auction a test made keeps a public bid log that verifies (公开出价记录)
      const broken = await brokenBidLogs(database.db).catch((err: Error) => [`bid logs not checked: ${err.message}`]);
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (broken.length) throw new Error(`broken public bid logs:\n${broken.join('\n')}`);
    },
  };
}
