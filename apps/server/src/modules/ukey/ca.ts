import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, webcrypto, type ScryptOptions } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Config } from '../../config';
import type { Database, Db } from '../../db/client';
import { ensurePlatformSecret } from '../system/platform-secret.service';

/**
 * The platform CA (DESIGN.md §8): an ECDSA P-256 root key and its self-signed certificate. Read from CA_CERT_FILE /
 * CA_KEY_FILE (PEM: certificate, PKCS#8 key) when an exchange brings its own; otherwise made on the first start, in
 * DATA_DIR/ca on PGlite (key file readable by the server user only), in the database on PostgreSQL (key encrypted
 * with CA_KEY_PASSPHRASE), so every server process of one database issues and checks with the same CA.
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
  const certFile = files.certFile || defaultCaFiles(files.dataDir).certFile;
  const keyFile = files.keyFile || defaultCaFiles(files.dataDir).keyFile;
  const configured = Boolean(files.certFile || files.keyFile);
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    if (configured) throw new Error(`CA_CERT_FILE / CA_KEY_FILE 不存在: ${certFile}, ${keyFile}`);
    await createCaFiles(certFile, keyFile);
  }
  return platformCaOf(fs.readFileSync(certFile, 'utf8'), pemBody(fs.readFileSync(keyFile, 'utf8')));
}

const defaultCaFiles = (dataDir: string) => ({ certFile: path.join(dataDir, 'ca', 'ca-cert.pem'), keyFile: path.join(dataDir, 'ca', 'ca-key.pem') });

/** A refusal to start the server's CA, said so that the operator knows what to set (main.ts prints the message alone). */
export class PlatformCaError extends Error {}

export interface CaSources extends CaFiles {
  /** CA_KEY_PASSPHRASE: encrypts the CA key held in the database (PostgreSQL only). */
  passphrase?: string | null;
}

export const CA_PASSPHRASE_MIN_LENGTH = 12;
export const CA_PASSPHRASE_MISSING = `使用 PostgreSQL (DATABASE_URL) 时须设置 CA_KEY_PASSPHRASE (至少 ${CA_PASSPHRASE_MIN_LENGTH} 个字符): 平台 CA 的私钥用它加密后存放在数据库中, 由各服务进程共用; 或用 CA_CERT_FILE / CA_KEY_FILE 指定 CA 文件`;
export const CA_PASSPHRASE_WRONG = 'CA_KEY_PASSPHRASE 不正确: 无法解密数据库中的平台 CA 私钥 (须与首次在此数据库上启动时设置的口令相同)';

export const caSourcesOf = (config: Pick<Config, 'dataDir' | 'caCertFile' | 'caKeyFile' | 'caKeyPassphrase'>): CaSources => ({
  dataDir: config.dataDir,
  certFile: config.caCertFile,
  keyFile: config.caKeyFile,
  passphrase: config.caKeyPassphrase,
});

/** Whether this configuration keeps the CA in the database: PostgreSQL, and no CA files named. */
export const caInDatabase = (kind: Database['kind'], files: CaFiles) => kind === 'postgres' && !files.certFile && !files.keyFile;

/** The CA for this database: CA_CERT_FILE / CA_KEY_FILE if named, else DATA_DIR/ca on PGlite, the database on PostgreSQL. */
export async function loadPlatformCaFor(database: Pick<Database, 'db' | 'kind'>, files: CaSources): Promise<PlatformCa> {
  return caInDatabase(database.kind, files) ? loadStoredPlatformCa(database.db, files.dataDir, files.passphrase) : loadPlatformCa(files);
}

const CA_SECRET = 'platform-ca';

/**
 * The CA kept in `platform_secret`: made by whichever process starts first (every other one reads the same row,
 * ensurePlatformSecret), or on an installation that had DATA_DIR/ca, that CA imported, so the certificates it issued
 * still verify. Stored as JSON: the certificate PEM and the PKCS#8 key sealed with the passphrase (sealKey).
 */
export async function loadStoredPlatformCa(db: Db, dataDir: string, passphrase: string | null | undefined): Promise<PlatformCa> {
  if (!passphrase || passphrase.length < CA_PASSPHRASE_MIN_LENGTH) throw new PlatformCaError(CA_PASSPHRASE_MISSING);
  const value = await ensurePlatformSecret(db, CA_SECRET, async () => {
    const legacy = defaultCaFiles(dataDir);
    const { certPem, keyPem } =
      fs.existsSync(legacy.certFile) && fs.existsSync(legacy.keyFile)
        ? { certPem: fs.readFileSync(legacy.certFile, 'utf8'), keyPem: fs.readFileSync(legacy.keyFile, 'utf8') }
        : await makeCaPem();
    // checked before it is stored: a broken pair in the database would stop every server
    await platformCaOf(certPem, pemBody(keyPem));
    return JSON.stringify({ certificate: certPem, key: await sealKey(pemBody(keyPem), passphrase) });
  });
  const stored = JSON.parse(value) as { certificate: string; key: SealedKey };
  return platformCaOf(stored.certificate, await openKey(stored.key, passphrase));
}

/**
 * AES-256-GCM under a key derived with scrypt (N 2^15, r 8, p 1: about 0.1 s and 32 MiB a try, so guessing a
 * passphrase from a stolen database is slow; PKCS#8's own encryption, as Node writes it, is PBKDF2 with 2,048
 * rounds). GCM's tag makes a wrong passphrase a clear refusal rather than a garbage key. The parameters are
 * stored beside the ciphertext, so they can be raised later without breaking stored keys.
 */
interface SealedKey {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };
const SEAL_AAD = Buffer.from('coalx-platform-ca-key-v1');

const scrypt = (passphrase: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(passphrase, salt, 32, { ...options, maxmem: 128 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))));

export async function sealKey(pkcs8: Uint8Array, passphrase: string): Promise<SealedKey> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await scrypt(passphrase, salt, SCRYPT), iv).setAAD(SEAL_AAD);
  const data = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  return { kdf: 'scrypt', ...SCRYPT, salt: b64(salt), iv: b64(iv), tag: b64(cipher.getAuthTag()), data: b64(data) };
}

export async function openKey(sealed: SealedKey, passphrase: string): Promise<Uint8Array> {
  const bytes = (b64: string) => Buffer.from(b64, 'base64');
  const key = await scrypt(passphrase, bytes(sealed.salt), { N: sealed.N, r: sealed.r, p: sealed.p });
  const decipher = createDecipheriv('aes-256-gcm', key, bytes(sealed.iv)).setAAD(SEAL_AAD).setAuthTag(bytes(sealed.tag));
  try {
    return new Uint8Array(Buffer.concat([decipher.update(bytes(sealed.data)), decipher.final()]));
  } catch {
    throw new PlatformCaError(CA_PASSPHRASE_WRONG);
  }
}

async function platformCaOf(certPem: string, pkcs8: Uint8Array): Promise<PlatformCa> {
  const certificate = new x509.X509Certificate(certPem);
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, EC_ALGORITHM, false, ['sign']);
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
  const { certPem, keyPem } = await makeCaPem();
  // the key first, owner-only from the moment it exists
  fs.writeFileSync(keyFile, keyPem, { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(certFile, certPem, { mode: 0o644 });
}

/** A new CA: its self-signed certificate and PKCS#8 key, as PEM. */
export async function makeCaPem(): Promise<{ certPem: string; keyPem: string }> {
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
  return { certPem: certificate.toString('pem'), keyPem: toPem('PRIVATE KEY', pkcs8) };
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
