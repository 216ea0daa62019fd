import { createHash, randomUUID } from 'node:crypto';
import {
  SIGNING_SESSION_TTL_MS,
  formatDateTime,
  type SignatureVerdict,
  type SignedDocument,
  type SignPrepareResult,
  type SignVerifyResult,
} from '@coalx/shared';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { signedDocuments, signSessions, type SignedDocumentRow } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { assembleSignedData, buildSignedAttributes, verifyWithCertificate } from '../../lib/pdf/cms';
import { embedSignature, prepareSignature, type ByteRange, type SealPlacement } from '../../lib/pdf/pdf-signature';
import { checkPdfSignatures, type PdfSignatureCheck } from '../../lib/pdf/pdf-verify';
import { sealSvg } from '../../lib/pdf/seal';
import { getEnterpriseInfo } from '../enterprise/enterprise.service';
import { filesByIds, ownedFileId, saveUpload } from '../files/files.service';
import type { FileStorage } from '../files/storage';
import { describeCertificate, issuedBy } from './certificate-info';
import { signPolicy, type EnterpriseActor } from './sign.policy';
import type { SignTrust } from './sign.trust';

const PDF_MAGIC = Buffer.from('%PDF-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function ownEnterprise(db: Db, actor: EnterpriseActor) {
  const enterprise = await getEnterpriseInfo(db, actor.enterpriseId);
  if (!enterprise) throw notFound('企业不存在');
  return enterprise;
}

/** The seal of the actor's enterprise, drawn from its registered name and credit code. */
export async function ownSealSvg(db: Db, actor: EnterpriseActor): Promise<string> {
  const enterprise = await ownEnterprise(db, actor);
  return sealSvg(enterprise.organName, enterprise.creditCode);
}

function requirePdf(data: Buffer) {
  if (data.length === 0) throw appError('file_missing', '文件内容为空');
  if (!data.subarray(0, 1024).includes(PDF_MAGIC)) throw appError('pdf_invalid', '文件不是 PDF，请上传 .pdf 文件');
}

/**
 * Step 1: prepares the uploaded PDF for the device's signature (seal, field, byte-range placeholder) and keeps it
 * as a single-use session; answers the DER the device key must sign.
 */
export async function prepareSigning(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: EnterpriseActor,
  input: { fileName: string; data: Buffer; deviceId: number; reason: string },
): Promise<SignPrepareResult> {
  requirePdf(input.data);
  return prepareDocumentSignature(db, storage, clock, trust, actor, { ...input, pdf: input.data, purpose: '' });
}

/**
 * Prepares any PDF for one signature of the actor's enterprise: the purpose names what it is for ('' for 签章管理,
 * 'contract:<id>:<sha256>' for a contract), so a session is completed only by the work that opened it.
 */
export async function prepareDocumentSignature(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: EnterpriseActor,
  input: { fileName: string; pdf: Uint8Array; deviceId: number; reason: string; purpose: string; placement?: SealPlacement },
): Promise<SignPrepareResult> {
  const certificateDer = await trust.signingCertificate(db, clock, actor, input.deviceId);
  const enterprise = await ownEnterprise(db, actor);
  const holder = describeCertificate(certificateDer).holder ?? actor.username;
  const signingTime = clock.now();
  let existingSignatures: number;
  let prepared: Awaited<ReturnType<typeof prepareSignature>>;
  try {
    existingSignatures = (await checkPdfSignatures(input.pdf)).length;
    prepared = await prepareSignature({
      pdf: input.pdf,
      seal: { name: enterprise.organName, creditCode: enterprise.creditCode },
      signerName: `${enterprise.organName} ${holder}`,
      reason: input.reason,
      location: 'CoalX 煤炭现货交易平台',
      signingTime,
      placement: input.placement,
    });
  } catch (error) {
    throw appError('pdf_invalid', `无法签章该文件：PDF 无法解析或已加密 (${(error as Error).message.slice(0, 80)})`);
  }
  const attributes = buildSignedAttributes({ digest: prepared.digest, signingTime, certificateDer });
  const id = randomUUID();
  const preparedKey = `sign/${signingTime.toISOString().slice(0, 10).replace(/-/g, '/')}/${id}.pdf`;
  await storage.put(preparedKey, Buffer.from(prepared.pdf));
  const expiresAt = new Date(signingTime.getTime() + SIGNING_SESSION_TTL_MS);
  await db.insert(signSessions).values({
    id,
    enterpriseId: actor.enterpriseId,
    userId: actor.userId,
    deviceId: input.deviceId,
    certificateDer: b64(certificateDer),
    fileName: input.fileName,
    purpose: input.purpose,
    preparedKey,
    byteRange: prepared.byteRange.join(' '),
    signedAttributesDer: b64(attributes.der),
    signingTime,
    reason: input.reason,
    signatureIndex: existingSignatures + 1,
    expiresAt,
    createdAt: signingTime,
  });
  return {
    sessionId: id,
    signedAttributes: b64(attributes.der),
    documentDigest: Buffer.from(prepared.digest).toString('hex'),
    fileName: input.fileName,
    existingSignatures,
    expiresAt: formatDateTime(expiresAt),
  };
}

