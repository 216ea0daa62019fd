import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCaFiles, loadPlatformCa } from './ca';

describe('platform CA files', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-ca-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('is made once in DATA_DIR/ca with an owner-only key file, and loaded again on the next start', async () => {
    const dataDir = tempDir();
    const first = await loadPlatformCa({ dataDir });
    const keyFile = path.join(dataDir, 'ca', 'ca-key.pem');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(first.certificate.subject).toContain('CoalX 平台数字证书根 CA');
    const again = await loadPlatformCa({ dataDir });
    expect(again.certificate.serialNumber).toBe(first.certificate.serialNumber);
  });

  it('uses CA_CERT_FILE / CA_KEY_FILE, refuses missing files and a key that is not the certificate’s', async () => {
    const a = tempDir();
    const b = tempDir();
    await createCaFiles(path.join(a, 'cert.pem'), path.join(a, 'key.pem'));
    await createCaFiles(path.join(b, 'cert.pem'), path.join(b, 'key.pem'));
    const loaded = await loadPlatformCa({ dataDir: tempDir(), certFile: path.join(a, 'cert.pem'), keyFile: path.join(a, 'key.pem') });
    expect(loaded.pem).toBe(fs.readFileSync(path.join(a, 'cert.pem'), 'utf8'));
    await expect(loadPlatformCa({ dataDir: a, certFile: path.join(a, 'nope.pem'), keyFile: path.join(a, 'key.pem') })).rejects.toThrow('不存在');
    await expect(loadPlatformCa({ dataDir: a, certFile: path.join(a, 'cert.pem'), keyFile: path.join(b, 'key.pem') })).rejects.toThrow('不匹配');
  });
});
