import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { createCMSECDSASignature } from 'pkijs';
import { badRequest } from '../../errors';
import { EC_ALGORITHM, randomSerial, SIGNING_ALGORITHM, type PlatformCa } from './ca';

/** X.509 work of the key devices: read a PKCS#10, issue a certificate, publish the CRL, check a chain. */
const crypto = webcrypto;

export const CERTIFICATE_VALIDITY_MS = 365 * 86400_000;
const OID_ORGANIZATION_IDENTIFIER = '2.5.4.97';
const OID_UID = '0.9.2342.19200300.100.1.1';

export interface CertificateHolder {
  organName: string;
  creditCode: string;
  realname: string;
  username: string;
}

export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/** SHA-256 of the SubjectPublicKeyInfo: the browser files its key under the same id. */
export const keyIdOf = (publicKey: x509.PublicKey) => sha256Hex(publicKey.rawData);

/** A request the browser signed with its new key; refused (400, nothing stored) unless it is a valid P-256 one. */
export async function readCsr(base64: string): Promise<{ csr: x509.Pkcs10CertificateRequest; der: string; keyId: string }> {
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(bytes);
  } catch {
    throw badRequest('证书请求无法解析，请重新申请');
  }
  const algorithm = csr.publicKey.algorithm as webcrypto.EcKeyAlgorithm;
  if (algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256') throw badRequest('证书请求须使用 ECDSA P-256 密钥');
  let signed = false;
  try {
    signed = await csr.verify(crypto);
  } catch {
    signed = false;
  }
  if (!signed) throw badRequest('证书请求的签名无效，请重新申请');
  return { csr, der: bytes.toString('base64'), keyId: await keyIdOf(csr.publicKey) };
}

export function subjectName(holder: CertificateHolder): x509.JsonName {
  return [
    { C: ['CN'] },
    { O: [holder.organName] },
    { [OID_ORGANIZATION_IDENTIFIER]: [holder.creditCode] },
    { CN: [holder.realname] },
    { [OID_UID]: [holder.username] },
  ];
}

/** Readable names for the OIDs x509 prints as numbers. */
export function displayName(name: string): string {
  return name.replaceAll(`${OID_ORGANIZATION_IDENTIFIER}=`, '统一社会信用代码=').replaceAll(`${OID_UID}=`, 'UID=');
}

/** One year, subject enterprise + credit code + user, for signatures only (digitalSignature, nonRepudiation). */
export async function issueCertificate(ca: PlatformCa, publicKey: x509.PublicKey, holder: CertificateHolder, now: Date) {
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject: subjectName(holder),
      issuer: ca.certificate.subjectName,
      notBefore: now,
      notAfter: new Date(now.getTime() + CERTIFICATE_VALIDITY_MS),
      signingAlgorithm: SIGNING_ALGORITHM,
      publicKey,
      signingKey: ca.privateKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        await x509.SubjectKeyIdentifierExtension.create(publicKey, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return describeCertificate(certificate);
}

export async function describeCertificate(certificate: x509.X509Certificate) {
  const der = new Uint8Array(certificate.rawData);
  return {
    certificate,
    der: Buffer.from(der).toString('base64'),
    serialNumber: certificate.serialNumber,
    subject: displayName(certificate.subject),
    issuer: displayName(certificate.issuer),
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    fingerprint: await sha256Hex(der),
    keyId: await keyIdOf(certificate.publicKey),
  };
}

/** Signed by the platform CA's key (not just named after it), and within its validity at `now`. */
export async function chainsToPlatformCa(ca: PlatformCa, certificate: x509.X509Certificate, now: Date): Promise<'ok' | 'other_ca' | 'not_yet_valid' | 'expired'> {
  let signed = false;
  try {
    signed = certificate.issuer === ca.certificate.subject && (await certificate.verify({ publicKey: ca.certificate.publicKey, signatureOnly: true }, crypto));
  } catch {
    signed = false;
  }
  if (!signed) return 'other_ca';
  if (now < certificate.notBefore) return 'not_yet_valid';
  if (now > certificate.notAfter) return 'expired';
  return 'ok';
}

export const CRL_REASON_CODES: Record<string, x509.X509CrlReason> = {
  unspecified: x509.X509CrlReason.unspecified,
  keyCompromise: x509.X509CrlReason.keyCompromise,
  superseded: x509.X509CrlReason.superseded,
  cessationOfOperation: x509.X509CrlReason.cessationOfOperation,
};

/** The revocation list, signed by the CA, valid for a day (made afresh on each request). */
export async function buildCrl(ca: PlatformCa, entries: { serialNumber: string; revokedAt: Date; reason: string | null }[], now: Date): Promise<Uint8Array> {
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: ca.certificate.subjectName,
      thisUpdate: now,
      nextUpdate: new Date(now.getTime() + 86400_000),
      signingAlgorithm: SIGNING_ALGORITHM,
      signingKey: ca.privateKey,
      entries: entries.map((e) => ({ serialNumber: e.serialNumber, revocationDate: e.revokedAt, reason: CRL_REASON_CODES[e.reason ?? ''] ?? x509.X509CrlReason.unspecified })),
      extensions: [await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey, false, crypto)],
    },
    crypto,
  );
  return new Uint8Array(crl.rawData);
}

/** WebCrypto ECDSA gives r||s (64 bytes for P-256); CMS and X.509 carry the DER SEQUENCE { r, s }. */
export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  if (raw.length !== 64) throw badRequest('签名格式不正确');
  return new Uint8Array(createCMSECDSASignature(raw.slice().buffer));
}

/** Checks a raw r||s signature by the certificate's key over `data`. */
export async function verifyRawSignature(certificate: x509.X509Certificate, data: Uint8Array, raw: Uint8Array): Promise<boolean> {
  if (raw.length !== 64) return false;
  const key = await certificate.publicKey.export(EC_ALGORITHM, ['verify'], crypto);
  return crypto.subtle.verify(SIGNING_ALGORITHM, key, raw, data);
}
