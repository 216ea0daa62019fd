// npm run seed:scale [-- --scale 0.1 --enterprises 2000 …]: fills a database with a busy year of a market beside the
// demo (README "A busy year (seed:scale)"). DATABASE_URL=postgres://… fills that server's database; without it the
// embedded database in DATA_DIR (the folder npm start uses). An empty database is migrated and given the demo first.
// Refuses a database that already holds a generated year.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, openPostgres } from '../apps/server/src/lib/database.ts';
import { DataDirLockedError, lockDataDir } from '../apps/server/src/lib/data-dir-lock.ts';
import { prepareDemoDatabase } from '../apps/server/src/scale/prepare-database.ts';
import { DEFAULT_SCALE_FIGURES, generatedYear, seedScale } from '../apps/server/src/scale/seed-scale.ts';

const FIGURE_FLAGS = {
  enterprises: 'enterprises',
  trades: 'trades',
  bids: 'bids',
  deals: 'deals',
  trucks: 'trucks',
  invoices: 'invoices',
  'audit-rows': 'auditRows',
  'busy-journal-rows': 'busyJournalRows',
};

const { values: flags } = parseArgs({
  options: {
    scale: { type: 'string' },
    seed: { type: 'string' },
    days: { type: 'string' },
    now: { type: 'string' },
    help: { type: 'boolean' },
    ...Object.fromEntries(Object.keys(FIGURE_FLAGS).map((flag) => [flag, { type: 'string' }])),
  },
});

if (flags.help) {
  console.log(`用法: [DATABASE_URL=postgres://…] [DATA_DIR=…] npm run seed:scale -- [--scale 0.1] [--seed 1] [--days 365] [--now 2026-11-28T08:00:00Z]
  ${Object.entries(FIGURE_FLAGS).map(([flag, key]) => `[--${flag} ${DEFAULT_SCALE_FIGURES[key]}]`).join(' ')}
每个数字都乘以 --scale (也可用环境变量 SCALE、SEED)。同一 --seed 与 --now 生成同样的数据 (时间相对 --now，默认当前时间)。`);
  process.exit(0);
}

function numberOf(name, text) {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} 须为非负数: ${text}`);
  return value;
}

function dateOf(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error(`--now 须为日期时间 (ISO 8601): ${text}`);
  return date;
}

async function main() {
  const config = loadConfig();
  const options = {
    scale: numberOf('scale', flags.scale ?? process.env.SCALE),
    seed: numberOf('seed', flags.seed ?? process.env.SEED),
    days: numberOf('days', flags.days),
    now: flags.now ? dateOf(flags.now) : undefined,
    ...Object.fromEntries(Object.entries(FIGURE_FLAGS).map(([flag, key]) => [key, numberOf(flag, flags[flag])])),
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];

  let unlock = () => {};
  let database;
  if (config.databaseUrl) {
    database = await openPostgres(config.databaseUrl, 2);
    console.log(`数据库: ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`);
  } else {
    try {
      unlock = lockDataDir(config.dataDir); // PGlite is one process per folder: not while the server runs on it
    } catch (err) {
      if (err instanceof DataDirLockedError) throw new Error(`${err.message}\n内置数据库只能由一个进程打开: 请先停止服务器再生成。`);
      throw err;
    }
    database = await openPglite(path.join(config.dataDir, 'pglite'));
    console.log(`数据库: ${path.join(config.dataDir, 'pglite')} (PGlite)`);
  }
  try {
    const started = performance.now();
    await database.migrate();
    const existing = await generatedYear(database.db);
    if (existing) throw new Error(`该数据库已有生成的一年数据 (生成于 ${existing.madeAt}，scale ${existing.scale})，不再重复生成。请换一个空库或新的 DATA_DIR。`);
    await prepareDemoDatabase(database, { dataDir: config.dataDir, caCertFile: config.caCertFile, caKeyFile: config.caKeyFile, caKeyPassphrase: config.caKeyPassphrase }, (line) => console.log(line));
    const summary = await seedScale(database.db, options, (line) => console.log(line));
    const byTable = new Map();
    for (const step of summary.steps) {
      if (step.table.startsWith('(')) continue;
      const entry = byTable.get(step.table) ?? { rows: 0, ms: 0 };
      byTable.set(step.table, { rows: entry.rows + step.rows, ms: entry.ms + step.ms });
    }
    console.log('\n各表行数与耗时:');
    for (const [table, { rows, ms }] of byTable) console.log(`  ${table.padEnd(26)} ${String(rows).padStart(10)} 行 ${(ms / 1000).toFixed(1).padStart(8)} s`);
    const staging = summary.steps.filter((s) => s.table === '(staging)').reduce((sum, s) => sum + s.ms, 0);
    console.log(`  ${'(准备: 临时表)'.padEnd(24)} ${''.padStart(10)}    ${(staging / 1000).toFixed(1).padStart(8)} s`);
    console.log(`\n完成: 生成 ${(summary.totalMs / 1000).toFixed(1)} s，共 ${((performance.now() - started) / 1000).toFixed(1)} s (scale ${summary.figures.scale}, seed ${summary.figures.seed})`);
    console.log(`繁忙企业: ${summary.busy.organName} (企业 id ${summary.busy.enterpriseId})，登录 ${summary.busy.username} / ${summary.busy.password}`);
    console.log(`交易中心: ${summary.operator.username} / ${summary.operator.password}；生成企业的账号 qy00001 (企业管理员)、jy00001 (交易员)，密码同 ${summary.busy.password}`);
  } finally {
    await database.close();
    unlock();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    // a failed statement's own message is its cause (Drizzle's message is the whole statement)
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : null;
    console.error(cause ? `${cause}\n(语句: ${String(err.message).slice(0, 300)}…)` : err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
