/**
 * Reads the signatures of a PDF and checks what the document alone can prove: that each CMS signs exactly the
 * bytes its /ByteRange names, that the signer's key made the signature, and what was appended after it. Whether
 * the certificate is trusted (issuer, revocation) is the caller's question.
 */
import { loadPdfLib, pdfLib } from './pdf-lib';
import { OID, derEcdsaToRaw, parseSignedData, sha256, verifyWithCertificate } from './cms';
import { signatureFields, type ByteRange } from './pdf-signature';

export interface PdfSignatureCheck {
  fieldName: string;
  signerName: string | null;
  reason: string | null;
  /** /M of the signature dictionary */
  claimedTime: Date | null;
  subFilter: string | null;
  byteRange: ByteRange | null;
  /** length of the revision the signature covers */
  coveredLength: number;
  coversWholeFile: boolean;
  /** the byte range starts at 0 and leaves out exactly the /Contents string */
  byteRangeWellFormed: boolean;
  /** the CMS messageDigest equals the SHA-256 of the covered bytes */
  digestMatches: boolean;
  /** the signer certificate's key made the signature over the signed attributes */
  signatureValid: boolean;
  signingTime: Date | null;
  signerCertificateDer: Uint8Array | null;
  certificatesDer: Uint8Array[];
  /** why the CMS could not be read, when it could not */
  problem: string | null;
}

const text = (value: unknown) => {
  const { PDFHexString, PDFString } = pdfLib();
  return value instanceof PDFHexString || value instanceof PDFString ? value.decodeText() : null;
};

export async function checkPdfSignatures(pdf: Uint8Array): Promise<PdfSignatureCheck[]> {
  const { PDFArray, PDFDocument, PDFName, PDFNumber } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  const checks: PdfSignatureCheck[] = [];
  for (const { field, value } of signatureFields(doc)) {
    if (!value) continue; // an empty signature field: nobody signed it yet
    const fieldName = text(field.get(PDFName.of('T'))) ?? '';
    const check: PdfSignatureCheck = {
      fieldName,
      signerName: text(value.get(PDFName.of('Name'))),
      reason: text(value.get(PDFName.of('Reason'))),
      claimedTime: dateOf(value.get(PDFName.of('M'))),
      subFilter: value.lookupMaybe(PDFName.of('SubFilter'), PDFName)?.decodeText() ?? null,
      byteRange: null,
      coveredLength: 0,
      coversWholeFile: false,
      byteRangeWellFormed: false,
      digestMatches: false,
      signatureValid: false,
      signingTime: null,
      signerCertificateDer: null,
      certificatesDer: [],
      problem: null,
    };
    checks.push(check);
    const range = value.lookupMaybe(PDFName.of('ByteRange'), PDFArray);
    const numbers = range?.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN)) ?? [];
    if (numbers.length !== 4 || numbers.some((n) => !Number.isSafeInteger(n) || n < 0)) {
      check.problem = '签名的字节范围无效';
      continue;
    }
    const byteRange = numbers as ByteRange;
    check.byteRange = byteRange;
    check.coveredLength = byteRange[2] + byteRange[3];
    if (byteRange[1] > byteRange[2] || check.coveredLength > pdf.length) {
      check.problem = '签名的字节范围超出文件';
      continue;
    }
    check.coversWholeFile = check.coveredLength === pdf.length;
    const gap = Buffer.from(pdf.subarray(byteRange[1], byteRange[2])).toString('latin1');
    check.byteRangeWellFormed = byteRange[0] === 0 && /^<[0-9a-fA-F]*>$/.test(gap);
    if (!check.byteRangeWellFormed) {
      check.problem = '签名的字节范围未覆盖除签名值外的全部内容';
      continue;
    }
    try {
      const cms = parseSignedData(trimDerPadding(Buffer.from(gap.slice(1, -1), 'hex')));
      check.signingTime = cms.signingTime;
      check.signerCertificateDer = cms.signerCertificateDer;
      check.certificatesDer = cms.certificatesDer;
      const digest = sha256(pdf.subarray(0, byteRange[1]), pdf.subarray(byteRange[2], byteRange[2] + byteRange[3]));
      check.digestMatches = cms.digestAlgorithm === OID.sha256 && !!cms.messageDigest && Buffer.from(cms.messageDigest).equals(Buffer.from(digest));
      if (cms.signerCertificateDer && cms.signatureAlgorithm === OID.ecdsaWithSha256) {
        check.signatureValid = await verifyWithCertificate(cms.signerCertificateDer, cms.signedAttributesDer, derEcdsaToRaw(cms.signature));
      } else if (!cms.signerCertificateDer) {
        check.problem = '签名中缺少签署人证书';
      } else {
        check.problem = '不支持的签名算法';
      }
    } catch (error) {
      check.problem = `签名数据无法解析: ${(error as Error).message}`;
    }
  }
  return checks;
}

/** The placeholder is zero-padded after the DER: keep the outer element only. */
function trimDerPadding(bytes: Buffer): Uint8Array {
  if (bytes.length < 2 || bytes[0] !== 0x30) return bytes;
  const first = bytes[1]!;
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i]!;
  return bytes.subarray(0, 2 + count + length);
}

/** PDF date string D:YYYYMMDDHHmmSS+HH'mm' to a Date. */
function dateOf(value: unknown): Date | null {
  const raw = text(value);
  const m = raw?.match(/^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Z+-])?(\d{2})?'?(\d{2})?/);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign = 'Z', oh = '00', om = '00'] = m;
  const utc = Date.UTC(+y!, +mo - 1, +d, +h, +mi, +s);
  const offset = sign === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (+oh * 60 + +om) * 60_000;
  return new Date(utc - offset);
}
