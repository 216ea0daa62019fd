import { createHash } from 'node:crypto';
import { formatDateTime, type CertificateSummary } from '@coalx/shared';
import * as pkijs from 'pkijs';
import { derEcdsaToRaw, OID, parseCertificate, verifyWithCertificate } from '../../lib/pdf/cms';

/** Names of the subject attributes a platform certificate carries. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.97': 'organizationIdentifier',
};
/** where a unified social credit code may sit in a subject */
const CREDIT_CODE_TYPES = ['2.5.4.97', '2.5.4.5', '2.5.4.11'];
const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

function attributes(name: pkijs.RelativeDistinguishedNames): Array<{ type: string; value: string }> {
  return name.typesAndValues.map((tv) => ({ type: tv.type, value: String(tv.value.valueBlock.value ?? '') }));
}

export function nameToString(name: pkijs.RelativeDistinguishedNames): string {
  return attributes(name)
    .map((a) => `${ATTRIBUTE_NAMES[a.type] ?? a.type}=${a.value}`)
    .join(', ');
}

export function serialHex(certificate: pkijs.Certificate): string {
  return Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^(00)+(?=.)/, '');
}

export interface CertificateInfo {
  summary: CertificateSummary;
  holder: string | null;
  enterpriseName: string | null;
  creditCode: string | null;
  notBefore: Date;
  notAfter: Date;
  serialHex: string;
}

export function describeCertificate(der: Uint8Array): CertificateInfo {
  const certificate = parseCertificate(der);
  const subject = attributes(certificate.subject);
  const first = (type: string) => subject.find((a) => a.type === type)?.value ?? null;
  const creditCode = subject.find((a) => CREDIT_CODE_TYPES.includes(a.type) && CREDIT_CODE.test(a.value.replace(/^.*[:-]/, '')));
  const notBefore = certificate.notBefore.value;
  const notAfter = certificate.notAfter.value;
  return {
    summary: {
      serialNumber: serialHex(certificate),
      subject: nameToString(certificate.subject),
      issuer: nameToString(certificate.issuer),
      notBefore: formatDateTime(notBefore),
      notAfter: formatDateTime(notAfter),
      fingerprint: createHash('sha256').update(der).digest('hex'),
    },
    holder: first('2.5.4.3'),
    enterpriseName: first('2.5.4.10'),
    creditCode: creditCode ? creditCode.value.replace(/^.*[:-]/, '') : null,
    notBefore,
    notAfter,
    serialHex: serialHex(certificate),
  };
}

/** True when `issuerDer` names and signed the certificate (ECDSA P-256 with SHA-256, as the platform CA signs). */
export async function issuedBy(certificateDer: Uint8Array, issuerDer: Uint8Array): Promise<boolean> {
  const certificate = parseCertificate(certificateDer);
  const issuer = parseCertificate(issuerDer);
  if (!certificate.issuer.isEqual(issuer.subject)) return false;
  if (certificate.signatureAlgorithm.algorithmId !== OID.ecdsaWithSha256) return false;
  try {
    const signature = derEcdsaToRaw(new Uint8Array(certificate.signatureValue.valueBlock.valueHexView));
    return await verifyWithCertificate(issuerDer, new Uint8Array(certificate.tbsView), signature);
  } catch {
    return false;
  }
}
