import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('DATA_DIR lock', () => {
  it('refuses a second holder while the first runs, and frees the folder on unlock', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-lock-'));
    const unlock = lockDataDir(dir);
    // a live pid other than ours holds it
    fs.writeFileSync(path.join(dir, 'coalx.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/已被另一个 CoalX 进程/);
    fs.writeFileSync(path.join(dir, 'coalx.lock'), String(process.pid));
    unlock();
    expect(fs.existsSync(path.join(dir, 'coalx.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over the lock of a process that has died', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-lock-'));
    fs.writeFileSync(path.join(dir, 'coalx.lock'), '999999999');
    const unlock = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'coalx.lock'), 'utf8')).toBe(String(process.pid));
    unlock();
  });
});
