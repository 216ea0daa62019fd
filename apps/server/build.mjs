// Compiles the server for `npm start` (scripts/start.mjs): src/main.ts and packages/shared into one ES module
// (esbuild comes with tsx, a dependency of the server),
// every npm package left outside. Loading one file is much faster than loading hundreds through tsx (README).
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
export const SERVER_DIST = path.join(serverDir, 'dist/main.mjs');

export async function buildServer() {
  await build({
    entryPoints: [path.join(serverDir, 'src/main.ts')],
    outfile: SERVER_DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-outside',
        setup(b) {
          // the workspace's own TypeScript is compiled in; npm packages are imported from node_modules at run time
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@coalx/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
