import { defineConfig } from 'vitest/config';

// One `vitest run` covers every unit and HTTP suite; e2e has its own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
  },
});
