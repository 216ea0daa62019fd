import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appError } from '../errors';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerErrorHandling } from './errors';
import { mayScrape } from './metrics';

/** Issue 31 item 4: what a load balancer, Prometheus and a client retrying during an outage are told. */
describe('operations: health, readiness, metrics, retry-safe refusals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { metricsToken: null });
  });
  afterAll(async () => t?.close());

  it('health says the process lives; ready says it can serve, and turns 503 with the reason while draining', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/trade-api/health' });
    expect(health.json().result).toMatchObject({ status: 'ok', database: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/trade-api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().result).toEqual({ status: 'ready', checks: { database: true, migrations: true, notifications: true, draining: false } });
    t.app.lifecycle.draining = true;
    try {
      const draining = await t.app.inject({ method: 'GET', url: '/trade-api/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.headers['retry-after']).toBe('2');
      expect(draining.json().message).toBe('服务未就绪：正在停止服务');
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('serves Prometheus metrics to the machine and private networks only, with request latency by route pattern', async () => {
    await t.app.inject({ method: 'GET', url: '/trade-api/sys/dict/getAllDictItems' });
    await t.app.inject({ method: 'GET', url: '/trade-api/no/such/route/12345' });
    const scraped = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    const text = scraped.body;
    expect(text).toMatch(/coalx_http_request_duration_seconds_count\{method="GET",route="\/trade-api\/sys\/dict\/getAllDictItems",status="200"\} 1/);
    // an address nobody routes is one series, not one per address
    expect(text).not.toContain('/no/such/route');
    for (const name of ['coalx_websocket_connections', 'coalx_outbox_backlog', 'coalx_db_notifications_listening 1', 'nodejs_eventloop_lag_seconds', 'coalx_group_commit_size']) {
      expect(text, name).toContain(name);
    }
    const outside = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().message).toBe('没有权限读取监控指标');
  });

  it('with METRICS_TOKEN, only the bearer of the token may scrape', () => {
    const from = (ip: string, authorization?: string) => ({ ip, headers: authorization ? { authorization } : {} });
    expect(mayScrape(from('127.0.0.1'), 's3cret')).toBe(false);
    expect(mayScrape(from('203.0.113.9', 'Bearer s3cret'), 's3cret')).toBe(true);
    expect(mayScrape(from('203.0.113.9', 'Bearer wrong'), 's3cret')).toBe(false);
    expect(mayScrape(from('::ffff:192.168.1.20'), null)).toBe(true);
    expect(mayScrape(from('172.32.0.1'), null)).toBe(false);
  });

  it('a database that is away is a 503 with Retry-After and 系统繁忙，请稍后重试, never a 500', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/terminated', async () => {
      throw Object.assign(new Error('Failed query'), { cause: new Error('Connection terminated unexpectedly') });
    });
    app.get('/shutdown', async () => {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    app.get('/unknown-bid', async () => {
      throw appError('bid_outcome_unknown');
    });
    app.get('/bug', async () => {
      throw new TypeError('x is undefined');
    });
    for (const url of ['/terminated', '/shutdown']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json()).toMatchObject({ success: false, code: 503, error: 'busy_retry', message: '系统繁忙，请稍后重试' });
    }
    const unknown = await app.inject({ method: 'GET', url: '/unknown-bid' });
    expect(unknown.statusCode).toBe(503);
    expect(unknown.headers['retry-after']).toBe('2');
    expect(unknown.json().message).toBe('出价结果待确认，请在出价记录中查看后再出价');
    expect((await app.inject({ method: 'GET', url: '/bug' })).statusCode).toBe(500);
    await app.close();
  });
});
