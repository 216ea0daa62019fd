import 'reflect-metadata';
import { webcrypto, type webcrypto as WebCrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/**
 * Certificates for tests, made with Node's WebCrypto (the API the browser's key devices use): a CA and end-entity
 * certificates with ECDSA P-256 keys, the signer's private key kept as a non-extractable CryptoKey.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
type CryptoKey = WebCrypto.CryptoKey;
type CryptoKeyPair = WebCrypto.CryptoKeyPair;
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86400_000;

export interface TestCa {
  certificate: x509.X509Certificate;
  der: Uint8Array;
  keys: CryptoKeyPair;
}

export interface TestSigner {
  certificateDer: Uint8Array;
  privateKey: CryptoKey;
  /** signs like WebCrypto in the browser: raw r || s */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

let serial = 1;

export async function createTestCa(name = 'CoalX 测试根证书'): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(16, '0'),
    name: `CN=${name}, O=CoalX`,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 3650 * DAY),
    keys,
    signingAlgorithm: EC,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  return { certificate, der: new Uint8Array(certificate.rawData), keys };
}

export async function issueTestCertificate(
  ca: TestCa,
  subject: { enterprise: string; creditCode: string; user: string },
  validity: { notBefore?: Date; notAfter?: Date } = {},
): Promise<TestSigner> {
  const keys = (await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (Date.now() * 1000 + serial++).toString(16).padStart(16, '0'),
    subject: [{ CN: [subject.user] }, { O: [subject.enterprise] }, { '2.5.4.97': [subject.creditCode] }],
    issuer: ca.certificate.subjectName,
    notBefore: validity.notBefore ?? new Date(Date.now() - DAY),
    notAfter: validity.notAfter ?? new Date(Date.now() + 365 * DAY),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: EC,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true)],
  });
  return {
    certificateDer: new Uint8Array(certificate.rawData),
    privateKey: keys.privateKey,
    sign: async (data) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, data)),
  };
}
