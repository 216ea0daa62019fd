import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '@coalx/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { ManualClock } from '../lib/clock';
import webhookRoutes from '../api/webhook.routes';
import webhooks from '../plugins/webhooks';
import { openTestDatabase, type TestDatabaseKind } from './test-app';

export interface WebhookTestApp {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  config: Config;
  /** a new app on the same database and clock (the old one closed first: a restart) */
  restart(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/**
 * An app with the webhook routes and worker, on a fresh test database (test/test-app.ts's settings: deliveries driven
 * by the test, private receivers allowed unless `overrides` say otherwise). The routes and plugin are registered
 * here unless app.ts already does.
 */
export async function createWebhookTestApp(kind: TestDatabaseKind, overrides: Partial<Config> = {}): Promise<WebhookTestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-webhook-test-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    demoData: false,
    loginRateLimit: 1000,
    schedulerIntervalMs: 0,
    deliveryIntervalMs: 0,
    webhookAllowPrivate: true,
    publicCacheMs: 0,
    webDist: path.join(dataDir, 'no-web'),
    // on PostgreSQL the platform CA lives in the database, sealed with this passphrase
    caKeyPassphrase: 'webhook-test-passphrase',
    ...overrides,
  };
  const database = await openTestDatabase(kind);
  const clock = new ManualClock();
  const build = async () => {
    const app = await buildApp({ config, database, clock });
    if (!app.hasRoute({ method: 'GET', url: `${API_PREFIX}/webhook/eventTypes` })) await app.register(webhookRoutes, { prefix: API_PREFIX });
    if (!app.hasDecorator('webhookDeliveries')) await app.register(webhooks);
    await app.ready();
    return app;
  };
  const harness: WebhookTestApp = {
    app: await build(),
    database,
    clock,
    config,
    async restart() {
      await harness.app.close();
      harness.app = await build();
      return harness.app;
    },
    async close() {
      await harness.app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 answering each request with `status()` (200 unless set). */
export async function startReceiver(status: () => number = () => 200) {
  const received: ReceivedRequest[] = [];
  let answer = status;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer(), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/coalx`,
    received,
    answerWith(next: () => number) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