async function readStored(storage: FileStorage, key: string): Promise<Uint8Array> {
  const stream = await storage.read(key);
  if (!stream) throw appError('signing_session_invalid', '待签文件已不存在，请重新签章');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export interface AssembledSignature {
  session: typeof signSessions.$inferSelect;
  /** the whole signed PDF */
  signed: Buffer;
  sha256: string;
  certificate: ReturnType<typeof describeCertificate>;
}

/**
 * Step 2, nothing saved yet: checks the session is the actor's, open and for this purpose, checks the device's
 * signature over the signed attributes and assembles the CMS into the prepared PDF. The caller saves the result
 * and spends the session (spendSigningSession) in one transaction.
 */
export async function assembleDocumentSignature(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: EnterpriseActor,
  input: { sessionId: string; signature: string; purpose: (purpose: string) => boolean },
): Promise<AssembledSignature> {
  const now = clock.now();
  const [session] = await db.select().from(signSessions).where(eq(signSessions.id, input.sessionId)).limit(1);
  if (!session || session.usedAt || session.expiresAt <= now || !input.purpose(session.purpose)) throw appError('signing_session_invalid');
  signPolicy.can(actor, 'completeSession', session);
  const rawSignature = fromB64(input.signature);
  const certificateDer = fromB64(session.certificateDer);
  const signedAttributesDer = fromB64(session.signedAttributesDer);
  const genuine = rawSignature.length === 64 && (await verifyWithCertificate(certificateDer, signedAttributesDer, rawSignature).catch(() => false));
  if (!genuine) throw appError('signature_invalid', '签名验证未通过：签名值与证书不符，文件未签章');

  const byteRange = session.byteRange.split(' ').map(Number) as ByteRange;
  const prepared = await readStored(storage, session.preparedKey);
  // the same signed attributes the device signed: rebuilt from the prepared bytes, then compared byte for byte
  const digest = createHash('sha256').update(prepared.subarray(0, byteRange[1])).update(prepared.subarray(byteRange[2])).digest();
  const attributes = buildSignedAttributes({ digest, signingTime: session.signingTime, certificateDer });
  if (!Buffer.from(attributes.der).equals(Buffer.from(signedAttributesDer))) throw appError('signing_session_invalid', '待签文件已变化，请重新签章');
  const caCertificates = await trust.caCertificates();
  const cms = assembleSignedData({ signedAttributes: attributes.attributes, certificateDer, chainDer: caCertificates.slice(0, 1), rawSignature });
  const signed = Buffer.from(embedSignature({ pdf: prepared, byteRange }, cms));
  return { session, signed, sha256: sha256Hex(signed), certificate: describeCertificate(certificateDer) };
}

/**
 * Spends a session inside the caller's transaction, the one that saves the signature: of a replay or two concurrent
 * completions only one passes. The certificate is asked about again there: one revoked since the session was
 * prepared (its device deleted, or renewed) signs nothing, as the public verification would call it revoked; one
 * revoked after this check is revoked after the signature, like any certificate revoked later.
 */
export async function spendSigningSession(tx: Tx, trust: SignTrust, assembled: AssembledSignature, now: Date) {
  if (await trust.revocation(tx, assembled.certificate.serialHex)) throw businessRule('数字证书已注销，签署未完成，请使用有效的数字证书重新签署');
  const [claimed] = await tx
    .update(signSessions)
    .set({ usedAt: now })
    .where(and(eq(signSessions.id, assembled.session.id), isNull(signSessions.usedAt), gt(signSessions.expiresAt, now)))
    .returning({ id: signSessions.id });
  if (!claimed) throw appError('signing_session_invalid');
}

/**
 * Step 2 of 签章管理: the signature is checked and assembled, then the session is spent inside the transaction
 * that records the document, so a replay or a second concurrent completion finds it used and changes nothing.
 */
export async function completeSigning(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: EnterpriseActor,
  input: { sessionId: string; signature: string },
): Promise<SignedDocument> {
  const now = clock.now();
  const assembled = await assembleDocumentSignature(db, storage, clock, trust, actor, { ...input, purpose: (p) => p === '' });
  const { session, signed, sha256, certificate } = assembled;
  const enterprise = await ownEnterprise(db, actor);
  const row = await db.transaction(async (tx) => {
    await spendSigningSession(tx, trust, assembled, now);
    const upload = await saveUpload(tx, storage, clock, actor, { filename: signedFileName(session.fileName), data: signed, visibility: 'private' });
    const fileId = await ownedFileId(tx, upload.url, actor.enterpriseId);
    const [inserted] = await tx
      .insert(signedDocuments)
      .values({
        sessionId: session.id,
        enterpriseId: actor.enterpriseId,
        userId: actor.userId,
        deviceId: session.deviceId,
        fileId,
        fileName: upload.name,
        sha256,
        signerName: certificate.holder ?? actor.username,
        signerUsername: actor.username,
        enterpriseName: enterprise.organName,
        certificateSerial: certificate.serialHex,
        reason: session.reason,
        signatureIndex: session.signatureIndex,
        signedAt: session.signingTime,
      })
      .returning();
    return { ...inserted!, url: upload.url, size: upload.size };
  });
  return presentDocument(row);
}

function signedFileName(original: string): string {
  const base = original.replace(/\.pdf$/i, '').slice(0, 180) || '文件';
  return `${base}_已签章.pdf`;
}

function presentDocument(row: SignedDocumentRow & { url: string; size: number }): SignedDocument {
  return {
    id: row.id,
    fileName: row.fileName,
    url: row.url,
    size: row.size,
    sha256: row.sha256,
    signerName: row.signerName,
    signerUsername: row.signerUsername,
    enterpriseName: row.enterpriseName,
    certificateSerial: row.certificateSerial,
    reason: row.reason,
    signatureIndex: row.signatureIndex,
    signedAt: formatDateTime(row.signedAt),
  };
}

/** What the enterprise signed, newest first. */
export async function listSignedDocuments(db: Db, actor: EnterpriseActor, page: { pageNo: number; pageSize: number }) {
  const where = eq(signedDocuments.enterpriseId, actor.enterpriseId);
  const [total] = await db.select({ n: count() }).from(signedDocuments).where(where);
  const rows = await db
    .select()
    .from(signedDocuments)
    .where(where)
    .orderBy(desc(signedDocuments.signedAt), desc(signedDocuments.id))
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize);
  const files = new Map((await filesByIds(db, rows.map((r) => r.fileId))).map((f) => [f.id, f]));
  return {
    records: rows.map((r) => presentDocument({ ...r, url: files.get(r.fileId)?.storageKey ?? '', size: files.get(r.fileId)?.size ?? 0 })),
    total: Number(total?.n ?? 0),
    current: page.pageNo,
    size: page.pageSize,
  };
}

