import { z } from 'zod';
import { pageSchema } from '../api';

/** A pending PDF signature waits this long for the browser's signature, then it is void. */
export const SIGNING_SESSION_TTL_MS = 5 * 60 * 1000;
export const SIGN_REASON_MAX = 60;

const base64 = (what: string, max: number) =>
  z
    .string()
    .max(max, `${what}过长`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${what}须为 Base64 编码`);

/** Step 1 answer: what the browser's key must sign (DER of the CMS signed attributes). */
export const SignPrepareResultSchema = z.object({
  sessionId: z.string(),
  /** base64 DER of the signed attributes: sign these bytes with ECDSA P-256 / SHA-256 */
  signedAttributes: z.string(),
  /** hex SHA-256 of the bytes the signature will cover */
  documentDigest: z.string(),
  fileName: z.string(),
  /** signatures the document already carries */
  existingSignatures: z.number().int(),
  expiresAt: z.string(),
});
export type SignPrepareResult = z.infer<typeof SignPrepareResultSchema>;

export const SignCompleteSchema = z.object({
  sessionId: z.string().uuid('签章会话编号无效'),
  /** base64 raw ECDSA signature r || s, as WebCrypto returns it */
  signature: base64('签名值', 200),
});
export type SignComplete = z.infer<typeof SignCompleteSchema>;

export const SignedDocumentSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  /** path under {api}/api/common/static/ of the signed PDF */
  url: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  signerName: z.string(),
  signerUsername: z.string(),
  enterpriseName: z.string(),
  certificateSerial: z.string(),
  reason: z.string(),
  /** which signature of the file this one is: 1 for the first */
  signatureIndex: z.number().int(),
  signedAt: z.string(),
});
export type SignedDocument = z.infer<typeof SignedDocumentSchema>;
export const SignedDocumentPageSchema = pageSchema(SignedDocumentSchema);

export const CertificateSummarySchema = z.object({
  serialNumber: z.string(),
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  fingerprint: z.string(),
});
export type CertificateSummary = z.infer<typeof CertificateSummarySchema>;

/** How one signature of a verified PDF stands. */
export const SignatureVerdictSchema = z.object({
  index: z.number().int(),
  fieldName: z.string(),
  signerName: z.string().nullable(),
  enterpriseName: z.string().nullable(),
  creditCode: z.string().nullable(),
  certificate: CertificateSummarySchema.nullable(),
  signingTime: z.string().nullable(),
  /** the signed bytes are unchanged and the certificate's key signed them */
  intact: z.boolean(),
  /** nothing was appended after this signature */
  coversWholeFile: z.boolean(),
  /** what came after this signature: nothing, only later signatures, or other changes */
  changesAfter: z.enum(['none', 'signatures_only', 'modified']),
  /** issued by the platform CA */
  trustedIssuer: z.boolean(),
  /** the certificate was valid at the signing time */
  validAtSigning: z.boolean(),
  revoked: z.object({ revokedAt: z.string(), reason: z.string() }).nullable(),
  valid: z.boolean(),
  /** Chinese sentences, one per finding */
  findings: z.array(z.string()),
});
export type SignatureVerdict = z.infer<typeof SignatureVerdictSchema>;

export const SignVerifyResultSchema = z.object({
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  signatures: z.array(SignatureVerdictSchema),
  /** every signature valid and the last one covers the whole file */
  allValid: z.boolean(),
  /** when a document number was given: whether the platform knows it and this file is its signed copy */
  reference: z
    .object({ number: z.string(), found: z.boolean(), title: z.string().nullable(), matches: z.boolean() })
    .nullable(),
  summary: z.string(),
});
export type SignVerifyResult = z.infer<typeof SignVerifyResultSchema>;
