// npm start: builds the web app and compiles the server when their sources are newer than the builds, then runs
// the server (which migrates the database and loads demo data on first start).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/public', 'packages/shared/src'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function webBuildIsStale() {
  if (!fs.existsSync(builtIndex)) return true;
  const builtAt = fs.statSync(builtIndex).mtimeMs;
  return webSources.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

if (process.env.SKIP_WEB_BUILD !== '1' && webBuildIsStale()) {
  console.log('正在构建前端 (apps/web)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// the server runs compiled (apps/server/build.mjs): one file loads in a fraction of the time tsx needs for the
// sources; it is compiled again whenever a server or shared source is newer than the build
const serverSources = ['apps/server/src', 'packages/shared/src', 'apps/server/build.mjs'];
const serverDist = path.join(root, 'apps/server/dist/main.mjs');

function serverBuildIsStale() {
  if (!fs.existsSync(serverDist)) return true;
  const builtAt = fs.statSync(serverDist).mtimeMs;
  return serverSources.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

let serverArgs = [serverDist];
if (process.env.SERVER_FROM_SOURCE === '1') serverArgs = ['--import', 'tsx', 'apps/server/src/main.ts'];
// SKIP_SERVER_BUILD=1 (the Docker image): the build shipped is the one to run, whatever the files' times say
else if (process.env.SKIP_SERVER_BUILD !== '1' && serverBuildIsStale()) {
  try {
    const { buildServer } = await import('../apps/server/build.mjs');
    await buildServer();
  } catch (err) {
    // the sources run as they are (slower start) rather than not at all
    console.warn(`服务端编译失败，改为直接运行源码: ${err instanceof Error ? err.message : err}`);
    serverArgs = ['--import', 'tsx', 'apps/server/src/main.ts'];
  }
}

const server = spawn(process.execPath, serverArgs, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
