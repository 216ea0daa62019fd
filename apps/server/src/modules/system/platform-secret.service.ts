import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { defaultFileLinkKeyFile, fileLinkKeyOf, loadFileLinkKey, newFileLinkKeyText } from '../../lib/file-links';
import { platformSecrets } from '../../db/schema/index';

export async function readPlatformSecret(db: Db, name: string): Promise<string | null> {
  const [row] = await db.select({ value: platformSecrets.value }).from(platformSecrets).where(eq(platformSecrets.name, name)).limit(1);
  return row?.value ?? null;
}

/**
 * The secret of this name, made by `make` if the database has none yet. Race-free without any lock: every process
 * that finds none makes one and inserts it with ON CONFLICT DO NOTHING, then all read back the one that was stored
 * first, so two servers starting at once end up with the same secret.
 */
export async function ensurePlatformSecret(db: Db, name: string, make: () => Promise<string>): Promise<string> {
  const existing = await readPlatformSecret(db, name);
  if (existing !== null) return existing;
  await db.insert(platformSecrets).values({ name, value: await make() }).onConflictDoNothing();
  const stored = await readPlatformSecret(db, name);
  if (stored === null) throw new Error(`平台密钥未能写入数据库: ${name}`);
  return stored;
}

const FILE_LINK_SECRET = 'file-link-key';

/**
 * The key signing private-file links: FILE_LINK_KEY_FILE if named; on PGlite DATA_DIR/secrets; on PostgreSQL the
 * database, so a link signed by one server process opens on every other. A key this machine already had in
 * DATA_DIR/secrets becomes the database's when the database has none yet (links handed out just before keep working).
 * Kept as plain text: whoever reads this table reads the files themselves too.
 */
export async function fileLinkKeyFor(database: Pick<Database, 'db' | 'kind'>, files: { dataDir: string; keyFile?: string | null }): Promise<Buffer> {
  if (database.kind !== 'postgres' || files.keyFile) return loadFileLinkKey(files);
  const legacy = defaultFileLinkKeyFile(files.dataDir);
  const text = await ensurePlatformSecret(database.db, FILE_LINK_SECRET, async () => (fs.existsSync(legacy) ? fs.readFileSync(legacy, 'utf8') : newFileLinkKeyText()));
  return fileLinkKeyOf(text, `platform_secret ${FILE_LINK_SECRET}`);
}