/**
 * Looks a document number up for the public verification (the app passes the contract module's lookup): its
 * title and the SHA-256 of every signed copy the platform holds.
 */
export type VerificationReference = (db: Db, number: string) => Promise<{ title: string; signedSha256: string[] } | null>;
/** No document numbers to look up: every number is "not found". */
export const noVerificationReference: VerificationReference = async () => null;

/**
 * Public verification of every signature in an uploaded PDF: chains and revocations through `trust`, the optional
 * document number through `lookup`.
 */
export async function verifyDocument(
  db: Db,
  trust: SignTrust,
  lookup: VerificationReference,
  input: { fileName: string; data: Buffer; number?: string },
): Promise<SignVerifyResult> {
  requirePdf(input.data);
  let checks: PdfSignatureCheck[];
  try {
    checks = await checkPdfSignatures(input.data);
  } catch {
    throw appError('pdf_invalid', '文件无法解析为 PDF');
  }
  const revisionEnds = revisionEndOffsets(input.data);
  const caCertificates = await trust.caCertificates();
  const signatures: SignatureVerdict[] = [];
  for (const [i, check] of checks.entries()) {
    signatures.push(await judge(db, trust, check, i, checks, revisionEnds, caCertificates));
  }
  const sha256 = sha256Hex(input.data);
  let reference: SignVerifyResult['reference'] = null;
  if (input.number) {
    const found = await lookup(db, input.number);
    reference = { number: input.number, found: !!found, title: found?.title ?? null, matches: !!found?.signedSha256.includes(sha256) };
  }
  const allValid = signatures.length > 0 && signatures.every((s) => s.valid) && signatures.some((s) => s.coversWholeFile);
  return { fileName: input.fileName, size: input.data.length, sha256, signatures, allValid, reference, summary: summarise(signatures, allValid, reference) };
}

/** Where each revision of the file ends: just after each %%EOF marker. */
function revisionEndOffsets(pdf: Buffer): number[] {
  const ends: number[] = [];
  for (let at = pdf.indexOf('%%EOF'); at >= 0; at = pdf.indexOf('%%EOF', at + 5)) ends.push(at + 5);
  // bytes other than line ends after the last marker are a revision of their own
  const last = ends.at(-1) ?? 0;
  if (pdf.subarray(last).some((byte) => byte !== 0x0a && byte !== 0x0d)) ends.push(pdf.length);
  return ends;
}

