import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface TestTsa {
  url: string;
  /** The CA that issued the TSA's certificate (PEM), what audit:verify is given as TSA_CA_FILE. */
  caFile: string;
  /** Queries answered so far. */
  requests: number;
  close(): Promise<void>;
}

const run = promisify(execFile);

/**
 * A real RFC 3161 time-stamping authority for tests: a CA and a TSA certificate (extendedKeyUsage critical
 * timeStamping) made with openssl in a temporary folder, and a local HTTP server that answers each
 * application/timestamp-query with `openssl ts -reply`.
 */
export async function startOpensslTsa(): Promise<TestTsa> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-tsa-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '30', '-subj', '/CN=CoalX Test TSA CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', ...ec, '-keyout', file('tsa.key'), '-out', file('tsa.csr'), '-subj', '/CN=CoalX Test TSA');
  fs.writeFileSync(file('tsa.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  openssl('x509', '-req', '-in', file('tsa.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '30',
    '-extfile', file('tsa.ext'), '-out', file('tsa.pem'));
  fs.writeFileSync(file('tsaserial'), '01\n');
  fs.writeFileSync(
    file('ts.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${file('tsaserial')}`,
      'crypto_device = builtin',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );

  let served = 0;
  // one query at a time: openssl increments the serial file
  let queue: Promise<unknown> = Promise.resolve();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      queue = queue.then(async () => {
        const n = ++served;
        try {
          if (request.method !== 'POST' || request.headers['content-type'] !== 'application/timestamp-query') throw new Error('not a timestamp query');
          fs.writeFileSync(file(`q${n}.tsq`), Buffer.concat(chunks));
          await run('openssl', ['ts', '-reply', '-config', file('ts.cnf'), '-queryfile', file(`q${n}.tsq`), '-signer', file('tsa.pem'),
            '-inkey', file('tsa.key'), '-out', file(`r${n}.tsr`)]);
          response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(fs.readFileSync(file(`r${n}.tsr`)));
        } catch (err) {
          response.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caFile: file('ca.pem'),
    get requests() {
      return served;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
