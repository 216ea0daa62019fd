import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import type { ManualChunkMeta } from 'rollup';
import { pdfjsAssets } from './vite-pdfjs-assets';

const API_TARGET = process.env.COALX_API_TARGET ?? 'http://localhost:8080';

/**
 * Vendor chunks. The budget is ≤ 350 kB gzip of JavaScript on a first visit to /user/login or /index, so:
 * - react, router, query, dayjs, zod: one chunk each (every page needs them, they change rarely);
 * - antd (with its rc-* helpers) in tiers by the pages that first need it (see TIERS below);
 * - `vendor-pro`: ProComponents and their own helpers, for the workspace only.
 * One chunk of all of antd would put the components of every table and form onto the login page (~660 kB
 * gzip with ProComponents). Rollup moves a manual chunk's unassigned dependencies into it, so every antd module
 * must get a name here, or `vendor-pro` would swallow antd whole.
 */
const PRO = /\/node_modules\/(@ant-design\/pro-[a-z-]+|@umijs|@dnd-kit|@chenshuai2144|swr|lodash|lodash-es|path-to-regexp|safe-stable-stringify|reactcss|tinycolor2)\//;

let tiers: Map<string, string> | null = null;

/**
 * Barrel modules: a file's `import { Button } from 'antd'` reaches only antd/es/button, not all of antd. Each
 * barrel's `export { … } from './x'` lines map a name to the module that defines it.
 */
const BARREL = /\/node_modules\/(antd\/es\/index\.js|@ant-design\/icons\/es\/index\.js|@ant-design\/icons\/es\/icons\/index\.js)$/;
const barrelMaps = new Map<string, { names: Map<string, string>; stars: string[] }>();

function resolveIn(importedIds: readonly string[], from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return importedIds.find((m) => m === base || m === `${base}.js` || m === `${base}/index.js`);
}

function barrelMap(id: string, meta: ManualChunkMeta) {
  let map = barrelMaps.get(id);
  if (map) return map;
  const info = meta.getModuleInfo(id);
  map = { names: new Map(), stars: [] };
  for (const match of (info?.code ?? '').matchAll(/export\s*(\*|\{([^}]*)\})\s*from\s*["']([^"']+)["']/g)) {
    const target = resolveIn(info?.importedIds ?? [], id, match[3]!);
    if (!target) continue;
    if (match[1] === '*') map.stars.push(target);
    else
      for (const part of match[2]!.split(',')) {
        const name = part.trim().split(/\s+as\s+/).pop()!.trim();
        if (name) map.names.set(name, target);
      }
  }
  barrelMaps.set(id, map);
  return map;
}

