import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS } from './demo/index';
import { CA_PASSPHRASE_MISSING } from './modules/ukey/ca';
import { multipart } from './test/multipart';
import { freePort, startServerProcess, waitForHealth, scratchDatabase, type ServerProcess } from './test/server-process';

/**
 * README "On a PostgreSQL server": the database is the only state two servers share. Two processes with separate
 * DATA_DIRs (as on two machines) on one PostgreSQL database: a file uploaded on one is served by the other (and a
 * private-file link signed by one opens on the other); the demo's contract, signed by whichever loaded the demo,
 * verifies on both against the one CA both serve; neither DATA_DIR holds a CA, a key or a file. A server without
 * CA_KEY_PASSPHRASE refuses to start. Needs TEST_DATABASE_URL (skipped without it).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const PASSPHRASE = 'shared-state-test-passphrase';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300 * 1024)]);

describe.skipIf(!adminUrl)('two servers, separate DATA_DIRs, one PostgreSQL', () => {
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  let databaseUrl = '';
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-shared-'));
    folders.push(dir);
    return dir;
  };
  const envFor = (dataDir: string, extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    DATABASE_URL: databaseUrl,
    DEMO_DATA: '1',
    CA_KEY_PASSPHRASE: PASSPHRASE,
    ...extra,
  });

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
    await scratch?.drop();
  });

  it('share files, file links and the CA; a server without CA_KEY_PASSPHRASE refuses to start', async () => {
    scratch = await scratchDatabase(adminUrl!, 'coalx_shared');
    databaseUrl = scratch.url;

    // refused before it opens anything: one line saying what to set
    const refused = startServerProcess(envFor(folder(), { CA_KEY_PASSPHRASE: '' }), await freePort());
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(CA_PASSPHRASE_MISSING);

    // started together: whichever takes the start-up lock first makes the CA and loads (and signs) the demo
    const dirs = [folder(), folder()];
    for (const dataDir of dirs) servers.push(startServerProcess(envFor(dataDir), await freePort()));
    const [a, b] = servers as [ServerProcess, ServerProcess];
    await Promise.all([waitForHealth(a.port, 150_000), waitForHealth(b.port, 150_000)]).catch((err) => {
      throw new Error(`${err}\n--- A ---\n${a.output()}\n--- B ---\n${b.output()}`);
    });
    const api = (server: ServerProcess, pathname: string) => `http://127.0.0.1:${server.port}/trade-api${pathname}`;

    // one CA, served alike by both
    const caA = await (await fetch(api(a, '/ukey/ca.crt'))).text();
    const caB = await (await fetch(api(b, '/ukey/ca.crt'))).text();
    expect(caA).toContain('BEGIN CERTIFICATE');
    expect(caB).toBe(caA);

    const signIn = async (server: ServerProcess, username: string, password: string) => {
      const response = await fetch(api(server, '/sys/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { result: { token: string } }).result.token;
    };

    // a private file uploaded on A: B serves it to its owner, and opens the 5-minute link A signed
    const sellerOnA = await signIn(a, 'seller01', DEMO_PASSWORDS.trader);
    const { payload, headers } = multipart({ name: '营业执照.png', data: PNG }, { visibility: 'private' });
    const uploaded = await fetch(api(a, '/api/common/upload'), { method: 'POST', body: payload, headers: { ...headers, 'x-access-token': sellerOnA } });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const filePath = `/trade-api/api/common/static/${((await uploaded.json()) as { result: { url: string } }).result.url}`;
    const onB = await fetch(`http://127.0.0.1:${b.port}${filePath}`, { headers: { 'x-access-token': sellerOnA } });
    expect(onB.status).toBe(200);
    expect(Buffer.from(await onB.arrayBuffer()).equals(PNG)).toBe(true);
    const link = await fetch(api(a, `/api/common/file-link?path=${encodeURIComponent(filePath)}`), { headers: { 'x-access-token': sellerOnA } });
    const linked = await fetch(`http://127.0.0.1:${b.port}${((await link.json()) as { result: { url: string } }).result.url}`);
    expect(linked.status).toBe(200);
    expect(Buffer.from(await linked.arrayBuffer()).equals(PNG)).toBe(true);

    // the demo's contract signed by both parties: its signed PDF, read on each server, verifies on each
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    let contract: { id: number; contract_no: string };
    try {
      const { rows } = await db.query(`SELECT id::int, contract_no FROM contract WHERE seller_signed_at IS NOT NULL AND buyer_signed_at IS NOT NULL ORDER BY id LIMIT 1`);
      contract = rows[0];
    } finally {
      await db.end();
    }
    expect(contract).toBeDefined();
    for (const reader of [a, b]) {
      const operator = await signIn(reader, 'operator', DEMO_PASSWORDS.operator);
      const pdf = await fetch(api(reader, `/api/contract/${contract.id}/pdf`), { headers: { 'x-access-token': operator } });
      expect(pdf.status).toBe(200);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      for (const verifier of [a, b]) {
        const form = multipart({ name: `${contract.contract_no}.pdf`, data: bytes }, { number: contract.contract_no });
        const verified = await fetch(api(verifier, '/api/sign/verify'), { method: 'POST', body: form.payload, headers: form.headers });
        const result = ((await verified.json()) as { result: { allValid: boolean; signatures: unknown[]; reference: { matches: boolean } } }).result;
        expect(result.signatures).toHaveLength(2);
        expect(result.allValid).toBe(true);
        expect(result.reference.matches).toBe(true);
      }
    }

    // nothing of it lives in either folder
    for (const dataDir of dirs) {
      expect(fs.existsSync(path.join(dataDir, 'ca'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'secrets'))).toBe(false);
      const files = fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files'), { recursive: true }) : [];
      expect(files.filter((f) => !String(f).startsWith('.'))).toEqual([]);
    }
  }, 240_000);
});
