import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { platformSecrets } from '../../db/schema/index';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-app';
import { fileLinkKeyFor } from '../system/platform-secret.service';
import { CA_PASSPHRASE_MISSING, CA_PASSPHRASE_WRONG, createCaFiles, loadPlatformCa, loadPlatformCaFor, loadStoredPlatformCa, PlatformCaError } from './ca';

const PASSPHRASE = 'correct horse battery staple';

// the database holds the CA on PostgreSQL only; the store itself is tested on PGlite too
describe.each(testDatabaseKinds())('platform CA and file-link key in the database (%s)', (kind) => {
  let database: Database;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-ca-store-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });
  const clear = () => database.db.delete(platformSecrets);

  it('refuses to make or read it without a passphrase (or with one too short), saying what to set', async () => {
    await clear();
    for (const passphrase of [null, '', 'short']) {
      const refused = loadStoredPlatformCa(database.db, tempDir(), passphrase);
      await expect(refused).rejects.toBeInstanceOf(PlatformCaError);
      await expect(refused).rejects.toThrow(CA_PASSPHRASE_MISSING);
    }
    expect(CA_PASSPHRASE_MISSING).toContain('CA_KEY_PASSPHRASE');
    expect((await database.db.select({ n: count() }).from(platformSecrets))[0]!.n).toBe(0);
  });

  it('two loaders at once (two servers, separate DATA_DIRs) get the same CA; the key is stored sealed', async () => {
    await clear();
    const [a, b] = await Promise.all([loadStoredPlatformCa(database.db, tempDir(), PASSPHRASE), loadStoredPlatformCa(database.db, tempDir(), PASSPHRASE)]);
    expect(a.pem).toBe(b.pem);
    expect(a.certificate.subject).toContain('CoalX 平台数字证书根 CA');
    const rows = await database.db.select().from(platformSecrets).where(eq(platformSecrets.name, 'platform-ca'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value).not.toContain('PRIVATE KEY');
    expect(JSON.parse(rows[0]!.value).key).toMatchObject({ kdf: 'scrypt' });
    // both keys sign what the one certificate verifies (platformCaOf probes that), and a later start reads the same
    const again = await loadStoredPlatformCa(database.db, tempDir(), PASSPHRASE);
    expect(again.certificate.serialNumber).toBe(a.certificate.serialNumber);
  });

  it('refuses a wrong passphrase with a clear message', async () => {
    const refused = loadStoredPlatformCa(database.db, tempDir(), 'not the passphrase at all');
    await expect(refused).rejects.toBeInstanceOf(PlatformCaError);
    await expect(refused).rejects.toThrow(CA_PASSPHRASE_WRONG);
  });

  it('imports the CA an installation already had in DATA_DIR/ca, so certificates it issued still verify', async () => {
    await clear();
    const dataDir = tempDir();
    const before = await loadPlatformCa({ dataDir });
    const stored = await loadStoredPlatformCa(database.db, dataDir, PASSPHRASE);
    expect(stored.pem).toBe(before.pem);
    // another machine without those files gets it from the database
    expect((await loadStoredPlatformCa(database.db, tempDir(), PASSPHRASE)).pem).toBe(before.pem);
  });

  it('loadPlatformCaFor: CA_CERT_FILE / CA_KEY_FILE override; PGlite keeps DATA_DIR/ca; PostgreSQL the database', async () => {
    await clear();
    const files = tempDir();
    await createCaFiles(path.join(files, 'cert.pem'), path.join(files, 'key.pem'));
    const configured = await loadPlatformCaFor(database, { dataDir: tempDir(), certFile: path.join(files, 'cert.pem'), keyFile: path.join(files, 'key.pem') });
    expect(configured.pem).toBe(fs.readFileSync(path.join(files, 'cert.pem'), 'utf8'));
    const dataDir = tempDir();
    const chosen = await loadPlatformCaFor(database, { dataDir, passphrase: PASSPHRASE });
    const secrets = await database.db.select({ n: count() }).from(platformSecrets);
    if (kind === 'postgres') {
      expect(secrets[0]!.n).toBe(1);
      expect(fs.existsSync(path.join(dataDir, 'ca'))).toBe(false);
    } else {
      expect(secrets[0]!.n).toBe(0);
      expect(chosen.pem).toBe(fs.readFileSync(path.join(dataDir, 'ca', 'ca-cert.pem'), 'utf8'));
    }
  });

  it('the file-link key: one for every DATA_DIR on PostgreSQL (a key this machine had is kept), DATA_DIR/secrets on PGlite, FILE_LINK_KEY_FILE over both', async () => {
    await clear();
    const withOldKey = tempDir();
    fs.mkdirSync(path.join(withOldKey, 'secrets'));
    fs.writeFileSync(path.join(withOldKey, 'secrets', 'file-link.key'), `${'o'.repeat(40)}\n`);
    const first = await fileLinkKeyFor(database, { dataDir: withOldKey });
    const second = await fileLinkKeyFor(database, { dataDir: tempDir() });
    // two servers at once get one key
    const [x, y] = await Promise.all([fileLinkKeyFor(database, { dataDir: tempDir() }), fileLinkKeyFor(database, { dataDir: tempDir() })]);
    expect(y.equals(x)).toBe(kind === 'postgres');
    if (kind === 'postgres') {
      expect(second.equals(first)).toBe(true);
      expect(first.toString()).toBe('o'.repeat(40));
    } else {
      expect(first.toString()).toBe('o'.repeat(40));
      expect(second.equals(first)).toBe(false);
    }
    const configured = path.join(tempDir(), 'link.key');
    fs.writeFileSync(configured, 'k'.repeat(40));
    expect((await fileLinkKeyFor(database, { dataDir: tempDir(), keyFile: configured })).toString()).toBe('k'.repeat(40));
  });
});
