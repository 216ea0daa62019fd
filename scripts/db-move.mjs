// npm run db:export [-- <folder>]: writes the database (DATABASE_URL, or the embedded one in DATA_DIR) to a folder of
// per-table COPY files and a manifest. npm run db:import -- <folder>: loads such a folder into the EMPTY PostgreSQL
// database named by DATABASE_URL. README "Moving to a PostgreSQL server". Exit 0: done; 1: refused or failed.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.ts';
import { DataDirLockedError, lockDataDir } from '../apps/server/src/lib/data-dir-lock.ts';
import { DbMoveError, exportDatabase, importDatabase } from '../apps/server/src/db/db-move.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const [command, folderArgument] = positionals;
const config = loadConfig();
const log = (line) => console.log(line);
const where = (url) => {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
};

/** What the database does not hold: the files beside it in DATA_DIR, copied by hand (README). */
const DATA_DIR_PARTS = [
  ['files', '上传的文件与生成的 PDF'],
  ['ca', '平台 CA 的证书和私钥 (除非用 CA_CERT_FILE / CA_KEY_FILE 指定)'],
  ['secrets', '文件链接签名密钥 (除非用 FILE_LINK_KEY_FILE 指定)'],
];

function remindOfFiles() {
  const kept = DATA_DIR_PARTS.filter(([name]) => fs.existsSync(path.join(config.dataDir, name)));
  if (!kept.length) return;
  console.log(`\n数据库之外, 新服务器的 DATA_DIR 还需要 ${config.dataDir} 中的:`);
  for (const [name, what] of kept) console.log(`  ${name}/  ${what}`);
}

function warnOfMissingFiles() {
  const missing = DATA_DIR_PARTS.filter(([name]) => !fs.existsSync(path.join(config.dataDir, name)));
  if (!missing.length) return;
  console.log(`\n本服务器的 DATA_DIR (${config.dataDir}) 中还没有下列目录: 请在启动前从原 DATA_DIR 复制过来`);
  for (const [name, what] of missing) console.log(`  ${name}/  ${what}`);
}

async function runExport() {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const folder = path.resolve(folderArgument ?? `coalx-export-${stamp}`);
  let unlock = () => {};
  let source;
  if (config.databaseUrl) {
    source = { url: config.databaseUrl };
    console.log(`导出 ${where(config.databaseUrl)} → ${folder}`);
  } else {
    try {
      unlock = lockDataDir(config.dataDir); // PGlite is one process per folder: not while the server runs on it
    } catch (err) {
      if (err instanceof DataDirLockedError) throw new DbMoveError(`${err.message}\n内置数据库只能由一个进程打开: 请先停止服务器再导出。`);
      throw err;
    }
    source = { pgliteDir: path.join(config.dataDir, 'pglite') };
    console.log(`导出内置数据库 ${source.pgliteDir} → ${folder}`);
  }
  try {
    const started = Date.now();
    const manifest = await exportDatabase(source, folder, { log });
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(`已导出 ${manifest.tables.length} 张表 ${rows.toLocaleString('en-US')} 行, ${manifest.sequences.length} 个序列 (迁移 ${manifest.migrations.at(-1)?.tag}), ${Date.now() - started} ms`);
    console.log(`导入: DATABASE_URL=postgres://… npm run db:import -- ${folder}`);
    remindOfFiles();
  } finally {
    unlock();
  }
}

async function runImport() {
  if (!folderArgument) throw new DbMoveError('用法: DATABASE_URL=postgres://… npm run db:import -- <导出目录>');
  if (!config.databaseUrl) throw new DbMoveError('导入的目标是 PostgreSQL 服务器上的一个空数据库: 请用 DATABASE_URL 指定它');
  const folder = path.resolve(folderArgument);
  console.log(`导入 ${folder} → ${where(config.databaseUrl)}`);
  const summary = await importDatabase(config.databaseUrl, folder, { log });
  console.log(`已导入 ${summary.tables} 张表 ${summary.rows.toLocaleString('en-US')} 行, 行数与校验和一致; ${summary.sequences} 个序列已接续, ${summary.ms} ms`);
  console.log('启动: DATABASE_URL=… npm start');
  warnOfMissingFiles();
}

const commands = { export: runExport, import: runImport };

if (!commands[command]) {
  console.error('用法: npm run db:export [-- <目录>] | npm run db:import -- <目录>');
  process.exit(1);
}
commands[command]().then(
  () => process.exit(0),
  (err) => {
    if (err instanceof DbMoveError) console.error(err.message);
    else console.error(err);
    process.exit(1);
  },
);
