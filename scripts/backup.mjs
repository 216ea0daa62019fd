// npm run backup [-- <file.tar.gz>]: the database (DATABASE_URL, or the embedded one in DATA_DIR) and DATA_DIR's
// files/, ca/, secrets/ in one archive. npm run restore -- <file.tar.gz> [--force]: puts it back. README "Deployment".
// Exit 0: done; 1: refused or failed.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.ts';
import { BackupError, backup, restore } from '../apps/server/src/lib/backup.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
const [command, fileArgument] = positionals;
const config = loadConfig();
const target = { dataDir: config.dataDir, databaseUrl: config.databaseUrl, log: (line) => console.log(line) };
const where = () => (config.databaseUrl ? (({ host, pathname }) => `PostgreSQL ${host}${pathname}`)(new URL(config.databaseUrl)) : `内置数据库 ${path.join(config.dataDir, 'pglite')}`);

async function runBackup() {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const file = path.resolve(fileArgument ?? `coalx-backup-${stamp}.tar.gz`);
  console.log(`备份 ${where()} 与 ${config.dataDir} → ${file}`);
  const started = Date.now();
  const manifest = await backup(target, file);
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(`已备份 ${manifest.tables.length} 张表 ${rows.toLocaleString('en-US')} 行${manifest.parts.length ? ` 及 ${manifest.parts.join('/, ')}/` : ''}, ${Date.now() - started} ms`);
  console.log(`恢复: npm run restore -- ${file}`);
}

async function runRestore() {
  if (!fileArgument) throw new BackupError('用法: npm run restore -- <备份文件> [--force]');
  console.log(`恢复 ${path.resolve(fileArgument)} → ${where()} 与 ${config.dataDir}`);
  const started = Date.now();
  const { manifest, movedAside } = await restore(target, fileArgument, { force: values.force });
  console.log(`完成 (${manifest.createdAt} 的备份), ${Date.now() - started} ms`);
  if (movedAside) console.log(`原有的目录已移到 ${movedAside}: 确认无误后可删除`);
}

const commands = { backup: runBackup, restore: runRestore };
if (!commands[command]) {
  console.error('用法: npm run backup [-- <文件>] | npm run restore -- <文件> [--force]');
  process.exit(1);
}
commands[command]().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  },
);
