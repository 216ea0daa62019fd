import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { errorBody } from './errors';
import { observeGroups } from '../lib/group-commit';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry (each app its own: tests build several in one process). */
    metrics: Registry;
  }
}

/** Where Prometheus scrapes: outside the API, like /trade-api/health is inside it, and not in the OpenAPI document. */
export const METRICS_PATH = '/metrics';

/**
 * Who may scrape: with METRICS_TOKEN set, whoever sends it as a bearer token; without it, only addresses of the
 * machine and of private networks (a scraper beside the nodes), never the internet behind the proxy.
 */
export function mayScrape(request: Pick<FastifyRequest, 'ip' | 'headers'>, token: string | null): boolean {
  if (token) return request.headers.authorization === `Bearer ${token}`;
  const ip = request.ip.replace(/^::ffff:/, '');
  return ip === '::1' || /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip) || /^f[cd]/i.test(ip);
}

/**
 * Prometheus metrics (README "Operations"): request latency by route, the group commits of bids, subscriptions and
 * audit rows (sizes, accepted and refused), WebSocket connections, the notification outbox's backlog, the pool,
 * whether notifications are heard, and Node's own (event-loop delay, memory, GC).
 */
export default fp<{ token: string | null }>(async (app, options) => {
  const registry = new Registry();
  app.decorate('metrics', registry);
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];

  const requests = new Histogram({
    name: 'coalx_http_request_duration_seconds',
    help: 'HTTP 请求耗时 (按路由、方法与状态码)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  app.addHook('onResponse', async (request, reply) => {
    // the route's pattern, never the raw address: unknown paths share one label, so nobody can grow the series
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const groupSizes = new Histogram({ name: 'coalx_group_commit_size', help: '每次组提交的请求数 (bid 出价, subscription 摘牌, audit 操作日志)', labelNames: ['kind'] as const, buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500], registers });
  const groupRequests = new Counter({ name: 'coalx_group_commit_requests_total', help: '组提交处理的请求数 (accepted 受理, refused 拒绝)', labelNames: ['kind', 'outcome'] as const, registers });
  const stopObserving = observeGroups((kind, size, accepted) => {
    groupSizes.observe({ kind }, size);
    groupRequests.inc({ kind, outcome: 'accepted' }, accepted);
    groupRequests.inc({ kind, outcome: 'refused' }, size - accepted);
  });
  app.addHook('onClose', async () => stopObserving());

  new Gauge({
    name: 'coalx_websocket_connections',
    help: '本进程打开的 WebSocket 连接 (auction 竞价室, board 实时监控, message 消息)',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.set({ kind: 'auction' }, app.auctionRooms.watcherCount());
      this.set({ kind: 'board' }, app.boardFeed.size);
      this.set({ kind: 'message' }, app.notifications.channels.count());
    },
  });

  new Gauge({
    name: 'coalx_outbox_backlog',
    help: '待处理的通知事件、短信邮件与推送 (events, deliveries, webhooks)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      try {
        const result = await app.db.execute(sql`SELECT
          (SELECT count(*) FROM msg_event WHERE processed_at IS NULL)::int AS events,
          (SELECT count(*) FROM msg_delivery WHERE state = 'pending')::int AS deliveries,
          (SELECT count(*) FROM msg_webhook_delivery WHERE state = 'pending')::int AS webhooks`);
        const row = (result as unknown as { rows: { events: number; deliveries: number; webhooks: number }[] }).rows[0]!;
        for (const queue of ['events', 'deliveries', 'webhooks'] as const) this.set({ queue }, Number(row[queue]));
      } catch {
        // the database is away: the series is left out of this scrape (coalx_db_notifications_listening says why)
        this.reset();
      }
    },
  });

  const pool = app.database.pool;
  new Gauge({
    name: 'coalx_db_pool_connections',
    help: '数据库连接池 (total 已建立, idle 空闲, waiting 等待连接的请求)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  new Gauge({
    name: 'coalx_db_notifications_listening',
    help: '本进程是否在接收数据库通知 (1 是, 0 否: 其他进程的事件收不到，/trade-api/ready 为 503)',
    registers,
    collect() {
      this.set(app.database.listenHealth().listening ? 1 : 0);
    },
  });

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, options.token)) return reply.status(403).send(errorBody(403, 'forbidden', '没有权限读取监控指标'));
    return reply.type(registry.contentType).send(await registry.metrics());
  });
});
