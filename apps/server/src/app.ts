import { bidsSettled, forgetAuctionStates } from './flows/place-bid';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_PREFIX, PRODUCT_TITLE, chineseIssueMessage } from '@coalx/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import areaRoutes from './api/area.routes';
import authRoutes from './api/auth.routes';
import usersAdminRoutes from './api/users-admin.routes';
import enterpriseRoutes from './api/enterprise.routes';
import filesRoutes from './api/files.routes';
import fundsRoutes from './api/funds.routes';
import { listingFollowUps, listingJobs } from './jobs/listing.jobs';
import { contractJobs } from './jobs/contract.jobs';
import { contractFollowUps } from './flows/make-contract';
import { orderFollowUps } from './flows/make-order';
import { auctionFollowUps, auctionJobs } from './jobs/auction.jobs';
import listingRoutes from './api/listing.routes';
import productRoutes from './api/product.routes';
import { startScheduler, type ScheduledJob } from './plugins/scheduler';
import fastifyWebsocket from '@fastify/websocket';
import auctionRoutes from './api/auction.routes';
import monitorRoutes from './api/monitor.routes';
import contentRoutes from './api/content.routes';
import homeRoutes from './api/home.routes';
import marketIndexRoutes from './api/market-index.routes';
import { PublicCache } from './lib/public-cache';
import { buildSnapshot } from './modules/auction/auction.service';
import metrics from './plugins/metrics';
import type { Lifecycle } from './modules/system/readiness';
import { AuctionRooms, BoardFeed, pushAuctionEvents, pushBoardEvents } from './plugins/realtime';
import { invalidateOnEvents } from './plugins/public-cache';
import { eventBusOf, listenAcrossProcesses } from './lib/events';
import { fileStorageFor, type FileStorage } from './modules/files/storage';
import { platformSignTrust } from './modules/sign/platform-trust';
import type { VerificationReference } from './modules/sign/sign.service';
import type { SignTrust } from './modules/sign/sign.trust';
import { contractReference } from './modules/contract/contract.service';
import signRoutes from './api/sign.routes';
import smsRoutes from './api/sms.routes';
import type { SmsProvider } from './modules/sms/sms.provider';
import { smsProviderFromConfig } from './modules/sms/aliyun.provider';
import messageDeliveries, { kickMessageDeliveries } from './plugins/message-deliveries';
import systemRoutes from './api/system.routes';
import dictAdminRoutes from './api/dict-admin.routes';
import parametersRoutes from './api/parameters.routes';
import type { UkeyVerifier } from './modules/funds/pay-auth';
import { caSourcesOf, loadPlatformCaFor, type PlatformCa } from './modules/ukey/ca';
import { fileLinkKeyFor } from './modules/system/platform-secret.service';
import ukeyRoutes from './api/ukey.routes';
import { platformCaVerifier } from './modules/ukey/ukey.verifier';
import workbenchRoutes from './api/workbench.routes';
import contractRoutes from './api/contract.routes';
import settlementRoutes from './api/settlement.routes';
import driverRoutes from './api/driver.routes';
import orderRoutes from './api/order.routes';
import deliveryRoutes from './api/delivery.routes';
import gatePassRoutes from './api/gate-pass.routes';
import invoiceRoutes from './api/invoice.routes';
import freightRoutes from './api/freight.routes';
import longTermRoutes from './api/long-term.routes';
import { longTermJobs } from './jobs/long-term.jobs';
import { longTermFollowUps } from './flows/long-term-follow-ups';
import { deliveryJobs } from './jobs/delivery.jobs';
import { auditJobs } from './jobs/audit.jobs';
import { fundsJobs } from './jobs/funds.jobs';
import operationEnterprisesRoutes from './api/operation-enterprises.routes';
import operationFundsRoutes from './api/operation-funds.routes';
import { messageJobs } from './jobs/message.jobs';
import { statisticsJobs } from './jobs/statistics.jobs';
import contractTemplateRoutes from './api/contract-template.routes';
import auditTrail from './plugins/audit-trail';
import auditRoutes from './api/audit.routes';
import statisticsRoutes from './api/statistics.routes';
import authenticate from './plugins/authenticate';
import firstLoginGuard from './plugins/first-login';
import grantsGuard from './plugins/grants';
import rolesAdminRoutes from './api/roles-admin.routes';
import messageRoutes from './api/message.routes';
import notifications from './plugins/notifications';
import webhookRoutes from './api/webhook.routes';
import webhooks, { kickWebhookDeliveries } from './plugins/webhooks';
import { recordReminders } from './modules/message/message.service';
import type { WebhookEndpoint } from './db/schema/index';
import { errorBody, registerErrorHandling } from './plugins/errors';
import { FileLinks } from './lib/file-links';
import { appError } from './errors';

