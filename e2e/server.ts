import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  baseUrl: string;
  pid: number;
  dataDir: string;
  logFile: string;
  stop: () => Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number, logFile: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${tail(logFile)}`);
    try {
      const response = await fetch(`${baseUrl}/trade-api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /trade-api/health within ${timeoutMs} ms:\n${tail(logFile)}`);
}

/** Copies the build; retried while another process is rewriting it (index.html naming assets not there yet). */
function copyBuild(from: string, to: string) {
  for (let attempt = 0; ; attempt++) {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
    const html = readFileSync(path.join(to, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    if (assets.every((asset) => existsSync(path.join(to, asset)))) return;
    if (attempt >= 20) throw new Error('apps/web/dist is incomplete: rebuild it (npm run build)');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts the real server (node --import tsx apps/server/src/main.ts) on a free port with a fresh data folder and
 * demo data, on the embedded database, and waits until /trade-api/health answers.
 */
export async function startServer(options: { dataDir?: string } = {}): Promise<RunningServer> {
  const port = await freePort();
  // a spec that restarts the server on its own folder (to change rows between runs) passes it and removes it itself
  const ownsData = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'coalx-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  // The server serves a copy of the build, so a rebuild of apps/web/dist during the run cannot pull assets away.
  const builtWeb = path.join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(path.join(builtWeb, 'index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  const webDist = path.join(dataDir, 'web');
  copyBuild(builtWeb, webDist);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dataDir, 'data'),
    WEB_DIST: webDist,
    DEMO_DATA: '1',
    LOG_LEVEL: 'warn',
    // every spec signs in from 127.0.0.1: the per-address sign-in limit (30 a minute) is not what they test
    LOGIN_RATE_LIMIT: process.env.LOGIN_RATE_LIMIT ?? '1000',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    if (ownsData) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, 120_000, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, pid: child.pid!, dataDir, logFile, stop };
}
