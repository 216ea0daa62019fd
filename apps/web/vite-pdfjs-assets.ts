import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * pdf.js's data files (cMaps for CJK fonts, standard font data, image decoders' wasm) served at /pdfjs/ in dev
 * and copied into dist/pdfjs/ by the build, straight from the installed pdfjs-dist, so they never go stale.
 */
const DIRS = ['cmaps', 'standard_fonts', 'wasm'];

export function pdfjsAssets(): Plugin {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  let outDir = 'dist';
  return {
    name: 'coalx-pdfjs-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/pdfjs', (req, res, next) => {
        const rel = decodeURIComponent((req.url ?? '').split('?')[0]!).replace(/^\/+/, '');
        const [dir] = rel.split('/');
        const file = path.join(root, rel);
        if (!dir || !DIRS.includes(dir) || !file.startsWith(root) || !fs.existsSync(file)) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        fs.createReadStream(file).pipe(res);
      });
    },
    closeBundle() {
      for (const dir of DIRS) fs.cpSync(path.join(root, dir), path.join(outDir, 'pdfjs', dir), { recursive: true });
    },
  };
}
