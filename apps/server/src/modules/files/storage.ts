import fs from 'node:fs/promises';
import { createReadStream, type ReadStream } from 'node:fs';
import path from 'node:path';

/** Where file bytes live; local disk now, an S3 adapter later (DESIGN.md §3). */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<ReadStream | null>;
}

export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

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
