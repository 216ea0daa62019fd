// Measures the JavaScript a first visit loads (gzip), per page, against its budget (kB of 1024 bytes, as the bench).
// Usage: npm run build -w apps/web && node apps/web/scripts/measure-first-load.mjs [--base http://localhost:8080]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const BUDGET_KB = { '/user/login': 200, '/index': 250 };
const PAGES = Object.keys(BUDGET_KB);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const baseArg = process.argv.indexOf('--base');
let base = baseArg > 0 ? process.argv[baseArg + 1] : null;
let server = null;
if (!base) {
  server = await preview({ root, configFile: join(root, 'vite.config.ts'), preview: { port: 0, host: '127.0.0.1' }, logLevel: 'silent' });
  base = server.resolvedUrls.local[0].replace(/\/$/, '');
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let failed = false;
try {
  for (const page of PAGES) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const scripts = new Set();
    tab.on('response', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await tab.goto(base + page, { waitUntil: 'networkidle' });
    await tab.waitForTimeout(500);
    let total = 0;
    const rows = [];
    for (const path of [...scripts].sort()) {
      const size = gzipSync(readFileSync(join(root, 'dist', path)), { level: 9 }).length;
      total += size;
      rows.push(`    ${(size / 1024).toFixed(1).padStart(7)} kB  ${path}`);
    }
    const kb = total / 1024;
    console.log(`${page}: ${kb.toFixed(1)} kB gzip of JavaScript in ${scripts.size} files (budget ${BUDGET_KB[page]} kB)`);
    console.log(rows.join('\n'));
    if (kb > BUDGET_KB[page]) failed = true;
    await context.close();
  }
} finally {
  await browser.close();
  await server?.close();
}
process.exit(failed ? 1 : 0);
