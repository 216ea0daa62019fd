import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from './test/server-process';

describe('the server process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-main-'));
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>CoalX</title><div id="root"></div>');
  const env = { DATA_DIR: dataDir, WEB_DIST: webDist, DEMO_DATA: '1', DATABASE_URL: '' };
  let first: ServerProcess | null = null;

  afterAll(() => {
    first?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('starts on an empty folder with migrations and demo accounts', async () => {
    first = startServerProcess(env, await freePort());
    await waitForHealth(first.port, 110_000);
    const login = await fetch(`http://127.0.0.1:${first.port}/trade-api/sys/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'seller01', password: 'Trader#2026' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as any).result.enterPriseInfo.organName).toBe('晋北煤业集团有限公司');
  }, 120_000);

  it('serves index.html for unknown non-API paths and JSON 404 for unknown API paths', async () => {
    const root = await fetch(`http://127.0.0.1:${first!.port}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<div id="root">');
    const missingAsset = await fetch(`http://127.0.0.1:${first!.port}/assets/gone-1234.js`);
    expect(missingAsset.status).toBe(404);
    const page = await fetch(`http://127.0.0.1:${first!.port}/listingTrade/no/such/page?x=1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const api = await fetch(`http://127.0.0.1:${first!.port}/trade-api/nothing`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as any).message).toBe('接口不存在');
  });

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    const second = startServerProcess(env, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('已被另一个 CoalX 进程');
    // the first one is unharmed
    expect((await fetch(`http://127.0.0.1:${first!.port}/trade-api/health`)).status).toBe(200);
  }, 60_000);

  it('stops gracefully on SIGTERM, frees the folder, and starts again on the existing data', async () => {
    first!.child.kill('SIGTERM');
    expect(await first!.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'coalx.lock'))).toBe(false);
    first = startServerProcess(env, await freePort());
    await waitForHealth(first.port, 110_000);
    // demo data was not loaded twice: the login still works and the account is unique
    const login = await fetch(`http://127.0.0.1:${first.port}/trade-api/sys/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'buyer01', password: 'Trader#2026' }),
    });
    expect(login.status).toBe(200);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    first = null;
  }, 120_000);
});