/** The module a barrel takes `name` from, following `export *`. */
function barrelMember(id: string, name: string, meta: ManualChunkMeta): string | undefined {
  const map = barrelMap(id, meta);
  const direct = map.names.get(name);
  if (direct) return BARREL.test(direct) ? barrelMember(direct, name, meta) : direct;
  for (const star of map.stars) {
    const found = BARREL.test(star) ? barrelMember(star, name, meta) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Names a module imports from a package: `import { A, B as C } from 'pkg'`; null if it imports otherwise. */
function namesImported(code: string, pkg: string): string[] | null {
  const escaped = pkg.replace(/[/.@-]/g, (c) => `\\${c}`);
  if (new RegExp(`import\\s+[\\w*]+[^{]*from\\s*["']${escaped}["']`).test(code)) return null; // default/namespace
  const names: string[] = [];
  let found = false;
  for (const match of code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${escaped}["']`, 'g'))) {
    found = true;
    for (const part of match[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!.trim();
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  return found ? names : null;
}

function packageOf(barrelId: string): string {
  return barrelId.includes('/node_modules/antd/') ? 'antd' : '@ant-design/icons';
}

/** Static dependencies of a module, with barrel imports narrowed to the members imported. */
function dependencies(id: string, meta: ManualChunkMeta): readonly string[] {
  const info = meta.getModuleInfo(id);
  if (!info) return [];
  if (BARREL.test(id) || !info.code) return info.importedIds;
  const deps: string[] = [];
  for (const dep of info.importedIds) {
    const names = BARREL.test(dep) ? namesImported(info.code, packageOf(dep)) : null;
    if (!names) {
      deps.push(dep);
      continue;
    }
    for (const name of names) {
      const member = barrelMember(dep, name, meta);
      if (!member) return info.importedIds; // an unknown member keeps the whole barrel: never too little
      deps.push(member);
    }
  }
  return deps;
}

/**
 * antd is split by who needs it first: `vendor-antd` what the entry and the login page need, `vendor-antd-public`
 * what the public layout and the home page add, `vendor-antd-pages` what the other pages outside the workspace add,
 * `vendor-antd-more` the rest (the workspace's ProLayout/ProTable pages). A tier's roots are app files; its modules
 * are their static imports, transitively, minus those of earlier tiers.
 */
const SRC = '/apps/web/src/';
const TIERS: { name: string; root: RegExp }[] = [
  { name: 'vendor-antd', root: /\/apps\/web\/src\/(main\.tsx|app\/layouts\/UserLayout\.tsx|pages\/user\/login\/)/ },
  { name: 'vendor-antd-public', root: /\/apps\/web\/src\/(app\/layouts\/PublicLayout\.tsx|pages\/home\/)/ },
  { name: 'vendor-antd-pages', root: /\/apps\/web\/src\/(?!pages\/workspace\/|app\/layouts\/WorkspaceLayout\/)/ },
];

function closure(roots: string[], meta: ManualChunkMeta): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...dependencies(id, meta));
  }
  return seen;
}

function tierOf(id: string, meta: ManualChunkMeta): string {
  if (!tiers) {
    const all = [...meta.getModuleIds()].filter((m) => m.includes(SRC));
    tiers = new Map();
    for (const tier of TIERS) {
      for (const m of closure(all.filter((a) => tier.root.test(a)), meta)) if (!tiers.has(m)) tiers.set(m, tier.name);
    }
  }
  return tiers.get(id) ?? 'vendor-antd-more';
}

function manualChunks(id: string, meta: ManualChunkMeta): string | undefined {
  if (!id.includes('/node_modules/')) return undefined;
  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'vendor-react';
  if (/\/node_modules\/(react-router|cookie|set-cookie-parser)\//.test(id)) return 'vendor-router';
  if (/\/node_modules\/@tanstack\//.test(id)) return 'vendor-query';
  if (/\/node_modules\/dayjs\//.test(id)) return 'vendor-dayjs';
  if (/\/node_modules\/zod\//.test(id)) return 'vendor-zod';
  // the Excel writer is imported only when a user exports: its own chunk, never a tier's
  if (/\/node_modules\/exceljs\//.test(id)) return 'vendor-exceljs';
  // the index chart and the PDF viewer import these on demand: their own chunks too
  if (/\/node_modules\/(echarts|zrender)\//.test(id)) return 'vendor-echarts';
  if (/\/node_modules\/pdfjs-dist\//.test(id)) return 'vendor-pdfjs';
  if (PRO.test(id)) return 'vendor-pro';
  return tierOf(id, meta);
}

/**
 * packages/shared builds its zod schemas at module level; to Rollup every such call may have side effects, so
 * importing API_PREFIX alone would put zod (~25 kB gzip) onto every page. Its top-level initialisers are pure
 * constructions: mark them so (and the modules side-effect free) and unused schemas fall away.
 */
function pureSharedModules(): Plugin {
  return {
    name: 'coalx-pure-shared',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/\/packages\/shared\/src\/.*\.ts$/.test(id)) return null;
      const program = this.parse(code) as unknown as { body: AstNode[] };
      const inits: AstNode[] = [];
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const declarator of declaration.declarations ?? []) {
          const init = declarator.init;
          if (init && !['Literal', 'Identifier', 'ArrowFunctionExpression', 'FunctionExpression'].includes(init.type)) {
            inits.push(init);
          }
        }
      }
      let out = code;
      for (const init of inits.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
      }
      return { code: out, map: null, moduleSideEffects: false };
    },
  };
}

/**
 * antd's resize observer ships a polyfill (~8 kB gzip on every page) for browsers older than the ones this
 * platform supports; the build uses the browser's own ResizeObserver. Tests in jsdom keep the polyfill.
 */
function nativeResizeObserver(): Plugin {
  const id = '\0native-resize-observer';
  return {
    name: 'coalx-native-resize-observer',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'resize-observer-polyfill' ? id : null),
    load: (loaded) => (loaded === id ? 'export default globalThis.ResizeObserver;' : null),
  };
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  declaration?: AstNode | null;
  declarations?: { init?: AstNode | null }[];
}

export default defineConfig({
  plugins: [react(), pureSharedModules(), nativeResizeObserver(), pdfjsAssets()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: { '/trade-api': { target: API_TARGET, changeOrigin: true, ws: true } },
  },
  preview: {
    proxy: { '/trade-api': { target: API_TARGET, changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      output: { manualChunks },
      // vite build runs once per process; a watch rebuild must recompute the tiers
      plugins: [{ name: 'reset-first-load', buildStart: () => void ((tiers = null), barrelMaps.clear()) }],
    },
  },
});
