// npm run audit:verify [-- --tsa-ca <pem>] [-- --export <folder>]: recomputes the audit chain and checks every seal
// (README "审计链"). Reads DATABASE_URL, or the embedded database in DATA_DIR like the server. Exit 0: everything
// holds; 1: something differs (the first broken row is named); 2: the check could not run.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, openPostgres } from '../apps/server/src/lib/database.ts';
import { DataDirLockedError, lockDataDir } from '../apps/server/src/lib/data-dir-lock.ts';
import { describeAuditVerification, exportAuditChain, verifyAuditTrail } from '../apps/server/src/modules/audit/audit-verify.ts';

const { values: options } = parseArgs({ options: { 'tsa-ca': { type: 'string' }, export: { type: 'string' } } });
const config = loadConfig();
const tsaCaFile = options['tsa-ca'] ? path.resolve(options['tsa-ca']) : config.tsaCaFile;

async function main() {
  if (tsaCaFile && !fs.existsSync(tsaCaFile)) throw new Error(`找不到 TSA 的 CA 证书: ${tsaCaFile}`);
  let unlock = () => {};
  let database;
  if (config.databaseUrl) database = await openPostgres(config.databaseUrl, 2);
  else {
    const folder = path.join(config.dataDir, 'pglite');
    if (!fs.existsSync(folder)) throw new Error(`找不到内置数据库 ${folder} (DATA_DIR 是否正确?)`);
    try {
      unlock = lockDataDir(config.dataDir); // PGlite is one process per folder: not while the server runs on it
    } catch (err) {
      if (err instanceof DataDirLockedError) throw new Error(`${err.message}\n内置数据库只能由一个进程打开: 请先停止服务器再校验。`);
      throw err;
    }
    database = await openPglite(folder);
  }
  try {
    console.log(`数据库: ${config.databaseUrl ? new URL(config.databaseUrl).host + new URL(config.databaseUrl).pathname : path.join(config.dataDir, 'pglite')}`);
    if (options.export) {
      const exported = await exportAuditChain(database.db, path.resolve(options.export));
      console.log(`已导出 ${exported.rows} 条链记录和 ${exported.seals} 次封存到 ${path.resolve(options.export)} (audit-chain.csv, audit-seals.csv)`);
    }
    const verification = await verifyAuditTrail(database.db, { tsaCaFile });
    console.log(describeAuditVerification(verification));
    return verification.ok ? 0 : 1;
  } finally {
    await database.close();
    unlock();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error(/sys_audit_seal|chain_seq/.test(message) ? `数据库尚未升级到审计链 (启动一次服务器即完成迁移): ${message}` : `校验未能完成: ${message}`);
    process.exit(2);
  },
);
