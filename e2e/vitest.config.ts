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
    // one retry for a failed browser spec: on the 2-core CI machine a toast or a poll can miss its window once
    // (funds.e2e's 入金 toast did, once in three full runs); a spec that fails twice still fails the run. Each
    // retry is printed; a spec that needs one is a bug to chase, not to hide (see the issue notes).
    retry: 1,
  },
});