// Chinese messages for every schema refusal, with no English type or field names
z.config({ customError: chineseIssueMessage });

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
    clock: Clock;
    config: Config;
    storage: FileStorage;
    auctionRooms: AuctionRooms;
    boardFeed: BoardFeed;
    publicCache: PublicCache;
    /** Set when the process is stopping: /trade-api/ready answers 503 so the load balancer sends nothing new. */
    lifecycle: Lifecycle;
    smsProvider: SmsProvider;
    platformCa: PlatformCa;
    ukeyVerifier: UkeyVerifier;
    signTrust: SignTrust;
    verificationReference: VerificationReference;
    fileLinks: FileLinks;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  storage?: FileStorage;
  /** delivers the text messages (default: the back office's outbox) */
  smsProvider?: SmsProvider;
  /** the CA that issues and checks key-device certificates (default: read from the config's files, made on the first start) */
  platformCa?: PlatformCa;
  /** checks key-device signatures in front of payments (default: the platform CA's verifier) */
  ukeyVerifier?: UkeyVerifier;
  /** what PDF signing trusts (default: the platform CA and its key devices) */
  signTrust?: SignTrust;
  /** finds a document number for the public signature verification (default: the contracts) */
  verificationReference?: VerificationReference;
  logger?: FastifyServerOptions['logger'];
  /** run by the scheduler after the platform's own jobs (main.ts: the demo bidders) */
  extraJobs?: ScheduledJob[];
}

/** What the scheduler runs each round, in this order. */
const PLATFORM_JOBS: readonly ScheduledJob[] = [...listingJobs, ...contractJobs, ...deliveryJobs, ...longTermJobs, ...auctionJobs, ...fundsJobs];

