import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layering: a page folder (`pages/…/<page>/` with its `index.tsx`) holds what only that page uses;
 * what two pages use lives in `components`, `hooks`, `services` or `lib`. So a page imports nothing of another
 * page, every file under `pages/` belongs to a page, and shared code never reaches into `pages/` (only the router
 * in `app/` does, to load them).
 */

const SRC = path.dirname(fileURLToPath(import.meta.url));
const CODE = /\.(ts|tsx)$/;
const LAYERED = /^(pages|components|hooks|services|lib)\//;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"]([^'"]+)['"]/g;

/** Every file below `dir`, as paths relative to it with '/' separators. */
function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** The module an import names, relative to src ('@/x' and './x' alike), with its extension or index file. */
function resolveImport(files: ReadonlySet<string>, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (files.has(candidate)) return candidate;
  }
  return base;
}

/** The page a file belongs to: the nearest folder under pages/ that has an index.tsx; null outside any page. */
function pageOf(files: ReadonlySet<string>, file: string): string | null {
  if (!file.startsWith('pages/')) return null;
  for (let dir = path.posix.dirname(file); dir !== 'pages' && dir !== '.'; dir = path.posix.dirname(dir)) {
    if (files.has(`${dir}/index.tsx`)) return dir;
  }
  return null;
}

/** Every breach of the layering in a tree of sources (path relative to src → code). */
export function layeringViolations(sources: ReadonlyMap<string, string>): string[] {
  const files = new Set(sources.keys());
  const problems: string[] = [];
  for (const [file, code] of sources) {
    if (!CODE.test(file)) continue;
    const page = pageOf(files, file);
    if (file.startsWith('pages/') && page === null) problems.push(`${file} belongs to no page: move it to components, hooks, services or lib`);
    for (const match of code.matchAll(IMPORT)) {
      const target = resolveImport(files, file, match[1]!);
      if (!target?.startsWith('pages/')) continue;
      if (!LAYERED.test(file)) continue; // app/ is the router that loads the pages
      const targetPage = pageOf(files, target);
      if (page === null) problems.push(`${file} imports ${match[1]} of a page`);
      else if (targetPage !== page) problems.push(`${file} (page ${page}) imports ${match[1]} of ${targetPage ?? 'no page'}`);
    }
  }
  return problems;
}

/** A market state or trade type compared with a bare number instead of HangState / AuctionState / TradeType. */
const BARE_STATE = /\b(hangState|tradeType)(\s*\?\?\s*[\w.?]+)*\)?\s*(===|!==|>=|<=|<|>)\s*\d/;

export function bareStateNumbers(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, code] of sources) {
    if (!CODE.test(file) || file.includes('.test.')) continue;
    code.split('\n').forEach((line, index) => {
      if (BARE_STATE.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('web layering', () => {
  it('finds a page importing another page, a stray shared file under pages and shared code reaching into pages', () => {
    const tree = new Map([
      ['pages/listing/a/index.tsx', "import { x } from '../b/components/X';\nimport { y } from './parts/Y';"],
      ['pages/listing/a/parts/Y.tsx', "import '@/pages/listing/shared/style.css';"],
      ['pages/listing/b/index.tsx', "const page = import('@/pages/listing/a');"],
      ['pages/listing/b/components/X.tsx', ''],
      ['pages/listing/logic.ts', ''],
      ['components/Box/index.tsx', "import { rule } from '@/pages/listing/logic';"],
      ['app/routes.ts', "const page = import('@/pages/listing/a');"],
    ]);
    expect(layeringViolations(tree)).toEqual([
      "pages/listing/a/index.tsx (page pages/listing/a) imports ../b/components/X of pages/listing/b",
      "pages/listing/a/parts/Y.tsx (page pages/listing/a) imports @/pages/listing/shared/style.css of no page",
      "pages/listing/b/index.tsx (page pages/listing/b) imports @/pages/listing/a of pages/listing/a",
      'pages/listing/logic.ts belongs to no page: move it to components, hooks, services or lib',
      'components/Box/index.tsx imports @/pages/listing/logic of a page',
    ]);
  });

  const sources = () => new Map(listFiles(SRC).map((file) => [file, CODE.test(file) ? fs.readFileSync(path.join(SRC, file), 'utf8') : '']));

  it('holds for apps/web/src: no page imports another page’s files', () => {
    const tree = sources();
    expect(tree.size).toBeGreaterThan(100);
    expect(layeringViolations(tree)).toEqual([]);
  });

  it('names market states and trade types (HangState.open, TradeType.auctionPurchase), never bare numbers', () => {
    const sample = new Map([
      ['lib/a.ts', 'if (a.hangState === 3) return;\nconst sale = (s?.tradeType ?? 2) !== 3;\nif (a.hangState === AuctionState.ended) return;'],
      ['lib/a.test.ts', 'expect(a.hangState === 3).toBe(true);'],
    ]);
    expect(bareStateNumbers(sample)).toEqual(['lib/a.ts:1: if (a.hangState === 3) return;', 'lib/a.ts:2: const sale = (s?.tradeType ?? 2) !== 3;']);
    expect(bareStateNumbers(sources())).toEqual([]);
  });
});
