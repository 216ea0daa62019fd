import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/**
 * The platform CA (DESIGN.md §8): an ECDSA P-256 root key and its self-signed certificate. Made on the first start
 * in DATA_DIR/ca (key file readable by the server user only), or read from CA_CERT_FILE / CA_KEY_FILE (PEM:
 * certificate, PKCS#8 key) when an exchange brings its own.
 */
const crypto = webcrypto;
x509.cryptoProvider.set(crypto);
type CryptoKey = webcrypto.CryptoKey;

export const EC_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const CA_NAME: x509.JsonName = [{ C: ['CN'] }, { O: ['CoalX 煤炭现货交易平台'] }, { CN: ['CoalX 平台数字证书根 CA'] }];
const CA_YEARS = 20;

export interface PlatformCa {
  certificate: x509.X509Certificate;
  /** DER of the CA certificate */
  der: Uint8Array;
  pem: string;
  /** Issues a certificate for a public key; `sign` for anything else the CA signs (CRL). */
  privateKey: CryptoKey;
}

export interface CaFiles {
  dataDir: string;
  certFile?: string | null;
  keyFile?: string | null;
}

/**
 * Reads (or on the first start makes) the CA the server issues and checks with. buildApp loads it once and hands
 * it to whatever issues or checks certificates (`app.platformCa`).
 */
export async function loadPlatformCa(files: CaFiles): Promise<PlatformCa> {
  const certFile = files.certFile || path.join(files.dataDir, 'ca', 'ca-cert.pem');
  const keyFile = files.keyFile || path.join(files.dataDir, 'ca', 'ca-key.pem');
  const configured = Boolean(files.certFile || files.keyFile);
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    if (configured) throw new Error(`CA_CERT_FILE / CA_KEY_FILE 不存在: ${certFile}, ${keyFile}`);
    await createCaFiles(certFile, keyFile);
  }
  const certificate = new x509.X509Certificate(fs.readFileSync(certFile, 'utf8'));
  const privateKey = await crypto.subtle.importKey('pkcs8', pemBody(fs.readFileSync(keyFile, 'utf8')), EC_ALGORITHM, false, ['sign']);
  // a key that does not belong to the certificate would issue certificates nobody can verify
  const probe = new TextEncoder().encode('coalx-ca-probe');
  const signature = await crypto.subtle.sign(SIGNING_ALGORITHM, privateKey, probe);
  if (!(await crypto.subtle.verify(SIGNING_ALGORITHM, await certificate.publicKey.export(EC_ALGORITHM, ['verify'], crypto), signature, probe))) {
    throw new Error('CA 私钥与 CA 证书不匹配');
  }
  return { certificate, der: new Uint8Array(certificate.rawData), pem: certificate.toString('pem'), privateKey };
}

export async function createCaFiles(certFile: string, keyFile: string) {
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const keys = (await crypto.subtle.generateKey(EC_ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = new Date();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: CA_NAME,
    notBefore: now,
    notAfter: new Date(now.getTime() + CA_YEARS * 365 * 86400_000),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  // the key first, owner-only from the moment it exists
  fs.writeFileSync(keyFile, toPem('PRIVATE KEY', pkcs8), { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(certFile, certificate.toString('pem'), { mode: 0o644 });
}

/** 16 random bytes, first bit clear so the DER INTEGER stays positive. */
export function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return Buffer.from(bytes).toString('hex');
}

export function pemBody(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  return new Uint8Array(Buffer.from(body, 'base64'));
}
export function toPem(label: string, der: Uint8Array): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