/** The 1-based revision a signature covers up to: the revisions whose end its range reaches. */
const revisionOf = (revisionEnds: number[], coveredLength: number) => revisionEnds.filter((end) => end <= coveredLength).length;

async function judge(
  db: Db,
  trust: SignTrust,
  check: PdfSignatureCheck,
  index: number,
  all: PdfSignatureCheck[],
  revisionEnds: number[],
  caCertificates: Uint8Array[],
): Promise<SignatureVerdict> {
  const findings: string[] = [];
  const intact = check.digestMatches && check.signatureValid && check.byteRangeWellFormed;
  if (check.problem) findings.push(check.problem);
  else if (!check.digestMatches) findings.push('签署后所签内容已被篡改（摘要不符）');
  else if (!check.signatureValid) findings.push('签名值与签署人证书不符');
  else findings.push('所签内容完整，签名值由签署人证书的密钥生成');

  let changesAfter: SignatureVerdict['changesAfter'] = 'none';
  if (check.coversWholeFile) findings.push('该签章覆盖整个文件，签署后文件未被修改');
  else {
    // every revision appended after this signature must be one that a later intact signature closes
    const own = revisionOf(revisionEnds, check.coveredLength);
    const signedRevisions = new Set(all.filter((c) => c.digestMatches && c.signatureValid).map((c) => revisionOf(revisionEnds, c.coveredLength)));
    const later = Array.from({ length: revisionEnds.length - own }, (_, i) => own + 1 + i);
    changesAfter = later.length > 0 && later.every((revision) => signedRevisions.has(revision)) ? 'signatures_only' : 'modified';
    findings.push(changesAfter === 'signatures_only' ? '签署后仅追加了其他签章（增量更新），本签章所签内容未变' : '签署后文件被追加修改，修改内容不在本签章范围内');
  }

  let certificate: ReturnType<typeof describeCertificate> | null = null;
  let trustedIssuer = false;
  let validAtSigning = false;
  let revoked: SignatureVerdict['revoked'] = null;
  if (check.signerCertificateDer) {
    certificate = describeCertificate(check.signerCertificateDer);
    for (const ca of caCertificates) if (await issuedBy(check.signerCertificateDer, ca)) trustedIssuer = true;
    findings.push(trustedIssuer ? '证书由本平台 CA 签发' : '证书不是本平台 CA 签发，无法确认签署人身份');
    const at = check.signingTime ?? check.claimedTime;
    validAtSigning = !!at && at >= certificate.notBefore && at <= certificate.notAfter;
    findings.push(validAtSigning ? '签署时证书在有效期内' : '签署时证书不在有效期内');
    if (trustedIssuer) {
      const revocation = await trust.revocation(db, certificate.serialHex);
      if (revocation) {
        revoked = { revokedAt: formatDateTime(revocation.revokedAt), reason: revocation.reason };
        findings.push(`证书已于 ${revoked.revokedAt} 吊销${revocation.reason ? `（${revocation.reason}）` : ''}`);
      } else findings.push('证书未被吊销');
    }
  }
  const signingTime = check.signingTime ?? check.claimedTime;
  return {
    index: index + 1,
    fieldName: check.fieldName,
    signerName: certificate?.holder ?? check.signerName,
    enterpriseName: certificate?.enterpriseName ?? null,
    creditCode: certificate?.creditCode ?? null,
    certificate: certificate?.summary ?? null,
    signingTime: signingTime ? formatDateTime(signingTime) : null,
    intact,
    coversWholeFile: check.coversWholeFile,
    changesAfter,
    trustedIssuer,
    validAtSigning,
    revoked,
    valid: intact && changesAfter !== 'modified' && trustedIssuer && validAtSigning && !revoked,
    findings,
  };
}

function summarise(signatures: SignatureVerdict[], allValid: boolean, reference: SignVerifyResult['reference']): string {
  const parts: string[] = [];
  if (signatures.length === 0) parts.push('该文件没有数字签章');
  else if (allValid) parts.push(`共 ${signatures.length} 个签章，全部有效，文件签署后未被修改`);
  else parts.push(`共 ${signatures.length} 个签章，其中 ${signatures.filter((s) => !s.valid).length} 个无效或文件签署后被修改`);
  if (reference) {
    if (!reference.found) parts.push(`平台上没有编号为 ${reference.number} 的文件`);
    else parts.push(reference.matches ? `与平台保存的 ${reference.number} 签署文件一致` : `与平台保存的 ${reference.number} 签署文件不一致`);
  }
  return parts.join('；');
}