export const DOCS_PREFIX = `${API_PREFIX}/docs`;
const JSON_BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    // the client's address (rate limits, sessions, the audit log) from the named proxies' X-Forwarded-For only
    trustProxy: options.config.trustProxy,
    genReqId: () => randomUUID(),
    // a URL the router cannot decode is the client's mistake, answered in the envelope like every other refusal
    // (its answer skips the onSend hooks: the security headers are set here)
    frameworkErrors: (_error, _request, reply) =>
      withSecurityHeaders(reply as import('fastify').FastifyReply).status(400).send(errorBody(400, 'validation_failed', '请求地址格式不正确')),
    clientErrorHandler: answerUnparsableRequest,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', options.database.db);
  app.decorate('database', options.database);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('config', options.config);
  // home-page reads: 2 s is short enough for trade states that move with the clock
  app.decorate('publicCache', new PublicCache(options.config.publicCacheMs));
  app.decorate('lifecycle', { draining: false } satisfies Lifecycle);
  app.decorate('storage', options.storage ?? fileStorageFor(options.database, options.config.dataDir));
  app.decorate('smsProvider', options.smsProvider ?? smsProviderFromConfig(options.config));
  app.decorate('fileLinks', new FileLinks(await fileLinkKeyFor(options.database, { dataDir: options.config.dataDir, keyFile: options.config.fileLinkKeyFile })));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // every answer: API, pages, assets, files, errors and 404s (the file routes and pages set their own CSP first)
    withSecurityHeaders(reply, request.url.startsWith(DOCS_PREFIX) ? DOCS_CONTENT_SECURITY_POLICY : DEFAULT_CONTENT_SECURITY_POLICY);
  });

  registerErrorHandling(app);
  const platformCa = options.platformCa ?? (await loadPlatformCaFor(options.database, caSourcesOf(options.config)));
  app.decorate('platformCa', platformCa);
  app.decorate('ukeyVerifier', options.ukeyVerifier ?? platformCaVerifier(platformCa));
  app.decorate('signTrust', options.signTrust ?? platformSignTrust(platformCa));
  app.decorate('verificationReference', options.verificationReference ?? contractReference);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${PRODUCT_TITLE} API`, version: '0.1.0', description: '所有接口的统一返回格式: { success, code, message, result, timestamp }' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' } } },
      security: [{ token: [] }],
    },
    // each operation says what it needs (plugins/grants.ts): public, self, or the menu item and action
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const permission = input.route.config?.permission;
      return permission === undefined ? transformed : { ...transformed, schema: { ...transformed.schema, 'x-permission': permission } as typeof transformed.schema };
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
  await app.register(fastifyRateLimit, { global: false, errorResponseBuilder: () => appError('too_many_requests') });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 5, parts: 6 } });
  await app.register(authenticate);
  await app.register(firstLoginGuard);
  // before the routes, so it sees every route's `config.audit` label
  await app.register(auditTrail);
  await app.register(grantsGuard);
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  await registerEventListeners(app, options.database);
  await registerNotifications(app);
  await app.register(metrics, { token: options.config.metricsToken });

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(dictAdminRoutes);
      await api.register(parametersRoutes);
      await api.register(authRoutes);
      await api.register(rolesAdminRoutes);
      await api.register(usersAdminRoutes);
      await api.register(enterpriseRoutes);
      await api.register(filesRoutes);
      await api.register(fundsRoutes);
      await api.register(areaRoutes);
      await api.register(smsRoutes);
      await api.register(productRoutes);
      await api.register(listingRoutes);
      await api.register(auctionRoutes);
      await api.register(monitorRoutes);
      await api.register(marketIndexRoutes);
      await api.register(contentRoutes);
      await api.register(homeRoutes);
      await api.register(signRoutes);
      await api.register(ukeyRoutes);
      await api.register(workbenchRoutes);
      await api.register(contractRoutes);
      await api.register(settlementRoutes);
      await api.register(orderRoutes);
      await api.register(deliveryRoutes);
      await api.register(gatePassRoutes);
      await api.register(invoiceRoutes);
      await api.register(freightRoutes);
      await api.register(longTermRoutes);
      await api.register(contractTemplateRoutes);
      await api.register(auditRoutes);
      await api.register(statisticsRoutes);
      await api.register(driverRoutes);
      await api.register(messageRoutes);
      await api.register(webhookRoutes);
      await api.register(operationEnterprisesRoutes);
      await api.register(operationFundsRoutes);
    },
    { prefix: API_PREFIX },
  );

  startScheduler(app, [...PLATFORM_JOBS, ...messageJobs(app), ...auditJobs(options.config), ...statisticsJobs(app.storage), ...(options.extraJobs ?? [])], options.config.schedulerIntervalMs);
  await registerWebApp(app, options.config.webDist);
  return app;
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, malformed request line): the
 * envelope is written on the socket itself.
 */
function answerUnparsableRequest(err: NodeJS.ErrnoException, socket: import('node:net').Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', '请求头过大']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', '请求超时，请重试']
        : [400, 'Bad Request', '请求格式不正确'];
  const body = JSON.stringify(errorBody(status, status === 431 ? 'body_too_large' : 'validation_failed', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${[...SECURITY_HEADERS, ['content-security-policy', DEFAULT_CONTENT_SECURITY_POLICY]].map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Side effects hang on domain events (lib/events.ts): live auction rooms (fed across processes by PostgreSQL
 * NOTIFY, so every process's watchers hear every bid), public-cache invalidation and the scheduler's follow-ups.
 */
async function registerEventListeners(app: FastifyInstance, database: Database) {
  const bus = eventBusOf(app.db);
  bus.onError = (err, name) => app.log.error({ err, event: name }, 'event listener failed');
  const rooms = new AuctionRooms(
    {
      // one consistent read: the cached snapshot's bid count must match its bids for the next bid to apply
      build: (tradeId) => app.db.transaction((tx) => buildSnapshot(tx, app.clock, tradeId), { isolationLevel: 'repeatable read', accessMode: 'read only' }),
      now: () => app.clock.now(),
    },
    app.log,
  );
  app.decorate('auctionRooms', rooms);
  const boardFeed = new BoardFeed();
  app.decorate('boardFeed', boardFeed);
  const stopListening = [
    // follow-ups first: the cache is dropped after the state it caches has moved
    ...listingFollowUps(bus, app.db, app.clock),
    ...auctionFollowUps(bus, app.db, app.clock),
    ...pushAuctionEvents(bus, rooms),
    ...pushBoardEvents(bus, boardFeed),
    ...invalidateOnEvents(bus, app.publicCache),
    ...contractFollowUps(bus, app),
    ...orderFollowUps(bus, app),
    ...longTermFollowUps(bus, app),
  ];
  const unlisten = await listenAcrossProcesses(database, (payload, err) => app.log.warn({ err, payload }, 'bad event notification'));
  // events sent while this process could not hear them are lost: whatever was built on them is read again
  const stopResync = database.onListenRestored((gapMs) => {
    forgetAuctionStates(app.db);
    app.publicCache.clear();
    rooms.resyncAll();
    boardFeed.changed('');
    // notifying events are durable (msg_event): a round picks up those other processes committed meanwhile
    app.notifications.kick();
    app.log.warn({ gapMs, rooms: rooms.watcherCount() }, '通知中断后已重新同步: 竞价缓存与公开缓存已清空，竞价室已重新读取');
  });
  const heartbeat = setInterval(() => rooms.heartbeat(), 30_000);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    stopResync();
    for (const stop of stopListening) stop();
    rooms.closeAll();
    boardFeed.closeAll();
    await bidsSettled(app.db);
    await unlisten();
  });
}

/**
 * 消息中心 and its channels (issue 28): the dispatcher making messages from notifying events, then the workers that
 * send what it queued (SMS and e-mail, webhooks), kicked right after each round.
 */
async function registerNotifications(app: FastifyInstance) {
  await app.register(notifications);
  await app.register(webhooks, {
    // an endpoint switched off for failing a day: its admins hear it once per run of failures
    onEndpointDisabled: async (endpoint: WebhookEndpoint) => {
      const key = `webhook.endpoint_disabled:${endpoint.id}:${endpoint.failingSince?.toISOString() ?? ''}`;
      if (await recordReminders(app.db, 'webhook.endpoint_disabled', [{ key, payload: { id: endpoint.id } }], app.clock.now())) app.notifications.kick();
    },
  });
  await app.register(messageDeliveries);
  app.notifications.afterDispatch.add((result) => {
    if (result.deliveries > 0) kickMessageDeliveries(app);
    if (result.webhooks > 0) kickWebhookDeliveries(app);
  });
}

/**
 * Headers on every answer (issue 27 item 4):
 *  - Referrer-Policy `strict-origin-when-cross-origin`: another site we link to (a bank, the credit registry) learns
 *    only our origin, never a path or query (the gate page's QR address carries a capability); our own requests keep
 *    the full address, which costs nothing as no page loads anything from elsewhere. `no-referrer` would buy no more.
 *  - Permissions-Policy: every powerful feature off, but the camera for the platform itself (photos of tickets and
 *    licences taken with a phone) and the screen wake lock (the auction room on a phone); fullscreen and the clipboard stay at the browser's default (same origin).
 *  - nosniff, and no framing by anyone: `X-Frame-Options: DENY` for old browsers, `frame-ancestors 'none'` in the CSP.
 * HSTS is set by the TLS-terminating proxy (README "Security"): this server speaks plain HTTP behind it.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  // the auction room keeps a bidder's phone screen on while the auction runs (issue 32)
  'screen-wake-lock=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'bluetooth=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'display-capture=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['permissions-policy', PERMISSIONS_POLICY],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * The web app's Content-Security-Policy: no inline or foreign script and no <object>/<embed>, so an injected tag or
 * an uploaded PDF's JavaScript cannot run in the app's origin. Inline styles stay allowed (antd writes them);
 * blob: workers and data: fonts are what pdf.js uses; blob: frames are the contract template's PDF preview. No page
 * may be framed, not even by the app itself.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
].join('; ');

/** Everything else (JSON, assets, errors): a document made of such an answer may load and run nothing. */
export const DEFAULT_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The API documentation (Swagger UI) runs its own scripts and styles: only framing is refused there. */
const DOCS_CONTENT_SECURITY_POLICY = "frame-ancestors 'none'";

/** The headers of every answer, and `policy` as its CSP unless the answer has its own (a page, a file). */
function withSecurityHeaders(reply: import('fastify').FastifyReply, policy = DEFAULT_CONTENT_SECURITY_POLICY) {
  for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
  // the static handler writes the pages' policy on the raw response (registerWebApp's setHeaders)
  if (!reply.hasHeader('content-security-policy') && !reply.raw.hasHeader('content-security-policy')) reply.header('content-security-policy', policy);
  return reply;
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
        if (filePath.endsWith('.html')) res.setHeader('content-security-policy', APP_CONTENT_SECURITY_POLICY);
      },
    });
  }
  if (hasBuild) {
    // the static handler answers a folder with 403; the root is the app like every other page
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').header('content-security-policy', APP_CONTENT_SECURITY_POLICY).sendFile('index.html'));
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(API_PREFIX) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(errorBody(404, 'route_not_found', '接口不存在'));
    }
    // a missing hashed asset is a 404, never index.html served as JavaScript
    if (request.url.startsWith('/assets/')) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!hasBuild) return reply.status(503).type('text/plain; charset=utf-8').send('前端尚未构建，请运行 npm run build');
    reply.header('cache-control', 'no-cache').header('content-security-policy', APP_CONTENT_SECURITY_POLICY);
    return reply.sendFile('index.html');
  });
}
