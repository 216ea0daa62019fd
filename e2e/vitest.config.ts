import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end specs: the real server (started once by global-setup.ts on a free port and a fresh data folder) and
// Debian's Chromium through playwright-core. `npm run test:e2e` builds apps/web first.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
