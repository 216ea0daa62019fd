import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { storedFiles } from '../../db/schema/index';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-app';
import { DatabaseFileStorage, fileStorageFor, LocalFileStorage, STORED_FILE_CHUNK } from './storage';

async function chunksOf(stream: Readable | null): Promise<Buffer[]> {
  if (!stream) throw new Error('no stream');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks;
}

// production keeps bytes in the database on PostgreSQL only; the class is tested on PGlite too
describe.each(testDatabaseKinds())('DatabaseFileStorage on %s', (kind) => {
  let database: Database;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-storage-'));
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

  it('reads a file back byte for byte, in 256 KiB chunks, and answers null for an unknown key', async () => {
    const storage = new DatabaseFileStorage(database.db);
    const data = randomBytes(2 * STORED_FILE_CHUNK + 12345);
    await storage.put('contracts/HT1/big.pdf', data);
    const chunks = await chunksOf(await storage.read('contracts/HT1/big.pdf'));
    expect(chunks.map((c) => c.length)).toEqual([STORED_FILE_CHUNK, STORED_FILE_CHUNK, 12345]);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    expect(await storage.read('contracts/HT1/none.pdf')).toBeNull();
    // an empty file is a file
    await storage.put('empty.txt', Buffer.alloc(0));
    expect(Buffer.concat(await chunksOf(await storage.read('empty.txt'))).length).toBe(0);
  });

  it('put is idempotent on its key: the same bytes write nothing, other bytes replace them', async () => {
    const storage = new DatabaseFileStorage(database.db);
    await storage.put('public/2026/a.png', Buffer.from('first'));
    const [before] = await database.db.select().from(storedFiles).where(eq(storedFiles.key, 'public/2026/a.png'));
    await new Promise((r) => setTimeout(r, 5));
    await storage.put('public/2026/a.png', Buffer.from('first'));
    const [same] = await database.db.select().from(storedFiles).where(eq(storedFiles.key, 'public/2026/a.png'));
    expect(same!.createdAt.getTime()).toBe(before!.createdAt.getTime());
    await storage.put('public/2026/a.png', Buffer.from('second!'));
    const rows = await database.db.select().from(storedFiles).where(eq(storedFiles.key, 'public/2026/a.png'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.size).toBe(7);
    expect(Buffer.concat(await chunksOf(await storage.read('public/2026/a.png'))).toString()).toBe('second!');
  });

  it('a file replaced while it is read fails the stream instead of mixing two versions', async () => {
    const storage = new DatabaseFileStorage(database.db);
    const first = randomBytes(4 * STORED_FILE_CHUNK);
    await storage.put('replaced.bin', first);
    const stream = (await storage.read('replaced.bin'))!;
    const iterator = stream[Symbol.asyncIterator]();
    const got = [(await iterator.next()).value as Buffer];
    await storage.put('replaced.bin', randomBytes(4 * STORED_FILE_CHUNK));
    // the stream may have read one chunk ahead (of the first version); it never reaches the end
    const rest = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) got.push(next.value as Buffer);
    })();
    await expect(rest).rejects.toThrow('被替换');
    expect(got.length).toBeLessThan(4);
    expect(first.subarray(0, got.length * STORED_FILE_CHUNK).equals(Buffer.concat(got))).toBe(true);
  });

  it('reads a key the database lacks from this machine’s folder; copies the folder in once, database bytes winning', async () => {
    const root = tempDir();
    const local = new LocalFileStorage(root);
    await local.put('private/old/licence.png', Buffer.from('from disk'));
    await local.put('public/kept.pdf', Buffer.from('disk version'));
    const storage = new DatabaseFileStorage(database.db, local);
    expect(Buffer.concat(await chunksOf(await storage.read('private/old/licence.png'))).toString()).toBe('from disk');
    await storage.put('public/kept.pdf', Buffer.from('database version'));

    expect(await storage.importLocalFolder(root)).toBe(1);
    expect(fs.existsSync(path.join(root, '.copied-to-database'))).toBe(true);
    const plain = new DatabaseFileStorage(database.db);
    expect(Buffer.concat(await chunksOf(await plain.read('private/old/licence.png'))).toString()).toBe('from disk');
    expect(Buffer.concat(await chunksOf(await plain.read('public/kept.pdf'))).toString()).toBe('database version');
    // the next start does not walk the folder again
    await local.put('private/later.png', Buffer.from('later'));
    expect(await storage.importLocalFolder(root)).toBe(0);
    expect(await storage.importLocalFolder(path.join(root, 'missing'))).toBe(0);
  });

  it('stores the bytes out of line, uncompressed, so chunked reads fetch only their pages', async () => {
    const { rows } = (await database.db.execute(
      sql`SELECT attstorage FROM pg_attribute WHERE attrelid = 'stored_file'::regclass AND attname = 'bytes'`,
    )) as unknown as { rows: { attstorage: string }[] };
    expect(rows[0]!.attstorage).toBe('e');
  });

  it('fileStorageFor: the database on PostgreSQL, DATA_DIR/files on PGlite', () => {
    const dataDir = tempDir();
    const chosen = fileStorageFor(database, dataDir);
    if (kind === 'postgres') expect(chosen).toBeInstanceOf(DatabaseFileStorage);
    else expect((chosen as LocalFileStorage).root).toBe(path.join(dataDir, 'files'));
  });
});
