import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_PREFIX, PRODUCT_TITLE } from '@coalx/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import areaRoutes from './modules/area/area.routes';
import authRoutes from './modules/auth/auth.routes';
import enterpriseRoutes from './modules/enterprise/enterprise.routes';
import filesRoutes from './modules/files/files.routes';
import fundsRoutes from './modules/funds/funds.routes';
import { listingFollowUps, registerListingJobs } from './modules/listing/listing.jobs';
import { auctionFollowUps } from './modules/auction/auction.jobs';
import listingRoutes from './modules/listing/listing.routes';
import productRoutes from './modules/product/product.routes';
import { registerScheduledJob, startScheduler } from './plugins/scheduler';
import fastifyWebsocket from '@fastify/websocket';
import auctionRoutes from './modules/auction/auction.routes';
import contentRoutes from './modules/content/content.routes';
import homeRoutes from './modules/home/home.routes';
import marketIndexRoutes from './modules/market-index/market-index.routes';
import { PublicCache } from './lib/public-cache';
import { buildSnapshot, personalise } from './modules/auction/auction.service';
import { runAuctionSchedule } from './flows/award-auction';
import { AuctionRooms, pushAuctionEvents } from './plugins/realtime';
import { invalidateOnEvents } from './plugins/public-cache';
import { eventBusOf, listenAcrossProcesses } from './lib/events';
import { LocalFileStorage, type FileStorage } from './modules/files/storage';
import smsRoutes from './modules/sms/sms.routes';
import systemRoutes from './modules/system/system.routes';
import workbenchRoutes from './modules/workbench/workbench.routes';
import authenticate from './plugins/authenticate';
import { errorBody, registerErrorHandling } from './plugins/errors';
import { appError } from './errors';

// Chinese messages for every schema refusal
z.config(z.locales.zhCN());

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
    clock: Clock;
    config: Config;
    storage: FileStorage;
    auctionRooms: AuctionRooms;
    publicCache: PublicCache;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  storage?: FileStorage;
  logger?: FastifyServerOptions['logger'];
}

export const DOCS_PREFIX = `${API_PREFIX}/docs`;
const JSON_BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', options.database.db);
  app.decorate('database', options.database);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('config', options.config);
  // home-page reads: 2 s is short enough for trade states that move with the clock
  app.decorate('publicCache', new PublicCache(options.config.publicCacheMs));
  app.decorate('storage', options.storage ?? new LocalFileStorage(path.join(options.config.dataDir, 'files')));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${PRODUCT_TITLE} API`, version: '0.1.0', description: '所有接口的统一返回格式: { success, code, message, result, timestamp }' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
  await app.register(fastifyRateLimit, { global: false, errorResponseBuilder: () => appError('too_many_requests') });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 5, parts: 6 } });
  await app.register(authenticate);
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  await registerEventListeners(app, options.database);

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(enterpriseRoutes);
      await api.register(filesRoutes);
      await api.register(fundsRoutes);
      await api.register(areaRoutes);
      await api.register(smsRoutes);
      await api.register(productRoutes);
      await api.register(listingRoutes);
      await api.register(auctionRoutes);
      await api.register(marketIndexRoutes);
      await api.register(contentRoutes);
      await api.register(homeRoutes);
      await api.register(workbenchRoutes);
    },
    { prefix: API_PREFIX },
  );

  registerListingJobs();
  registerScheduledJob({ name: 'auction.schedule', run: runAuctionSchedule });
  startScheduler(app, options.config.schedulerIntervalMs);
  await registerWebApp(app, options.config.webDist);
  return app;
}

/**
 * Side effects hang on domain events (lib/events.ts): live auction rooms (fed across processes by PostgreSQL
 * NOTIFY, so every process's watchers hear every bid), public-cache invalidation and the scheduler's follow-ups.
 */
async function registerEventListeners(app: FastifyInstance, database: Database) {
  const bus = eventBusOf(app.db);
  bus.onError = (err, name) => app.log.error({ err, event: name }, 'event listener failed');
  const rooms = new AuctionRooms(async (tradeId) => {
    const base = await buildSnapshot(app.db, app.clock, tradeId);
    return { forEnterprise: (enterpriseId) => personalise(base, enterpriseId) };
  }, app.log);
  app.decorate('auctionRooms', rooms);
  const stopListening = [
    // follow-ups first: the cache is dropped after the state it caches has moved
    ...listingFollowUps(bus, app.db, app.clock),
    ...auctionFollowUps(bus, app.db, app.clock),
    ...pushAuctionEvents(bus, rooms),
    ...invalidateOnEvents(bus, app.publicCache),
  ];
  const unlisten = await listenAcrossProcesses(database, (payload, err) => app.log.warn({ err, payload }, 'bad event notification'));
  const heartbeat = setInterval(() => rooms.heartbeat(), 30_000);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const stop of stopListening) stop();
    rooms.closeAll();
    await unlisten();
  });
}

/** The built React app at /, with index.html for every non-API path (the client router shows /404). */
async function registerWebApp(app: FastifyInstance, webDist: string) {
  const hasBuild = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      // files are looked up per request, so a rebuilt web app is served without a restart
      wildcard: true,
      index: false,
      setHeaders(res, filePath) {
        // hashed asset names never change content
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  if (hasBuild) {
    // the static handler answers a folder with 403; the root is the app like every other page
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(API_PREFIX) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(errorBody(404, 'route_not_found', '接口不存在'));
    }
    // a missing hashed asset is a 404, never index.html served as JavaScript
    if (request.url.startsWith('/assets/')) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!hasBuild) return reply.status(503).type('text/plain; charset=utf-8').send('前端尚未构建，请运行 npm run build');
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
