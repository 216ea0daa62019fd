import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { storedFiles } from '../../db/schema/index';

/** Where file bytes live: DATA_DIR/files on PGlite, the database on PostgreSQL (DESIGN.md §3). */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Readable | null>;
}

/**
 * The storage for this database: on PostgreSQL the bytes go into `stored_file`, so every server process of the
 * database serves every file whatever machine it runs on; the embedded PGlite has one process, its disk is enough.
 */
export function fileStorageFor(database: Pick<Database, 'db' | 'kind'>, dataDir: string): FileStorage {
  const local = new LocalFileStorage(path.join(dataDir, 'files'));
  return database.kind === 'postgres' ? new DatabaseFileStorage(database.db, local) : local;
}

export class LocalFileStorage implements FileStorage {
  constructor(readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    // keys are made by the server, but never let one leave the root
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`storage key outside root: ${key}`);
    return full;
  }

  async put(key: string, data: Buffer) {
    const full = this.resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    const temp = `${full}.${process.pid}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, full); // a reader never sees half a file
  }

  async read(key: string) {
    const full = this.resolve(key);
    try {
      await fs.access(full);
    } catch {
      return null;
    }
    return createReadStream(full);
  }
}

/**
 * Read 256 KiB at a time (`substring` on the bytea, stored EXTERNAL so PostgreSQL fetches only those pages): a
 * 10 MB contract sent to a slow client costs one chunk of memory, not the file in the pool's buffers and again in
 * the answer. Each chunk is read with the first chunk's SHA-256, so a file replaced mid-read fails the stream
 * rather than sending half of each version.
 */
export const STORED_FILE_CHUNK = 256 * 1024;

export class DatabaseFileStorage implements FileStorage {
  /** `legacy`: this machine's DATA_DIR/files, read for keys written there before the bytes moved to the database. */
  constructor(
    private readonly db: Db,
    private readonly legacy: FileStorage | null = null,
  ) {}

  /** Idempotent: the same bytes again write nothing; other bytes under the key replace them (as on disk). */
  async put(key: string, data: Buffer) {
    const sha256 = createHash('sha256').update(data).digest('hex');
    await this.db
      .insert(storedFiles)
      .values({ key, bytes: data, size: data.length, sha256 })
      .onConflictDoUpdate({
        target: storedFiles.key,
        set: { bytes: data, size: data.length, sha256, createdAt: sql`now()` },
        setWhere: sql`${storedFiles.sha256} <> excluded.sha256`,
      });
  }

  async read(key: string): Promise<Readable | null> {
    const [head] = await this.db.select({ size: storedFiles.size, sha256: storedFiles.sha256 }).from(storedFiles).where(eq(storedFiles.key, key)).limit(1);
    if (!head) return this.legacy ? this.legacy.read(key) : null;
    const db = this.db;
    async function* chunks() {
      for (let offset = 0; offset < head!.size; offset += STORED_FILE_CHUNK) {
        const [row] = await db
          .select({ piece: sql<Uint8Array>`substring(${storedFiles.bytes} from ${offset + 1} for ${STORED_FILE_CHUNK})` })
          .from(storedFiles)
          .where(and(eq(storedFiles.key, key), eq(storedFiles.sha256, head!.sha256)));
        if (!row) throw new Error(`文件在读取时被替换或删除: ${key}`);
        yield Buffer.from(row.piece.buffer, row.piece.byteOffset, row.piece.byteLength);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /**
   * Copies this machine's DATA_DIR/files into the database once (an installation that ran on PostgreSQL with files
   * on disk, or moved from PGlite): bytes already in the database win, and a marker file keeps the next start from
   * walking the folder again. The folder is left as it was (a backup). Returns how many files were copied.
   */
  async importLocalFolder(root: string): Promise<number> {
    const marker = path.join(root, IMPORTED_MARKER);
    const exists = async (p: string) => fs.access(p).then(() => true, () => false);
    if (!(await exists(root)) || (await exists(marker))) return 0;
    let copied = 0;
    for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('.tmp') || entry.name === IMPORTED_MARKER) continue;
      const full = path.join(entry.parentPath, entry.name);
      const key = path.relative(root, full).split(path.sep).join('/');
      const data = await fs.readFile(full);
      const sha256 = createHash('sha256').update(data).digest('hex');
      const inserted = await this.db.insert(storedFiles).values({ key, bytes: data, size: data.length, sha256 }).onConflictDoNothing().returning({ key: storedFiles.key });
      copied += inserted.length;
    }
    await fs.writeFile(marker, `${new Date().toISOString()}\n`);
    return copied;
  }
}

const IMPORTED_MARKER = '.copied-to-database';
